"""Who's coming (issue 19): a member answers for the next night from their phone — coming, not coming, late
(the §5.2.4 call-in, time-stamped, asking for the once-a-season exemption or not, SPEC §15.5) or sending a
substitute (§5.3, checked at once) — and the answers become the night's seats when the night is opened.

Answers can be changed until the night is opened (its seats are listed from the roster); from then on the
officers handle changes on the night (the attendance page). An officer may record the answer of a member who
phoned (``recorded_by``: marked as that officer's, SPEC §16.5). Until an answer is on the member's seat, a
substitute or an exemption asked for in it counts toward the member's limits of the season exactly like one
recorded on a seat (then the seat counts, whatever the officers made of the answer), so a member cannot promise
a fourth substitute in answers and on seats (the counting is in ``seat_answers``).

Applying (``rsvp_attendance_apply``, run by ``night_open`` in the transaction that lists the seats):
*not coming* → absent (the seat is kept, posted and folded, and spread over the tables by the seat draw,
§5.2.1–5.2.2, §6.4); *late* → called in with the time of the answer when the exemption was asked for, absent
(may still take the seat within the first hour) when not; *substitute* → the substitute plays the seat, the
prize to whom the member chose (§5.3.4). The §5.3 checks run again when applied: what changed on the seats in
between (an officer's substitute at another night) can make an answer over the limit, and it is then not
applied (the seat is absent and the officer is told why). A seat that cannot play when the night opens (not in
good standing, rules unsigned) keeps its answer, written there when the seat may play (a payment at the door),
with the member's own call-in time (SPEC §16.5).

Commands lock the event row (as ``attendance_prepare`` does), so an answer and the opening of the night never
cross, and a form sent twice records one answer. Reads are at the bottom.
"""

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import (
    BooleanField,
    CharField,
    DateTimeField,
    Exists,
    ExpressionWrapper,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Value,
)
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from events import hooks, selectors
from events.models import Attendance, Event, Rsvp, RsvpReminder
from events.rules import SeasonRules
from events.services.attendance import attendance_prepare
from events.services.locking import event_bump, event_lock
from events.services.seat_answers import (
    WAITING,
    answer_describe,
    exemption_refusal,
    exemption_taken,  # noqa: F401 — the demo and the pages read it from here
    seat_answer_apply,
    substitute_refusal,
    substitutes_counted,
)
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue, site_link
from ncpc.core.models import MailDelivery
from ncpc.core.permissions import user_person

Answer = Rsvp.Answer


# ---------------------------------------------------------------------------------------------------------
# Answering


def night_opened(*, event: Event) -> bool:
    """The night's seats are listed (or its results started): answers are the officers' business now."""
    return event.status != Event.Status.SCHEDULED or Attendance.objects.filter(event=event).exists()


def roster_membership(*, event: Event, person: Any) -> Any | None:
    """The person's seat on the event's roster (the membership that answers), or None."""
    if person is None:
        return None
    roster = hooks.event_roster(season=event.season, event_number=event.number)
    return next((m for m in roster if m.person_id == person.pk), None)


def roster_member(*, event: Event, membership_id: int) -> Any | None:
    """The membership ``membership_id`` if it holds a seat on the event's roster, else None (an officer's form)."""
    roster = hooks.event_roster(season=event.season, event_number=event.number)
    return next((m for m in roster if m.pk == membership_id), None)


def answers_closed(*, event: Event) -> str | None:
    """Why answers for the event are closed (as the member is told), or None while they are open."""
    return _answer_closed(event=event, today=club_today())


def _answer_closed(
    *, event: Event, today: dt.date, status: str | None = None, opened: bool | None = None
) -> str | None:
    """Why answers for the event are closed, or None. ``status`` and ``opened``: read already.

    A night under way (opened, results not final) says so, even after midnight, when its date is past."""
    status = status or event.status
    if status == Event.Status.FINAL:
        return f"Event {event.number} is over: answers are closed."
    if status != Event.Status.SCHEDULED or (opened if opened is not None else night_opened(event=event)):
        how = "is under way" if status == Event.Status.IN_PROGRESS or event.date <= today else "is open"
        return (
            f"The night of event {event.number} {how}: tell an officer, who changes your seat on the night "
            "(attendance page)."
        )
    if event.date < today:
        return f"Event {event.number} is over: answers are closed."
    return None


