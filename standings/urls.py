from django.urls import path, register_converter

from standings import views


class SeasonNameConverter:
    """Season names like 2026-27, so fixed words (report, history) never clash with a season."""

    regex = r"\d{4}-\d{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value) -> str:
        return str(value)


register_converter(SeasonNameConverter, "standings_season")

app_name = "standings"

urlpatterns = [
    path("", views.current, name="current"),
    path("report/", views.points_report_current, name="points_report_current"),
    path("history/", views.history, name="history"),
    path("history/<slug:key>/", views.career, name="career"),
    path("<standings_season:season>/", views.season, name="season"),
    path(
        "<standings_season:season>/report/<int:year>/<int:month>/",
        views.points_report,
        name="points_report",
    ),
    path("<standings_season:season>/tie-breaks/", views.tie_breaks, name="tie_breaks"),
    path("<standings_season:season>/wsop-declines/", views.declines, name="declines"),
    path(
        "<standings_season:season>/wsop-declines/<int:pk>/withdraw/",
        views.decline_withdraw,
        name="decline_withdraw",
    ),
]
