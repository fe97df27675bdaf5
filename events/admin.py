"""The events app in the Django admin. SPEC §16.11: the admin cannot rewrite history.

Seasons (their rules and rule tables), events, seats at an event, busts, nights, table moves and who's-coming
answers are read-only here: every event carries money (a season's dues installments and late fees fall on its
events' dates, a late joiner's dues count from an event's number), results and answers hang on it, and the club's
pages change them through audited commands (rules page, moving and announcing an event, results entry and its
corrections, the night console). The database protects them too: results, nights and answers are never deleted
with their event (``on_delete=PROTECT``, events migration 0016). Venues carry no results or money and stay
editable.
"""

from django.contrib import admin

from events.models import (
    Attendance,
    BlindLevel,
    DuesInstallment,
    Elimination,
    Event,
    Night,
    NightMove,
    PayoutRow,
    Rsvp,
    Season,
    Venue,
    WsopRow,
)
from ncpc.core.admin_read_only import ReadOnlyAdmin, ReadOnlyTabularInline


class PayoutInline(ReadOnlyTabularInline):
    model = PayoutRow


class WsopInline(ReadOnlyTabularInline):
    model = WsopRow


class DuesInline(ReadOnlyTabularInline):
    model = DuesInstallment


class BlindInline(ReadOnlyTabularInline):
    model = BlindLevel


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("name", "start", "end", "max_members", "dues_per_event")
    inlines = (DuesInline, PayoutInline, WsopInline, BlindInline)


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ("name", "address", "active")


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("season", "number", "date", "venue", "status")
    list_filter = ("season", "status")


@admin.register(Attendance)
class AttendanceAdmin(ReadOnlyAdmin):
    list_display = ("event", "membership", "status", "substitute_name", "place")
    list_filter = ("event__season", "status")
    list_select_related = ("event__season", "membership__person", "membership__season")


@admin.register(Elimination)
class EliminationAdmin(ReadOnlyAdmin):
    list_display = ("event", "hand", "attendance", "start_chips", "draw", "removed_for_abuse", "created_at")
    list_filter = ("event__season",)
    list_select_related = ("event__season", "attendance__membership__person", "attendance__event__season")


@admin.register(Night)
class NightAdmin(ReadOnlyAdmin):
    list_display = ("event", "started_at", "seats_drawn_at", "final_table_at")
    list_select_related = ("event__season",)


@admin.register(NightMove)
class NightMoveAdmin(ReadOnlyAdmin):
    list_display = ("event", "kind", "after_hand", "from_table", "from_seat", "to_table", "to_seat")
    list_select_related = ("event__season",)


@admin.register(Rsvp)
class RsvpAdmin(ReadOnlyAdmin):
    list_display = ("event", "membership", "answer", "answered_at", "applied_at")
    list_filter = ("event__season", "answer")
    list_select_related = ("event__season", "membership__person", "membership__season")
