"""Machine-readable addresses under /api/v1/ (SPEC §14)."""

from django.urls import path

from ncpc.club import api

urlpatterns = [
    path("seasons/<str:season>/report", api.season_report_json, name="api_season_report"),
]