@transaction.atomic
def rsvp_answer(
    *,
    event: Event,
    membership: Any,
    answer: str,
    actor: Actor,
    substitute_name: str = "",
    prize_to: str = Attendance.PrizeTo.MEMBER,
    not_professional: bool = False,
    exemption: bool = False,
    recorded: bool = False,
    called_at: dt.datetime | None = None,
    now: dt.datetime | None = None,
) -> Rsvp:
    """Record (or change) the member's answer for the event; the same answer again changes nothing.

    *late* records the call-in (§5.2.4) at ``now`` and, with ``exemption``, asks for the once-a-season
    exemption (refused when it went to another event, on a seat or in an answer); *substitute* needs the
    substitute's name, who gets the prize and the statement that they are not a professional gambler, and is
    checked against §5.3 at once (the season's limit counts answers not applied yet). Refused once the night is
    opened. One audit row per change.

    ``recorded``: an officer (``actor``, who the view checked may) records the answer of a member who phoned;
    the answer is marked as that officer's (SPEC §16.5) and a late call is timed when it is recorded, or at
    ``called_at``, the time the member phoned (never later than now). The member answering again takes the
    mark off.
    """
    now = now or timezone.now()
    recorder = actor_user(actor) if recorded else None
    if recorded and recorder is None:
        raise NcpcError("Only a signed-in officer records an answer for a member.")
    locked = event_lock(event=event, version=None)
    _answer_allowed_check(event=locked, membership=membership, answer=answer, recorded=recorded)
    name, prize_to = _substitute_checked(
        event=locked,
        membership=membership,
        answer=answer,
        substitute_name=substitute_name,
        prize_to=prize_to,
        not_professional=not_professional,
    )
    exemption = exemption and answer == Answer.LATE
    called_in_at = _call_in_time(answer=answer, called_at=called_at, now=now)
    if exemption and (refused := exemption_refusal(membership=membership, event=locked)):
        raise refused
    return _answer_record(
        event=locked,
        membership=membership,
        answer=answer,
        name=name,
        prize_to=prize_to,
        exemption=exemption,
        recorded=recorded,
        called_at=called_at,
        called_in_at=called_in_at,
        now=now,
        actor=actor,
        recorder=recorder,
    )


def _answer_record(
    *,
    event: Event,
    membership: Any,
    answer: str,
    name: str,
    prize_to: str,
    exemption: bool,
    recorded: bool,
    called_at: dt.datetime | None,
    called_in_at: dt.datetime | None,
    now: dt.datetime,
    actor: Actor,
    recorder: Any,
) -> Rsvp:
    """Save the answer checked, with its audit row; the same answer again changes nothing."""
    rsvp = Rsvp.objects.filter(event=event, membership=membership).first()
    before = answer_describe(rsvp) if rsvp else None
    if rsvp is not None and _answer_unchanged(
        rsvp=rsvp,
        answer=answer,
        name=name,
        prize_to=prize_to,
        exemption=exemption,
        recorded=recorded,
        called_at=called_at,
        called_in_at=called_in_at,
    ):
        return rsvp  # the same answer again (a form sent twice): nothing changes, the call-in time stays
    rsvp = rsvp or Rsvp(event=event, membership=membership)
    rsvp.answer = answer
    rsvp.substitute_name = name
    rsvp.prize_to = prize_to
    rsvp.exemption = exemption
    rsvp.called_in_at = called_in_at
    rsvp.answered_at = now
    rsvp.answered_by = actor_user(actor)
    rsvp.recorded_by = recorder
    rsvp.save()
    _answer_audit(
        actor=actor, rsvp=rsvp, event=event, membership=membership, recorded=recorded, before=before
    )
    return rsvp


def _answer_allowed_check(*, event: Event, membership: Any, answer: str, recorded: bool) -> None:
    """Refuse an answer once answers are closed, an answer that is none of the four, or a member without a seat."""
    closed = _answer_closed(event=event, today=club_today())
    if closed and recorded and night_opened(event=event) and event.status != Event.Status.FINAL:
        # The officer, not the member, is told: the seat is changed on the night itself.
        raise NcpcError(
            f"The night of event {event.number} is open: answers are closed; set {membership.person.full_name}'s "
            "seat on the attendance page or the console instead."
        )
    if closed:
        raise NcpcError(closed)
    if answer not in Answer.values:
        raise NcpcError("Choose an answer: coming, not coming, late or sending a substitute.")
    on_roster = roster_membership(event=event, person=membership.person)
    if on_roster is None or on_roster.pk != membership.pk:
        raise NcpcError(f"{membership.person.full_name} holds no seat at event {event.number}.")


