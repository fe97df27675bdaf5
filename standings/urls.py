from django.urls import path, register_converter

from standings.views import pages, records


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
    path("", pages.current, name="current"),
    path("report/", pages.points_report_current, name="points_report_current"),
    path("history/", pages.history, name="history"),
    path("history/<slug:key>/", pages.career, name="career"),
    path("<standings_season:season>/", pages.season, name="season"),
    path(
        "<standings_season:season>/report/<int:year>/<int:month>/",
        pages.points_report,
        name="points_report",
    ),
    path("<standings_season:season>/tie-breaks/", records.tie_breaks, name="tie_breaks"),
    path("<standings_season:season>/wsop-declines/", records.declines, name="declines"),
    path(
        "<standings_season:season>/wsop-declines/<int:pk>/withdraw/",
        records.decline_withdraw,
        name="decline_withdraw",
    ),
]
