"""Seasons and their rules (every number of the bylaws, per season), venues and events."""

import datetime as dt
from decimal import Decimal
from typing import NamedTuple

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.text import capfirst

from ncpc.core.fields import MoneyField
from ncpc.core.money import DEFAULT_MONEY_LIMIT

PAYOUT_ROW = "payout_row"
WSOP_ROW = "wsop_row"


class RuleText(NamedTuple):
    label: str
    help_text: str


# The season's rules that are tables, not fields of ``Season`` (whose rules are named by their fields'
# verbose_name and help_text), and the one row of a table a rule change may name (``PAYOUT_ROW``, ``WSOP_ROW``).
# ``Season.rule_label`` and ``Season.rule_help_text`` read both: every page, form and ballot asks them.
RULE_TABLES = {
    "dues_schedule": RuleText(
        "Dues schedule (§2.8)",
        "The amount charged on the date of each listed event; together the dues and the admin fee.",
    ),
    "payout_table": RuleText(
        "Event payouts (§6.2)",
        "Prizes paid at an event for each number of members; a row adds up to that count's event fund.",
    ),
    "wsop_table": RuleText(
        "WSOP prizes by member count (§8.1)",
        "How many WSOP seats the club pays for, by the number of members.",
    ),
    "blind_structure": RuleText(
        "Blind structure (§6.1)",
        "Levels and breaks in play order; a level without minutes has no end.",
    ),
    PAYOUT_ROW: RuleText(
        "Event payout row (§6.2)",
        "The prizes for one number of members, like '16: 145, 95, 70, 50' (members: 1st, 2nd, …).",
    ),
    WSOP_ROW: RuleText(
        "WSOP prizes row (§8.1)",
        "The WSOP seats for a band of member counts, like '15-17: 2' (members from-to: prizes).",
    ),
}