def _substitute_checked(
    *,
    event: Event,
    membership: Any,
    answer: str,
    substitute_name: str,
    prize_to: str,
    not_professional: bool,
) -> tuple[str, str]:
    """The substitute's name and who gets the prize, checked against §5.3 ("" and the member for other answers)."""
    if answer != Answer.SUBSTITUTE:
        return "", Attendance.PrizeTo.MEMBER
    name = " ".join(substitute_name.split())
    if not name:
        raise NcpcError("Enter the name of the substitute who plays your seat (§5.3).")
    _known, refused = substitute_refusal(
        membership=membership,
        event=event,
        name=name,
        not_professional=not_professional,
        prize_to=prize_to,
        used=substitutes_counted(membership=membership, exclude_event=event),
    )
    if refused:
        raise refused
    return name, prize_to


def _call_in_time(*, answer: str, called_at: dt.datetime | None, now: dt.datetime) -> dt.datetime | None:
    """When a late member called in: the time they phoned (never later than now) or now; None for other answers."""
    if called_at is not None and called_at > now:
        raise NcpcError(
            f"The time of the call ({timezone.localtime(called_at):%H:%M}) is later than now "
            f"({timezone.localtime(now):%-I:%M %p}): enter the time the member phoned."
        )
    return (called_at or now) if answer == Answer.LATE else None


def _answer_unchanged(
    *,
    rsvp: Rsvp,
    answer: str,
    name: str,
    prize_to: str,
    exemption: bool,
    recorded: bool,
    called_at: dt.datetime | None,
    called_in_at: dt.datetime | None,
) -> bool:
    """Whether the answer is the one already recorded (a form sent twice)."""
    return (
        rsvp.answer == answer
        and rsvp.substitute_name == name
        and rsvp.prize_to == prize_to
        and rsvp.exemption == exemption
        and (rsvp.recorded_by_id is not None) == recorded
        and (called_at is None or rsvp.called_in_at == called_in_at)
    )


def _answer_audit(
    *, actor: Actor, rsvp: Rsvp, event: Event, membership: Any, recorded: bool, before: str | None
) -> None:
    """The audit row of an answer given or recorded."""
    person = membership.person.full_name
    by = f", recorded by {recorder_name(rsvp)} (the member phoned)" if recorded else ""
    audit_record(
        actor=actor,
        action="rsvp.record" if recorded else "rsvp.answer",
        target=rsvp,
        summary=f"{person} for {event}: {answer_describe(rsvp)}{by}"
        + (f" (was: {before})" if before else ""),
        data={
            "event": event.pk,
            "membership": membership.pk,
            "answer": rsvp.answer,
            "substitute": rsvp.substitute_name,
            "prize_to": rsvp.prize_to,
            "exemption": rsvp.exemption,
            "called_in_at": rsvp.called_in_at.isoformat() if rsvp.called_in_at else None,
            "recorded_by": rsvp.recorded_by_id,
        },
    )


def recorder_name(rsvp: Rsvp) -> str:
    """The officer who recorded the answer for the member, as the pages name them ("" when the member did)."""
    user = rsvp.recorded_by
    if user is None:
        return ""
    person = user_person(user)
    return person.full_name if person is not None else user.get_username()


# ---------------------------------------------------------------------------------------------------------
# Opening the night: the answers become seats


@dataclass(frozen=True)
class RsvpApplied:
    """What opening the night did with the answers: how many it applied, how many it keeps on seats that cannot
    play yet (they apply once the seat may, SPEC §16.5), and the ones it could not apply as answered (with why),
    for the officer."""

    applied: int = 0
    notes: tuple[str, ...] = field(default=())
    kept: int = 0


