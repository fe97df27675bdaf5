from django.urls import path

from events import views

app_name = "events"

urlpatterns = [
    path("rules/", views.rules_current, name="rules_current"),
    path("rules/<str:season>/", views.rules, name="rules"),
    path("seasons/new/", views.season_new, name="season_new"),
]
