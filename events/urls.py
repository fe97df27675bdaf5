from django.urls import path, register_converter

from events.converters import SeasonConverter
from events.views import console, night, pages, results, rsvp, schedule, sync

register_converter(SeasonConverter, "season")

app_name = "events"

urlpatterns = [
    path("rules/", pages.rules_current, name="rules_current"),
    path("rules/<str:season>/", pages.rules, name="rules"),
    path("rules/<str:season>/reschedule/", pages.season_reschedule, name="season_reschedule"),
    path("", schedule.schedule_current, name="schedule_current"),
    path("venues/", schedule.venues, name="venues"),
    path("venues/<int:pk>/", schedule.venue_edit, name="venue_edit"),
    path("calendar/<int:user_id>-<str:token>.ics", schedule.calendar_feed, name="calendar_feed"),
    path("<season:season>/", schedule.schedule, name="schedule"),
    path("<season:season>.ics", schedule.season_ics, name="season_ics"),
    path("<season:season>/<int:number>/", schedule.event_detail, name="event"),
    path("<season:season>/<int:number>/move/", schedule.event_move_view, name="event_move"),
    path("<season:season>/<int:number>/announce/", schedule.event_announce_view, name="event_announce"),
    path("<season:season>/<int:number>/rsvp/", rsvp.rsvp_answer, name="rsvp"),
    path("<season:season>/<int:number>/rsvp/record/", rsvp.rsvp_record, name="rsvp_record"),
    path("<season:season>/<int:number>/attendance/", results.attendance, name="attendance"),
    path(
        "<season:season>/<int:number>/attendance/prepare/",
        results.attendance_prepare,
        name="attendance_prepare",
    ),
    path("<season:season>/<int:number>/attendance/set/", results.attendance_set, name="attendance_set"),
    path(
        "<season:season>/<int:number>/attendance/recheck/",
        results.attendance_recheck,
        name="attendance_recheck",
    ),
    path(
        "<season:season>/<int:number>/attendance/substitute/",
        results.substitute_set,
        name="substitute_set",
    ),
    path("<season:season>/<int:number>/results/", results.results_entry, name="results"),
    path("<season:season>/<int:number>/results/bust/", results.results_bust, name="results_bust"),
    path("<season:season>/<int:number>/results/abuse/", results.results_abuse, name="results_abuse"),
    path("<season:season>/<int:number>/results/undo/", results.results_undo, name="results_undo"),
    path("<season:season>/<int:number>/results/finish/", results.results_finish, name="results_finish"),
    path("<season:season>/<int:number>/results/reopen/", results.results_reopen, name="results_reopen"),
    # Tournament night (issue 7): the clock, seats, balancing, the final table, late arrivals.
    path("<season:season>/<int:number>/clock/", night.clock, name="clock"),
    path("<season:season>/<int:number>/clock/state/", night.clock_state, name="clock_state"),
    path("<season:season>/<int:number>/clock/action/", night.clock_action, name="clock_action"),
    path("<season:season>/<int:number>/clock/plan/", sync.clock_plan, name="clock_plan"),
    path("<season:season>/<int:number>/night/", night.night, name="night"),
    path("<season:season>/<int:number>/night/seats/", night.seats_print, name="night_seats"),
    path("<season:season>/<int:number>/night/draw/", night.seats_draw, name="night_draw"),
    path("<season:season>/<int:number>/night/move/", night.balance_apply, name="night_move"),
    path("<season:season>/<int:number>/night/button/", night.button_set, name="night_button"),
    path("<season:season>/<int:number>/night/final/", night.final_table, name="night_final"),
    path("<season:season>/<int:number>/night/late/", night.late_arrival, name="night_late"),
    path("<season:season>/<int:number>/night/arrived/", night.arrived, name="night_arrived"),
    path("<season:season>/<int:number>/night/seat/", night.seat_add, name="night_seat_add"),
    # Changes recorded offline (issue 20): the device's queue, and the conflicts the Vice President settles.
    path("<season:season>/<int:number>/night/sync/", sync.night_sync_view, name="night_sync"),
    path("<season:season>/<int:number>/night/conflicts/", sync.night_conflicts, name="night_conflicts"),
    path(
        "<season:season>/<int:number>/night/conflicts/<int:pk>/",
        sync.night_conflict_resolve,
        name="night_conflict_resolve",
    ),
    # The night console (issue 19): the night on one live screen for the officers running it.
    path("<season:season>/<int:number>/console/", console.console, name="console"),
    path("<season:season>/<int:number>/console/state/", console.console_state, name="console_state"),
    path("<season:season>/<int:number>/console/act/", console.console_act, name="console_act"),
]