class Season(models.Model):
    """A fiscal year (1 Aug – 31 Jul) and the rules the club voted for it (SPEC §1).

    The scalar rules live here; the tables (payouts, WSOP prizes, dues schedule, blind structure) in the
    child models below. Rule modules read them through ``events.selectors.season_rules``. A rule's name, label
    and help text are defined once: a field's ``verbose_name`` and ``help_text`` (a table's in ``RULE_TABLES``),
    read through ``rule_label`` / ``rule_help_text`` by the rules form, the rule-change ballot and the pages.
    """

    name = models.CharField(max_length=9, unique=True, help_text="Like 2026-27.")
    start = models.DateField()
    end = models.DateField()

    events_per_season = models.PositiveSmallIntegerField(
        "events per season", help_text="How many events the season has (§4.4); the schedule lists each one."
    )
    # Each entry is [month, nth day of the week]; one entry per event, in order (SPEC §3).
    schedule = models.JSONField(
        "schedule (month/nth day per event)",
        help_text="One month/nth-day pair per event, in order: 11/2 is the 2nd Saturday of November when the "
        "events are on Saturdays (§4.5).",
    )
    # The day of the week the schedule's "nth" counts (Monday 0 … Sunday 6): the bylaws' Saturday by default.
    schedule_weekday = models.PositiveSmallIntegerField(
        "day of the week of events",
        choices=[
            (0, "Monday"),
            (1, "Tuesday"),
            (2, "Wednesday"),
            (3, "Thursday"),
            (4, "Friday"),
            (5, "Saturday"),
            (6, "Sunday"),
        ],
        default=5,
        help_text="The schedule's nth day is this day of the week: the 4th Thursday, the 2nd Saturday (§4.5).",
    )
    event_start_time = models.TimeField("event start time", help_text="When play starts at every event.")
    announce_days_ahead = models.PositiveSmallIntegerField(
        "announce events at least this many days ahead",
        help_text="Less notice needs an officer's confirmation, and the event shows as announced late (§4.6).",
    )

    max_members = models.PositiveSmallIntegerField(
        "maximum members", help_text="Seats in the club; a new member needs a free one (§2.3)."
    )
    minimum_age = models.PositiveSmallIntegerField(
        "minimum age", help_text="Years of age a new member must have on the admission date (§2.1)."
    )
    dues_per_event = MoneyField(
        "dues per event ($)",
        help_text="Dues for each event (§2.6).",
    )
    admin_fee = MoneyField(
        "annual admin fee ($)",
        help_text="Charged once a season with the first dues (§2.7).",
    )
    late_fee = MoneyField(
        "late fee per month ($)",
        help_text="Charged monthly from the December event while a member is not paid in full (§2.10).",
    )
    # Late joiners (SPEC §2): first event up to this number still owes the admin fee and can qualify...
    late_joiner_full_until_event = models.PositiveSmallIntegerField(
        "late joiners still qualify up to first event",
        help_text="A member whose first event is this one or earlier owes the admin fee and can still qualify "
        "for the WSOP; a later one owes no admin fee, cannot qualify, and gets the late joiner's share (§2.5).",
    )
    # ...if they play at least this many of the events from this number to the last.
    late_joiner_min_events = models.PositiveSmallIntegerField(
        "late joiners must play at least this many events",
        help_text="To stay WSOP-eligible, a late joiner plays at least this many of the events counted (§2.5).",
    )
    late_joiner_window_from_event = models.PositiveSmallIntegerField(
        "late joiners' events counted from event",
        help_text="The events a late joiner must play are counted from this event to the last (§2.5).",
    )

    starting_stack = models.PositiveIntegerField(
        "starting stack (chips)", help_text="Chips each seat starts with (§4.3)."
    )
    substitutes_per_season = models.PositiveSmallIntegerField(
        "substitutes per member per season",
        help_text="Events a season a member may send a substitute to (§5.3.1).",
    )
    late_arrival_levels = models.PositiveSmallIntegerField(
        "absent players' chips removed after level",
        help_text="Absent players' chips are removed at the end of this blind level, unless they called in and "
        "use their exemption of the season (§6.3).",
    )
    table_size = models.PositiveSmallIntegerField(
        "seats per table",
        help_text="Players seated at each table while there is more than one table (§6.6).",
    )
    final_table_size = models.PositiveSmallIntegerField(
        "final table size",
        help_text="Players at the final table; it starts when this many or fewer are left (§6.7).",
    )
    # Points for places 1, 2, 3, …; places beyond the list score 0.
    points_table = models.JSONField(
        "points for places 1, 2, 3, …",
        help_text="Points for 1st, 2nd, 3rd… place, separated by commas; places beyond the list score 0 (§10.1).",
    )

    wsop_entry = MoneyField(
        "WSOP entry ($)",
        help_text="The buy-in of the WSOP event paid for each WSOP seat (§8.1).",
    )
    wsop_expenses = MoneyField(
        "WSOP expenses ($)",
        help_text="Expenses paid with each WSOP seat (§8.1).",
    )
    winnings_threshold = MoneyField(
        "WSOP winnings shared above ($)",
        help_text="A representative's gross WSOP winnings above this are shared with the club (§9.2).",
    )
    representative_share_pct = models.DecimalField(
        "representative keeps (%)",
        help_text="Part of the net winnings the representative keeps; the rest is shared (§9.2.1).",
        max_digits=5,
        decimal_places=2,
    )
    late_joiner_share_pct = models.DecimalField(
        "late joiner's share (%)",
        help_text="Part of the net winnings paid to each member who joined too late to qualify (§2.5).",
        max_digits=5,
        decimal_places=2,
    )
    declined_share_pct = models.DecimalField(
        "declined qualifier's share (%)",
        help_text="Part of the net winnings paid to the qualifier who could not go (§8.4).",
        max_digits=5,
        decimal_places=2,
    )

    check_approvals = models.PositiveSmallIntegerField(
        "officers approving a check",
        default=3,
        validators=[MinValueValidator(3)],
        help_text="Different officers who must approve a check or an escrow disbursement before it is issued "
        "(§4.7: a quorum of at least three).",
    )
    money_limit = MoneyField(
        "largest single amount ($)",
        default=DEFAULT_MONEY_LIMIT,
        validators=[MinValueValidator(Decimal("0.01"))],
        help_text="Not a bylaws number: the largest amount one payment, transfer or check may be, so that a "
        "slip of the keyboard cannot book a fortune.",
    )

    dues_reminder_days_ahead = models.PositiveSmallIntegerField(
        "send dues reminders this many days before an event",
        default=7,
        help_text="Not a bylaws number: members who must pay to play at the next event get one e-mail saying how "
        "much, this many days before it.",
    )

    rsvp_reminder_days = models.PositiveSmallIntegerField(
        "remind who has not answered, days before",
        default=3,
        help_text="Not a bylaws number: this many days before a night, members who have not said whether they "
        "come are e-mailed once (0: no reminder).",
    )

    # Not a bylaws number: whether members get an e-mail with the night's results once an event is final.
    results_email = models.BooleanField(
        "e-mail members the results after each night",
        default=True,
        help_text="Not a bylaws rule: the club's choice.",
    )

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-start", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(end__gt=models.F("start")), name="events_season_end_after_start"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def contains(self, day: dt.date) -> bool:
        return self.start <= day <= self.end

    @classmethod
    def rule_label(cls, name: str) -> str:
        """What people call the season rule ``name`` (a ``SeasonRules`` field, or a row a rule change names)."""
        if name in RULE_TABLES:
            return RULE_TABLES[name].label
        return capfirst(str(cls._rule_field(name).verbose_name))

    @classmethod
    def rule_help_text(cls, name: str) -> str:
        if name in RULE_TABLES:
            return RULE_TABLES[name].help_text
        return str(cls._rule_field(name).help_text)

    @classmethod
    def _rule_field(cls, name: str) -> models.Field[object, object]:
        field = cls._meta.get_field(name)
        if not isinstance(field, models.Field):  # a reverse relation (a rule table) has no label of its own
            raise LookupError(f"{name} is not a rule of the season")
        return field