@transaction.atomic
def rsvp_attendance_apply(*, event: Event, actor: Actor, now: dt.datetime | None = None) -> RsvpApplied:
    """Write the answers not applied yet into the night's seats (listed by ``attendance_prepare``).

    Only seats that would play are changed. A seat not in good standing or without a signed rules document
    keeps its answer unapplied: it is written there when the seat may play (a payment at the door,
    ``attendance_after_payment``; "check again", ``attendance_recheck``), SPEC §16.5. Seats already out of the
    tournament, or given a substitute on the night, are never touched. One audit row per seat changed.
    """
    now = now or timezone.now()
    locked = event_lock(event=event, version=None)
    if locked.status == Event.Status.FINAL:
        return RsvpApplied()
    rows = {
        a.membership_id: a
        for a in Attendance.objects.filter(event=locked).select_related(
            "membership__person", "membership__season", "elimination"
        )
    }
    pending = list(
        Rsvp.objects.filter(event=locked, applied_at__isnull=True, membership_id__in=list(rows)).order_by(
            "answered_at", "pk"
        )
    )
    applied, kept, notes, changed_any = 0, 0, [], False
    for rsvp in pending:
        row = rows[rsvp.membership_id]
        if row.status in WAITING:
            kept += 1
            continue
        changed, note = seat_answer_apply(
            rsvp=rsvp, row=row, event=locked, actor=actor, now=now, when="the night opened"
        )
        applied += 1
        changed_any |= changed
        if note:
            notes.append(note)
    if changed_any:
        event_bump(event=locked)
        event.results_version = locked.results_version
    return RsvpApplied(applied=applied, notes=tuple(notes), kept=kept)


@dataclass(frozen=True)
class NightOpened:
    seats_added: int
    answers: RsvpApplied


@transaction.atomic
def night_open(*, event: Event, actor: Actor) -> NightOpened:
    """ "Open the night": list the seats from the roster (``attendance_prepare``) and apply the members' answers
    to them, in one transaction, so the seat draw that follows seats the expected absentees and the substitutes
    as answered."""
    added = attendance_prepare(event=event, actor=actor)
    return NightOpened(seats_added=added, answers=rsvp_attendance_apply(event=event, actor=actor))


# ---------------------------------------------------------------------------------------------------------
# The reminder, a few days before the night


def _reminder_due(*, event: Event, on: dt.date) -> bool:
    days = selectors.season_rules(event.season).rsvp_reminder_days
    return days > 0 and 0 <= (event.date - on).days <= days


def rsvp_reminders_send(*, on: dt.date | None = None, actor: Actor = None) -> int:
    """E-mail every member who has not answered for a night due within the season's ``rsvp_reminder_days``
    (through the mail queue: sent after the commit), once per member per event; members without an e-mail
    address are skipped. Nights already opened are left alone. Returns the number of reminders queued. Safe to
    run again (cron, daily): a member reminded once is never reminded again for that event."""
    on = on or club_today()
    sent = 0
    candidates = Event.objects.filter(
        status=Event.Status.SCHEDULED, date__gte=on, date__lte=on + dt.timedelta(days=366)
    ).select_related("season", "venue")
    for event in candidates.order_by("date", "pk"):
        if _reminder_due(event=event, on=on):
            sent += _event_reminders_send(event=event, on=on, actor=actor)
    return sent


@transaction.atomic
def _event_reminders_send(*, event: Event, on: dt.date, actor: Actor) -> int:
    locked = event_lock(event=event, version=None)
    if night_opened(event=locked):
        return 0
    answered = set(Rsvp.objects.filter(event=locked).values_list("membership_id", flat=True))
    reminded = set(RsvpReminder.objects.filter(event=locked).values_list("membership_id", flat=True))
    now = timezone.now()
    messages, to = [], []
    link = site_link(reverse("events:event", kwargs={"season": locked.season.name, "number": locked.number}))
    for membership in hooks.event_roster(season=locked.season, event_number=locked.number):
        person = membership.person
        if membership.pk in answered or membership.pk in reminded or not person.email:
            continue
        RsvpReminder.objects.create(event=locked, membership=membership, email=person.email, sent_at=now)
        body = render_to_string(
            "events/email/rsvp_reminder.txt",
            {
                "person": person,
                "event": event,
                "season": locked.season,
                "choices": Answer.labels,
                "link": link,
                "club": club_identity(),
            },
        )
        subject = (
            f"{club_identity().short_name} event {locked.number} on {locked.date:%a %b %-d}: are you coming?"
        )
        messages.append(Mail(to=person.email, subject=subject, body=body))
        to.append(person.email)
    if not messages:
        return 0
    mail_queue(kind=MailDelivery.Kind.RSVP_REMINDER, messages=messages, reference=f"rsvp:{locked.pk}")
    audit_record(
        actor=actor,
        action="rsvp.reminders",
        target=locked,
        summary=f"Who's-coming reminders for {locked} queued for {len(messages)} member(s) on {on:%b %-d}",
        data={"to": to},
    )
    return len(messages)


