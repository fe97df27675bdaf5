from django.contrib import admin
from django.urls import include, path

from members.views import seats as member_seats
from ncpc.club import sheets
from ncpc.club.views import identity, imports, mail, pages, pwa, season_files, setup

urlpatterns = [
    path("", pages.home, name="home"),
    path("healthz", pages.healthz, name="healthz"),
    # The installable night (issue 20): the service worker at the root, so its scope is the whole site.
    path("sw.js", pwa.service_worker, name="pwa_service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="pwa_manifest"),
    path("reports/", pages.reports, name="reports"),
    path("about/", pages.about, name="about"),
    path("club/", identity.club_identity_page, name="club_identity"),
    path("imports/", imports.imports, name="imports"),
    path("audit/", pages.audit, name="audit"),
    # Starting a club in the app (SPEC §16.8): the set-up checklist.
    path("setup/", setup.setup, name="setup"),
    path("setup/confirm/", setup.setup_confirm, name="setup_confirm"),
    path("setup/home/", setup.setup_home, name="setup_home"),
    # A season as the file import_season reads (issue 47): what it carries, and the backup as the full copy.
    path("season-files/", season_files.season_files, name="season_files"),
    path("season-files/<str:season>.json", season_files.season_file_download, name="season_file_download"),
    path("mail/", mail.deliveries, name="mail_deliveries"),
    path("mail/<int:delivery_id>/send-again/", mail.delivery_send_again, name="mail_send_again"),
    # Before Django's own: the reset form is limited per address and client, and its message is queued.
    path("accounts/password_reset/", mail.password_reset, name="password_reset"),
    path("accounts/login/", pages.login, name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("members/", include("members.urls")),
    # Members opens a season (it carries the seats over), so the form posts here rather than to events.
    path("events/seasons/new/", member_seats.season_new, name="season_new"),
    path("events/<str:season>/<int:number>/sheet.pdf", sheets.event_sheet, name="event_sheet"),
    path("events/<str:season>/<int:number>/sheet/", sheets.event_sheet_page, name="event_sheet_page"),
    path("events/", include("events.urls")),
    path("finance/", include("finance.urls")),
    path("standings/", include("standings.urls")),
    path("api/v1/", include("ncpc.club.api_urls")),
    path("admin/", admin.site.urls),
]

handler403 = "ncpc.club.views.errors.error_403"
handler404 = "ncpc.club.views.errors.error_404"
handler500 = "ncpc.club.views.errors.error_500"
