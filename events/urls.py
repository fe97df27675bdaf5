from django.urls import path, register_converter

from events import night_views, views, views_console, views_results, views_rsvp, views_schedule, views_sync
from events.converters import SeasonConverter

register_converter(SeasonConverter, "season")

app_name = "events"

urlpatterns = [
    path("rules/", views.rules_current, name="rules_current"),
    path("rules/<str:season>/", views.rules, name="rules"),
    path("", views_schedule.schedule_current, name="schedule_current"),
    path("venues/", views_schedule.venues, name="venues"),
    path("venues/<int:pk>/", views_schedule.venue_edit, name="venue_edit"),
    path("calendar/<int:user_id>-<str:token>.ics", views_schedule.calendar_feed, name="calendar_feed"),
    path("<season:season>/", views_schedule.schedule, name="schedule"),
    path("<season:season>.ics", views_schedule.season_ics, name="season_ics"),
    path("<season:season>/<int:number>/", views_schedule.event_detail, name="event"),
    path("<season:season>/<int:number>/move/", views_schedule.event_move_view, name="event_move"),
    path("<season:season>/<int:number>/announce/", views_schedule.event_announce_view, name="event_announce"),
    path("<season:season>/<int:number>/rsvp/", views_rsvp.rsvp_answer, name="rsvp"),
    path("<season:season>/<int:number>/rsvp/record/", views_rsvp.rsvp_record, name="rsvp_record"),
    path("<season:season>/<int:number>/attendance/", views_results.attendance, name="attendance"),
    path(
        "<season:season>/<int:number>/attendance/prepare/",
        views_results.attendance_prepare,
        name="attendance_prepare",
    ),
    path("<season:season>/<int:number>/attendance/set/", views_results.attendance_set, name="attendance_set"),
    path(
        "<season:season>/<int:number>/attendance/recheck/",
        views_results.attendance_recheck,
        name="attendance_recheck",
    ),
    path(
        "<season:season>/<int:number>/attendance/substitute/",
        views_results.substitute_set,
        name="substitute_set",
    ),
    path("<season:season>/<int:number>/results/", views_results.results_entry, name="results"),
    path("<season:season>/<int:number>/results/bust/", views_results.results_bust, name="results_bust"),
    path("<season:season>/<int:number>/results/abuse/", views_results.results_abuse, name="results_abuse"),
    path("<season:season>/<int:number>/results/undo/", views_results.results_undo, name="results_undo"),
    path("<season:season>/<int:number>/results/finish/", views_results.results_finish, name="results_finish"),
    path("<season:season>/<int:number>/results/reopen/", views_results.results_reopen, name="results_reopen"),
    # Tournament night (issue 7): the clock, seats, balancing, the final table, late arrivals.
    path("<season:season>/<int:number>/clock/", night_views.clock, name="clock"),
    path("<season:season>/<int:number>/clock/state/", night_views.clock_state, name="clock_state"),
    path("<season:season>/<int:number>/clock/action/", night_views.clock_action, name="clock_action"),
    path("<season:season>/<int:number>/clock/plan/", views_sync.clock_plan, name="clock_plan"),
    path("<season:season>/<int:number>/night/", night_views.night, name="night"),
    path("<season:season>/<int:number>/night/seats/", night_views.seats_print, name="night_seats"),
    path("<season:season>/<int:number>/night/draw/", night_views.seats_draw, name="night_draw"),
    path("<season:season>/<int:number>/night/move/", night_views.balance_apply, name="night_move"),
    path("<season:season>/<int:number>/night/button/", night_views.button_set, name="night_button"),
    path("<season:season>/<int:number>/night/final/", night_views.final_table, name="night_final"),
    path("<season:season>/<int:number>/night/late/", night_views.late_arrival, name="night_late"),
    path("<season:season>/<int:number>/night/arrived/", night_views.arrived, name="night_arrived"),
    path("<season:season>/<int:number>/night/seat/", night_views.seat_add, name="night_seat_add"),
    # Changes recorded offline (issue 20): the device's queue, and the conflicts the Vice President settles.
    path("<season:season>/<int:number>/night/sync/", views_sync.night_sync_view, name="night_sync"),
    path("<season:season>/<int:number>/night/conflicts/", views_sync.night_conflicts, name="night_conflicts"),
    path(
        "<season:season>/<int:number>/night/conflicts/<int:pk>/",
        views_sync.night_conflict_resolve,
        name="night_conflict_resolve",
    ),
    # The night console (issue 19): the night on one live screen for the officers running it.
    path("<season:season>/<int:number>/console/", views_console.console, name="console"),
    path("<season:season>/<int:number>/console/state/", views_console.console_state, name="console_state"),
    path("<season:season>/<int:number>/console/act/", views_console.console_act, name="console_act"),
]