class PayoutRow(models.Model):
    """One row of §6.2: the prizes paid at an event for a given number of members."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="payout_rows")
    member_count = models.PositiveSmallIntegerField()
    first = MoneyField()
    second = MoneyField()
    third = MoneyField()
    fourth = MoneyField(null=True, blank=True)

    class Meta:
        ordering = ("season", "member_count", "pk")
        constraints = [
            models.UniqueConstraint(fields=["season", "member_count"], name="events_payoutrow_one_per_count"),
        ]

    def __str__(self) -> str:
        return f"{self.season} payouts for {self.member_count} members"


class WsopRow(models.Model):
    """One band of §8.1: how many WSOP seats a member count pays for."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="wsop_rows")
    min_members = models.PositiveSmallIntegerField()
    max_members = models.PositiveSmallIntegerField()
    prizes = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("season", "min_members", "pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(max_members__gte=models.F("min_members")), name="events_wsoprow_band_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} WSOP {self.min_members}–{self.max_members}: {self.prizes}"


class DuesInstallment(models.Model):
    """One line of §2.8: the amount charged on the date of the given event."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="dues_installments")
    event_number = models.PositiveSmallIntegerField()
    amount = MoneyField()

    class Meta:
        ordering = ("season", "event_number", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "event_number"], name="events_duesinstallment_one_per_event"
            ),
            models.CheckConstraint(condition=Q(amount__gte=0), name="events_duesinstallment_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.season} event {self.event_number}: {self.amount}"


class BlindLevel(models.Model):
    """A level or a break of the §6.1 structure, in play order."""

    class Kind(models.TextChoices):
        LEVEL = "level", "Level"
        BREAK = "break", "Break"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="blind_levels")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.LEVEL)
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    minutes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Empty: the level has no end."
    )
    note = models.CharField(max_length=120, blank=True)

    class Meta:
        ordering = ("season", "position", "pk")
        constraints = [
            models.UniqueConstraint(fields=["season", "position"], name="events_blindlevel_one_per_position"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.BREAK:
            return f"Break {self.minutes} min"
        return f"{self.small_blind}/{self.big_blind}"


class Venue(models.Model):
    name = models.CharField(max_length=100, unique=True)
    address = models.CharField(max_length=200, blank=True)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ("name", "pk")

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """One tournament of a season; it keeps its number when officers move its date (§4.4.1)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        IN_PROGRESS = "in_progress", "In progress"
        FINAL = "final", "Results final"

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="events")
    number = models.PositiveSmallIntegerField()
    date = models.DateField()
    starts_at = models.TimeField()
    venue = models.ForeignKey(Venue, null=True, blank=True, on_delete=models.PROTECT, related_name="events")
    announced_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    # Announced later than the season's announce_days_ahead before the date, with an officer's confirmation.
    announced_late = models.BooleanField(default=False)
    # Optimistic concurrency for results entry: every change to attendance or results adds one; a form posts
    # the version it saw and a stale one is refused (ConcurrentChange).
    results_version = models.PositiveIntegerField(default=0)
    # SPEC §15.11: the places of the last final results (``events.placings.Placing`` fields), written when the
    # results are finished and kept while they are reopened for a correction, so that standings and reports go
    # on showing them until the corrected results are final.
    final_placings = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ("season", "number", "pk")
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="events_event_one_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.season} event {self.number} ({self.date:%b %-d})"

    @property
    def under_correction(self) -> bool:
        """Final results reopened for a correction (and not finished again yet)."""
        return self.status != self.Status.FINAL and bool(self.final_placings)

    @property
    def counts(self) -> bool:
        """Its results count in standings and reports: final, or the last final ones while corrected."""
        return self.status == self.Status.FINAL or self.under_correction