# ---------------------------------------------------------------------------------------------------------
# Reads for the pages


@dataclass(frozen=True)
class RsvpLine:
    name: str
    answer: str  # an Answer value, or "" for no answer yet
    label: str
    detail: str = ""
    membership_id: int = 0
    recorded_by: str = ""  # the officer who recorded the answer for the member (a phone call), or ""
    kept: bool = False  # kept on a seat that cannot play yet: applies once it may (SPEC §16.5)


@dataclass(frozen=True)
class RsvpSummary:
    """The answers of an event's roster: the count per answer and who answered what (no answer last)."""

    counts: tuple[tuple[str, str, int], ...]  # (answer, label, count), in the order of the choices
    not_answered: tuple[str, ...]
    lines: tuple[RsvpLine, ...]
    roster: int


def rsvp_summary(*, event: Event) -> RsvpSummary:
    roster = hooks.event_roster(season=event.season, event_number=event.number)
    by_member = {r.membership_id: r for r in Rsvp.objects.filter(event=event).select_related("recorded_by")}
    waiting = set(
        Attendance.objects.filter(event=event, status__in=WAITING).values_list("membership_id", flat=True)
    )
    lines = []
    for membership in sorted(roster, key=lambda m: (m.person.last_name, m.person.first_name, m.pk)):
        rsvp = by_member.get(membership.pk)
        name = membership.person.full_name
        if rsvp is None:
            lines.append(RsvpLine(name=name, answer="", label="No answer yet", membership_id=membership.pk))
            continue
        detail = ""
        if rsvp.answer == Answer.LATE and rsvp.called_in_at:
            detail = f"called in {timezone.localtime(rsvp.called_in_at):%b %-d, %-I:%M %p}"
            detail += ", exemption" if rsvp.exemption else ""
        elif rsvp.answer == Answer.SUBSTITUTE:
            detail = f"{rsvp.substitute_name}, prize to the {rsvp.prize_to}"
        lines.append(
            RsvpLine(
                name=name,
                answer=rsvp.answer,
                label=rsvp.get_answer_display(),
                detail=detail,
                membership_id=membership.pk,
                recorded_by=recorder_name(rsvp),
                kept=rsvp.applied_at is None and membership.pk in waiting,
            )
        )
    count = Counter(line.answer for line in lines)
    return RsvpSummary(
        counts=tuple((value, label, count[value]) for value, label in Answer.choices),
        not_answered=tuple(line.name for line in lines if not line.answer),
        lines=tuple(lines),
        roster=len(roster),
    )


@dataclass(frozen=True)
class RsvpCard:
    """A member's own answer for an event, for the event page and the home page's next-event card."""

    event: Event
    answer: str  # an Answer value, or "" before the member answers
    answer_label: str
    called_in_at: dt.datetime | None
    exemption: bool
    substitute_name: str
    prize_to: str
    open: bool  # answers can still be given or changed
    closed_reason: str
    substitutes_left: int  # at the season's other nights, this one aside
    exemption_free: bool
    substitutes_used: int = 0  # sent (or answered) to the season's other nights
    substitutes_limit: int = 0  # the season's limit (§5.3.1)
    recorded_by: str = ""  # the officer who recorded the answer for the member (a phone call), or ""


# The typed stand-ins for the columns a table of the card's UNION lacks (PostgreSQL matches a UNION's column
# types pairwise): made once.
_NO_TEXT = Value("", output_field=CharField())
_NO_TIME = Value(None, output_field=DateTimeField())
_NO = Value(False, output_field=BooleanField())
_NO_USER = Value(None, output_field=IntegerField())