class Attendance(models.Model):
    """A member's seat at one event (SPEC §4): whether it plays, and who plays it (member or substitute).

    Rows are created from the roster (``members.selectors.roster_for_event``) when an officer opens the
    attendance or results page. ``place`` is written when the results are finished (places 1..N, §5).
    """

    class Status(models.TextChoices):
        EXPECTED = "expected", "Plays"
        ABSENT = "absent", "Absent (post and fold)"
        CALLED_IN = "called_in", "Called in late (exemption)"
        CHIPS_REMOVED = "chips_removed", "Chips removed"
        NOT_IN_GOOD_STANDING = "not_in_good_standing", "Not in good standing"
        NOT_SIGNED = "not_signed", "Rules document not signed"

    class PrizeTo(models.TextChoices):
        MEMBER = "member", "Member"
        SUBSTITUTE = "substitute", "Substitute"

    # Who plays tonight. "Called in" is not "arrived" (SPEC §15.5): a member who called in is posted and folded
    # like an absent one until they arrive (status back to "plays") during the second hour.
    PLAYING = (Status.EXPECTED,)
    # Not here yet; their chips are on the table (posted and folded) until they arrive or the chips come off.
    AWAY = (Status.ABSENT, Status.CALLED_IN)

    # SPEC §16.11: results, nights and answers are never deleted with their event (PROTECT, not CASCADE).
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="attendances")
    membership = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="attendances")
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.EXPECTED)
    substitute_name = models.CharField(max_length=120, blank=True)
    substitute_person = models.ForeignKey(
        "members.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="substitutions"
    )
    prize_to = models.CharField(max_length=10, choices=PrizeTo.choices, default=PrizeTo.MEMBER)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # SPEC §15.5: when the member's call came (set: the once-a-season exemption is used at this event), and
    # when a late member arrived and took their seat.
    called_in_at = models.DateTimeField(null=True, blank=True)
    arrived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("event", "place", "membership__person__last_name", "membership__person__first_name", "pk")
        constraints = [
            models.UniqueConstraint(fields=["event", "membership"], name="events_attendance_one_per_member"),
            models.UniqueConstraint(
                fields=["event", "place"],
                condition=Q(place__isnull=False),
                name="events_attendance_one_per_place",
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="events_attendance_place_positive"
            ),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(status__in=["expected", "called_in"]),
                name="events_attendance_place_only_when_playing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership.person} at {self.event}: {self.get_status_display()}"

    @property
    def is_playing(self) -> bool:
        return self.status in self.PLAYING

    @property
    def player_name(self) -> str:
        """Who sits in the seat tonight: the substitute's name, or the member's."""
        person = self.membership.person
        if self.substitute_name:
            return f"{self.substitute_name} (for {person.full_name})"
        return person.full_name


class Elimination(models.Model):
    """A player out of the tournament (§6.5). Players out on the same hand share ``hand``: the number the bust
    got when it was recorded (1 for the first one recorded, and so on), which an undo names.

    The night's order is the order of the taps (SPEC §17.8): hands are placed by ``tapped_at`` (ties by
    ``hand``), so a bust a phone recorded offline and sent late takes the place of the moment it was tapped.
    Within a hand the higher ``start_chips`` (chip count at the start of that hand) gets the better place;
    equal counts are ordered by ``draw`` (1 = better place), which the app draws and records.
    """

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="eliminations")
    attendance = models.OneToOneField(Attendance, on_delete=models.PROTECT, related_name="elimination")
    hand = models.PositiveSmallIntegerField(help_text="1 for the first hand that put someone out, and so on.")
    start_chips = models.PositiveIntegerField(null=True, blank=True)
    draw = models.PositiveSmallIntegerField(null=True, blank=True)
    removed_for_abuse = models.BooleanField(default=False)
    abuse_agreed = models.JSONField(
        default=list,
        blank=True,
        help_text="Removal for abuse: the offices of the executive committee that agreed (§5.5.2).",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    tapped_at = models.DateTimeField(
        default=timezone.now,
        help_text="When the bust was tapped: the server's time for one recorded online; for one recorded "
        "offline, the device's tap corrected by its clock. Places follow these times.",
    )

    class Meta:
        ordering = ("event", "tapped_at", "hand", "pk")
        constraints = [
            models.CheckConstraint(condition=Q(hand__gte=1), name="events_elimination_hand_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.attendance.membership.person} out on hand {self.hand} of {self.event}"


class Night(models.Model):
    """Tournament night state for one event (SPEC §4): the clock and the seat draw.

    The clock is stored as a start time, pauses and level shifts; the time left is always computed by
    ``events.services.clock.clock_view``, never counted down here. ``clock_version`` and ``seats_version``
    are optimistic-concurrency counters (a stale form or button is refused). ``seed`` makes the balancing
    proposal shown on the night page stable until the tables change; it is drawn at random with each draw.
    """

    event = models.OneToOneField(Event, on_delete=models.PROTECT, related_name="night")
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.FloatField(default=0.0)
    shift_seconds = models.FloatField(default=0.0)
    clock_version = models.PositiveIntegerField(default=0)
    seats_version = models.PositiveIntegerField(default=0)
    seats_drawn_at = models.DateTimeField(null=True, blank=True)
    final_table_at = models.DateTimeField(null=True, blank=True)
    seed = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ("event", "pk")

    def __str__(self) -> str:
        return f"Night of {self.event}"


class NightTable(models.Model):
    """A table of the night, with the seat of its button (an empty seat is a dead button)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="night_tables")
    number = models.PositiveSmallIntegerField()
    # From the season's rules when the seats are drawn (events.services.night).
    seat_count = models.PositiveSmallIntegerField()
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    final = models.BooleanField(default=False)

    class Meta:
        ordering = ("event", "number", "pk")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="events_nighttable_one_per_number"),
            models.CheckConstraint(
                condition=Q(button__isnull=True) | (Q(button__gte=1) & Q(button__lte=models.F("seat_count"))),
                name="events_nighttable_button_on_a_seat",
            ),
        ]

    def __str__(self) -> str:
        return f"{'Final table' if self.final else f'Table {self.number}'} at {self.event}"


class NightSeat(models.Model):
    """Where a player sits tonight. A player out (or whose chips were removed) leaves the seat empty
    without deleting the row, so the table list still shows who sat where."""

    table = models.ForeignKey(NightTable, on_delete=models.CASCADE, related_name="seats")
    attendance = models.OneToOneField(Attendance, on_delete=models.PROTECT, related_name="night_seat")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("table", "seat", "pk")
        constraints = [
            models.CheckConstraint(condition=Q(seat__gte=1), name="events_nightseat_seat_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.attendance.membership.person} at table {self.table.number} seat {self.seat}"


class NightChange(models.Model):
    """A change an officer's device recorded while it could not reach the server (issue 20), sent later in a
    batch to ``night/sync/``. One row per (device, sequence), whatever happened to it, so a resend never
    records twice. A change that another screen overtook meanwhile (the same player or seat, or the clock:
    SPEC §16.13), or that follows such a change (``parked_with``), waits here as a conflict for the Vice
    President to resolve (keep mine, keep theirs, drop) — never merged silently."""

    class Action(models.TextChoices):
        BUST = "bust", "bust"
        UNDO = "undo", "undo"
        MOVE = "move", "table move"
        CLOCK = "clock", "clock"

    class Status(models.TextChoices):
        APPLIED = "applied", "applied"
        CONFLICT = "conflict", "conflict"  # someone else changed the same part of the night meanwhile
        REFUSED = "refused", "refused"  # the checks that run online refused it
        KEPT_MINE = "kept_mine", "kept (applied on resolving)"
        KEPT_THEIRS = "kept_theirs", "theirs kept (not applied)"
        DROPPED = "dropped", "dropped"

    OPEN = (Status.CONFLICT, Status.REFUSED)

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="night_changes")
    device = models.CharField(max_length=64)
    sequence = models.PositiveIntegerField()
    happened_at = models.DateTimeField()
    action = models.CharField(max_length=8, choices=Action.choices)
    payload = models.JSONField(default=dict, blank=True)
    # The versions of the night the device last heard from the server: {"results": n, "seats": n, "clock": n}.
    seen = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices)
    message = models.CharField(max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    received_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    # A change that follows a parked one of the same device and depends on it (a move after a parked bust,
    # §16.13) is parked with it: it is kept only once that one is settled.
    parked_with = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="parked_after"
    )

    class Meta:
        ordering = ("event", "happened_at", "device", "sequence", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["device", "sequence"], name="events_nightchange_once_per_device_sequence"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.get_action_display()} #{self.sequence} from {self.device} at {self.event}: {self.status}"
        )


class NightDevice(models.Model):
    """An officer's device that sends offline changes, and the login that first used its id (§16.13): another
    login sending under that id is refused (and audited), so one officer's numbers can never make another's
    changes look like duplicates."""

    device = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    first_used_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("first_used_at", "pk")

    def __str__(self) -> str:
        return f"Device {self.device} of {self.user or 'a removed login'}"


class Rsvp(models.Model):
    """A member's answer to "are you coming?" for one event (issue 19): coming, not coming, late (the §5.2.4
    call-in, time-stamped, asking for the §15.5 exemption or not) or sending a substitute (§5.3).

    One per member per event. The member changes it until the night is opened (the seats are listed); then
    ``events.services.rsvp.rsvp_attendance_apply`` writes it into the seats (``applied_at``) and the officers
    handle any change on the night. On a seat that cannot play yet it is kept, and written there once the seat
    may (``events.services.seat_answers``, SPEC §16.5). Until the member's seat is listed, a substitute or an exemption asked for
    here counts toward the member's limits of the season like one recorded on a seat.
    """

    class Answer(models.TextChoices):
        COMING = "coming", "Coming"
        NOT_COMING = "not_coming", "Not coming"
        LATE = "late", "Coming late"
        SUBSTITUTE = "substitute", "Sending a substitute"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="rsvps")
    membership = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="rsvps")
    answer = models.CharField(max_length=12, choices=Answer.choices)
    substitute_name = models.CharField(max_length=120, blank=True)
    prize_to = models.CharField(
        max_length=10, choices=Attendance.PrizeTo.choices, default=Attendance.PrizeTo.MEMBER
    )
    # "Late": when the member called in (§5.2.4), and whether the call asks for the exemption of the season.
    called_in_at = models.DateTimeField(null=True, blank=True)
    exemption = models.BooleanField(default=False)
    answered_at = models.DateTimeField()
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # When the answer was written into the night's seats (the night was opened, or the seat became eligible).
    applied_at = models.DateTimeField(null=True, blank=True)
    # SPEC §16.5: the officer who recorded the answer for the member (a phone call); empty when the member
    # answered. ``answered_by`` is the login that wrote it either way.
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ("event", "membership__person__last_name", "membership__person__first_name", "pk")
        constraints = [
            models.UniqueConstraint(fields=["event", "membership"], name="events_rsvp_one_per_member"),
            models.CheckConstraint(
                condition=Q(answer="late", called_in_at__isnull=False)
                | (~Q(answer="late") & Q(called_in_at__isnull=True, exemption=False)),
                name="events_rsvp_call_in_only_when_late",
            ),
            models.CheckConstraint(
                condition=Q(answer="substitute") & ~Q(substitute_name="")
                | ~Q(answer="substitute") & Q(substitute_name=""),
                name="events_rsvp_substitute_named",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership.person} at {self.event}: {self.get_answer_display()}"


class RsvpReminder(models.Model):
    """The reminder e-mailed to a member who had not answered for an event (once per member per event)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rsvp_reminders")
    membership = models.ForeignKey(
        "members.Membership", on_delete=models.CASCADE, related_name="rsvp_reminders"
    )
    email = models.CharField(max_length=254)
    sent_at = models.DateTimeField()

    class Meta:
        ordering = ("event", "pk")
        constraints = [
            models.UniqueConstraint(fields=["event", "membership"], name="events_rsvpreminder_once"),
        ]

    def __str__(self) -> str:
        return f"Reminder to {self.email} for {self.event}"


class NightMove(models.Model):
    """A table change of the night, recorded with the bust it followed (``after_hand``: the newest hand out
    when the move was made; None before anyone was out), so that undoing that bust takes the move back too.

    ``kind`` "balance": one player from ``from_table``/``from_seat`` to ``to_table``/``to_seat`` (§6.6).
    ``kind`` "final": the final-table draw (§6.7); ``before`` keeps the tables and seats as they were
    (``{"tables": [[number, seat_count, button, final], …], "seats": [[attendance, table, seat], …]}``).
    """

    class Kind(models.TextChoices):
        BALANCE = "balance", "Balancing move"
        FINAL = "final", "Final table"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="night_moves")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.BALANCE)
    after_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    attendance = models.ForeignKey(
        Attendance, null=True, blank=True, on_delete=models.PROTECT, related_name="night_moves"
    )
    from_table = models.PositiveSmallIntegerField(null=True, blank=True)
    from_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    to_table = models.PositiveSmallIntegerField(null=True, blank=True)
    to_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    before = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("event", "pk")

    def __str__(self) -> str:
        if self.kind == self.Kind.FINAL:
            return f"Final table of {self.event}"
        return f"Move at {self.event}: table {self.from_table} seat {self.from_seat} → {self.to_table}/{self.to_seat}"