def _card_rows_query(*, membership_id: int, event_id: int) -> QuerySet[Any]:
    """One query of three plain selects: the member's answers, the member's seats (a membership's answers and
    seats are all at its own season's events: the services take its seat from the event's roster) and the event
    itself (its status, and whether its seats are listed). Columns: kind, event id, answer or seat status,
    substitute name, called in at, exemption, prize to, opened (for an answer: not applied yet), recorded by
    (an answer's officer, by user id). The columns a table has are named, not annotated: each annotation was
    most of the time this query took to build."""
    answers = (
        Rsvp.objects.filter(membership_id=membership_id)
        .order_by()
        .annotate(
            kind=Value("answer", output_field=CharField()),
            opened=ExpressionWrapper(Q(applied_at__isnull=True), output_field=BooleanField()),
        )
        .values_list(
            "kind",
            "event_id",
            "answer",
            "substitute_name",
            "called_in_at",
            "exemption",
            "prize_to",
            "opened",
            "recorded_by_id",
        )
    )
    seats = (
        Attendance.objects.filter(membership_id=membership_id)
        .order_by()
        .annotate(kind=Value("seat", output_field=CharField()), x=_NO, p=_NO_TEXT, o=_NO, r=_NO_USER)
        .values_list("kind", "event_id", "status", "substitute_name", "called_in_at", "x", "p", "o", "r")
    )
    event = (
        Event.objects.filter(pk=event_id)
        .order_by()
        .annotate(
            kind=Value("event", output_field=CharField()),
            s=_NO_TEXT,
            c=_NO_TIME,
            x=_NO,
            p=_NO_TEXT,
            listed=Exists(Attendance.objects.filter(event=OuterRef("pk"))),
            r=_NO_USER,
        )
        .values_list("kind", "pk", "status", "s", "c", "x", "p", "listed", "r")
    )
    return answers.union(seats, event, all=True)


def _card_rows(*, event: Event, membership: Any) -> list[tuple[Any, ...]]:
    """The card's rows (``_card_rows_query``) for the member and the event."""
    return list(_card_rows_query(membership_id=membership.pk, event_id=event.pk))


def rsvp_card(
    *, event: Event, membership: Any, rules: SeasonRules | None = None, today: dt.date | None = None
) -> RsvpCard | None:
    """The member's answer for the event, whether it may still change, and what is left of the season's
    substitutes and exemption (counted as ``substitutes_counted`` and ``exemption_taken`` do), in one query
    of plain rows counted here: the home page shows it with every visit. ``membership``: the member's seat on
    the event's roster (None: no card); ``rules``: the season's, when the caller has read them."""
    if membership is None:
        return None
    rules = rules or selectors.season_rules(event.season)
    rows = _card_rows(event=event, membership=membership)
    seated_at = {row[1] for row in rows if row[0] == "seat"}
    # Seats that cannot play yet and carry nothing of the night: their answer, if not applied, still counts.
    waiting_at = {
        row[1] for row in rows if row[0] == "seat" and row[2] in WAITING and not row[3] and row[4] is None
    }
    status, opened = event.status, False
    mine: tuple[Any, ...] | None = None
    subs = 0
    exemption_gone = False
    recorder_id = None
    for kind, event_id, value, substitute, called_in_at, exemption, prize, is_open, recorder in rows:
        if kind == "event":
            status, opened = value, bool(is_open)
        elif event_id == event.pk:
            if kind == "answer":
                mine = (value, substitute, called_in_at, exemption, prize)
                recorder_id = recorder
        elif kind == "seat":  # a seat counts, whatever the answer for that night was
            subs += 1 if substitute else 0
            exemption_gone |= called_in_at is not None or value == Attendance.Status.CALLED_IN
        elif event_id not in seated_at or (event_id in waiting_at and is_open):
            # an answer on no seat yet: the night's seats are not listed, or it is kept on a seat that waits
            subs += 1 if value == Answer.SUBSTITUTE else 0
            exemption_gone |= value == Answer.LATE and bool(exemption)
    closed = _answer_closed(event=event, today=today or club_today(), status=status, opened=opened)
    answer, substitute_name, called_in_at, my_exemption, prize_to = mine or ("", "", None, False, "")
    recorded_by = ""
    if recorder_id is not None:  # an officer recorded it (rare): one more read for the officer's name
        own = Rsvp.objects.select_related("recorded_by").filter(event=event, membership=membership).first()
        recorded_by = recorder_name(own) if own is not None else ""
    return RsvpCard(
        event=event,
        answer=answer,
        answer_label=Answer(answer).label if answer else "",
        called_in_at=called_in_at,
        exemption=bool(my_exemption),
        substitute_name=substitute_name or "",
        prize_to=prize_to or Attendance.PrizeTo.MEMBER,
        open=closed is None,
        closed_reason=closed or "",
        substitutes_left=max(0, rules.substitutes_per_season - subs),
        exemption_free=not exemption_gone,
        substitutes_used=subs,
        substitutes_limit=rules.substitutes_per_season,
        recorded_by=recorded_by,
    )
