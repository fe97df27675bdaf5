"""Who's coming (issue 19): a member answers for the next night from their phone — coming, not coming, late
(the §5.2.4 call-in, time-stamped, asking for the once-a-season exemption or not, SPEC §15.5) or sending a
substitute (§5.3, checked at once) — and the answers become the night's seats when the night is opened.

Answers can be changed until the night is opened (its seats are listed from the roster); from then on the
officers handle changes on the night (the attendance page). Until the member's seat for that night is listed,
a substitute or an exemption asked for in an answer counts toward the member's limits of the season exactly
like one recorded on a seat (then the seat counts, whatever the officers made of the answer), so a member
cannot promise a fourth substitute in answers and on seats.

Applying (``rsvp_attendance_apply``, run by ``night_open`` in the transaction that lists the seats):
*not coming* → absent (the seat is kept, posted and folded, and spread over the tables by the seat draw,
§5.2.1–5.2.2, §6.4); *late* → called in with the time of the answer when the exemption was asked for, absent
(may still take the seat within the first hour) when not; *substitute* → the substitute plays the seat, the
prize to whom the member chose (§5.3.4). The §5.3 checks run again when applied: what changed on the seats in
between (an officer's substitute at another night) can make an answer over the limit, and it is then not
applied (the seat is absent and the officer is told why).

Commands lock the event row (as ``attendance_prepare`` does), so an answer and the opening of the night never
cross, and a form sent twice records one answer. Reads are at the bottom.
"""

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import BooleanField, CharField, DateTimeField, Exists, F, OuterRef, QuerySet, Value
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from events import hooks, selectors
from events.errors import ExemptionUsed
from events.models import Attendance, Event, Rsvp, RsvpReminder
from events.rules import SeasonRules
from events.services.attendance import attendance_prepare, substitute_refusal
from events.services.locking import event_bump, event_lock
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue, site_link
from ncpc.core.models import MailDelivery

Answer = Rsvp.Answer


# ---------------------------------------------------------------------------------------------------------
# The season's limits, counting answers not yet applied like seats


def _other_events(qs: QuerySet[Any], exclude_event: Event | None) -> QuerySet[Any]:
    return qs.exclude(event=exclude_event) if exclude_event is not None else qs


def _substitute_seats(*, membership: Any) -> QuerySet[Attendance]:
    return Attendance.objects.filter(membership=membership, event__season_id=membership.season_id).exclude(
        substitute_name=""
    )


def _answers_without_seat(*, membership: Any) -> QuerySet[Rsvp]:
    """The member's answers of the season at nights where the member has no seat yet: they count toward the
    limits; once the seat is listed, the seat counts instead (whatever the officers made of the answer)."""
    return Rsvp.objects.filter(membership=membership, event__season_id=membership.season_id).exclude(
        Exists(Attendance.objects.filter(event=OuterRef("event_id"), membership=membership))
    )


def substitutes_counted(*, membership: Any, exclude_event: Event | None = None) -> int:
    """Events of the member's season with a substitute (§5.3.1): on a seat (as ``selectors.substitutes_used``
    counts them), or answered for a night whose seats are not listed yet."""
    seats = _other_events(_substitute_seats(membership=membership), exclude_event).count()
    answers = _answers_without_seat(membership=membership).filter(answer=Answer.SUBSTITUTE)
    return seats + _other_events(answers, exclude_event).count()


def exemption_taken(*, membership: Any, exclude_event: Event | None = None) -> tuple[Event, bool] | None:
    """Where the member's once-a-season late-arrival exemption (§6.3) went: (the event, whether only asked for
    in an answer for a night whose seats are not listed yet), or None while it is free."""
    used = selectors.exemption_used_at(membership=membership, exclude_event=exclude_event)
    if used is not None:
        return used, False
    asked = _answers_without_seat(membership=membership).filter(answer=Answer.LATE, exemption=True)
    first = _other_events(asked, exclude_event).select_related("event").order_by("event__number").first()
    return (first.event, True) if first is not None else None


def _exemption_refusal(*, membership: Any, event: Event) -> NcpcError | None:
    taken = exemption_taken(membership=membership, exclude_event=event)
    if taken is None:
        return None
    where, only_asked = taken
    level = selectors.season_rules(event.season).late_arrival_levels
    how = "asked for it in the answer for" if only_asked else "used it at"
    return ExemptionUsed(
        f"{membership.person.full_name} {how} event {where.number} already: the late-arrival exemption is once a "
        f"season (§6.3), so the chips come off at the end of level {level}. Answer 'late' without the exemption "
        "(the seat waits until then), or change the other answer first."
    )


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


def _answer_closed(
    *, event: Event, today: dt.date, status: str | None = None, opened: bool | None = None
) -> str | None:
    """Why answers for the event are closed, or None. ``status`` and ``opened``: read already."""
    status = status or event.status
    if event.date < today or status == Event.Status.FINAL:
        return f"Event {event.number} is over: answers are closed."
    if status != Event.Status.SCHEDULED or (opened if opened is not None else night_opened(event=event)):
        return (
            f"The night of event {event.number} is open: tell an officer, who changes your seat on the night "
            "(attendance page)."
        )
    return None


def _describe(rsvp: Rsvp) -> str:
    text = rsvp.get_answer_display()
    if rsvp.answer == Answer.LATE and rsvp.called_in_at is not None:
        text += f" (called in {timezone.localtime(rsvp.called_in_at):%b %-d, %-I:%M %p}"
        text += ", asks for the exemption)" if rsvp.exemption else ", no exemption)"
    if rsvp.answer == Answer.SUBSTITUTE:
        text += f": {rsvp.substitute_name}, prize to the {rsvp.prize_to}"
    return text


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
    now: dt.datetime | None = None,
) -> Rsvp:
    """Record (or change) the member's answer for the event; the same answer again changes nothing.

    *late* records the call-in (§5.2.4) at ``now`` and, with ``exemption``, asks for the once-a-season
    exemption (refused when it went to another event, on a seat or in an answer); *substitute* needs the
    substitute's name, who gets the prize and the statement that they are not a professional gambler, and is
    checked against §5.3 at once (the season's limit counts answers not applied yet). Refused once the night is
    opened. One audit row per change.
    """
    now = now or timezone.now()
    locked = event_lock(event=event, version=None)
    closed = _answer_closed(event=locked, today=club_today())
    if closed:
        raise NcpcError(closed)
    if answer not in Answer.values:
        raise NcpcError("Choose an answer: coming, not coming, late or sending a substitute.")
    on_roster = roster_membership(event=locked, person=membership.person)
    if on_roster is None or on_roster.pk != membership.pk:
        raise NcpcError(f"{membership.person.full_name} holds no seat at event {locked.number}.")
    name = " ".join(substitute_name.split()) if answer == Answer.SUBSTITUTE else ""
    if answer == Answer.SUBSTITUTE:
        if not name:
            raise NcpcError("Enter the name of the substitute who plays your seat (§5.3).")
        _known, refused = substitute_refusal(
            membership=membership,
            event=locked,
            name=name,
            not_professional=not_professional,
            prize_to=prize_to,
            used=substitutes_counted(membership=membership, exclude_event=locked),
        )
        if refused:
            raise refused
    else:
        prize_to = Attendance.PrizeTo.MEMBER
    exemption = exemption and answer == Answer.LATE
    if exemption:
        refused = _exemption_refusal(membership=membership, event=locked)
        if refused:
            raise refused
    rsvp = Rsvp.objects.filter(event=locked, membership=membership).first()
    before = _describe(rsvp) if rsvp else None
    if (
        rsvp is not None
        and rsvp.answer == answer
        and rsvp.substitute_name == name
        and rsvp.prize_to == prize_to
        and rsvp.exemption == exemption
    ):
        return rsvp  # the same answer again (a form sent twice): nothing changes, the call-in time stays
    rsvp = rsvp or Rsvp(event=locked, membership=membership)
    rsvp.answer = answer
    rsvp.substitute_name = name
    rsvp.prize_to = prize_to
    rsvp.exemption = exemption
    rsvp.called_in_at = now if answer == Answer.LATE else None
    rsvp.answered_at = now
    rsvp.answered_by = actor_user(actor)
    rsvp.save()
    person = membership.person.full_name
    audit_record(
        actor=actor,
        action="rsvp.answer",
        target=rsvp,
        summary=f"{person} for {locked}: {_describe(rsvp)}" + (f" (was: {before})" if before else ""),
        data={
            "event": locked.pk,
            "membership": membership.pk,
            "answer": answer,
            "substitute": name,
            "prize_to": prize_to,
            "exemption": exemption,
            "called_in_at": rsvp.called_in_at.isoformat() if rsvp.called_in_at else None,
        },
    )
    return rsvp


# ---------------------------------------------------------------------------------------------------------
# Opening the night: the answers become seats


@dataclass(frozen=True)
class RsvpApplied:
    """What opening the night did with the answers: how many it applied, and the ones it could not apply as
    answered (with why), for the officer."""

    applied: int = 0
    notes: tuple[str, ...] = field(default=())


def _apply_one(*, rsvp: Rsvp, row: Attendance, event: Event) -> tuple[list[str], str | None]:
    """Write one answer into its seat (a seat that plays); returns (the fields changed, a note or None)."""
    name = row.membership.person.full_name
    if rsvp.answer == Answer.COMING:
        return [], None
    if rsvp.answer == Answer.NOT_COMING or (rsvp.answer == Answer.LATE and not rsvp.exemption):
        row.status = Attendance.Status.ABSENT
        return ["status"], None
    if rsvp.answer == Answer.LATE:
        refused = _exemption_refusal(membership=row.membership, event=event)
        if refused:
            row.status = Attendance.Status.ABSENT
            return ["status"], f"{name}: called in late, but {refused}"
        row.status = Attendance.Status.CALLED_IN
        row.called_in_at = rsvp.called_in_at
        return ["status", "called_in_at"], None
    known, refused = substitute_refusal(
        membership=row.membership,
        event=event,
        name=rsvp.substitute_name,
        not_professional=True,  # stated when answering
        prize_to=rsvp.prize_to,
        used=substitutes_counted(membership=row.membership, exclude_event=event),
    )
    if refused:
        row.status = Attendance.Status.ABSENT
        return ["status"], f"{name}: the substitute {rsvp.substitute_name} is not seated: {refused}"
    row.substitute_name = rsvp.substitute_name
    row.substitute_person = known[0] if len(known) == 1 else None
    row.prize_to = rsvp.prize_to
    return ["substitute_name", "substitute_person", "prize_to"], None


@transaction.atomic
def rsvp_attendance_apply(*, event: Event, actor: Actor, now: dt.datetime | None = None) -> RsvpApplied:
    """Write the answers not applied yet into the night's seats (listed by ``attendance_prepare``).

    Only seats that would play are changed: a seat not in good standing or without a signed rules document
    stays as it is (the officers handle it on the night), its answer is marked applied all the same. Seats
    already out of the tournament are never touched. One audit row per seat changed.
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
    applied, notes, changed_any = 0, [], False
    for rsvp in pending:
        row = rows[rsvp.membership_id]
        # The answer is marked applied first: its own substitute or exemption no longer counts twice.
        rsvp.applied_at = now
        rsvp.save(update_fields=["applied_at"])
        applied += 1
        if row.status != Attendance.Status.EXPECTED or hasattr(row, "elimination") or row.substitute_name:
            continue
        old = row.status
        fields, note = _apply_one(rsvp=rsvp, row=row, event=locked)
        if note:
            notes.append(note)
        if not fields:
            continue
        row.save(update_fields=fields)
        changed_any = True
        audit_record(
            actor=actor,
            action="rsvp.apply",
            target=row,
            summary=f"{row.membership.person.full_name} at {locked} from the answer '{_describe(rsvp)}': "
            f"{Attendance.Status(old).label} → {Attendance.Status(row.status).label}"
            + (f", substitute {row.substitute_name}" if row.substitute_name else "")
            + (f" — {note}" if note else ""),
            data={"event": locked.pk, "rsvp": rsvp.pk, "to": row.status, "substitute": row.substitute_name},
        )
    if changed_any:
        event_bump(event=locked)
        event.results_version = locked.results_version
    return RsvpApplied(applied=applied, notes=tuple(notes))


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


@dataclass(frozen=True)
class RsvpSummary:
    """The answers of an event's roster: the count per answer and who answered what (no answer last)."""

    counts: tuple[tuple[str, str, int], ...]  # (answer, label, count), in the order of the choices
    not_answered: tuple[str, ...]
    lines: tuple[RsvpLine, ...]
    roster: int


def rsvp_summary(*, event: Event) -> RsvpSummary:
    roster = hooks.event_roster(season=event.season, event_number=event.number)
    by_member = {r.membership_id: r for r in Rsvp.objects.filter(event=event)}
    lines = []
    for membership in sorted(roster, key=lambda m: (m.person.last_name, m.person.first_name, m.pk)):
        rsvp = by_member.get(membership.pk)
        name = membership.person.full_name
        if rsvp is None:
            lines.append(RsvpLine(name=name, answer="", label="No answer yet"))
            continue
        detail = ""
        if rsvp.answer == Answer.LATE and rsvp.called_in_at:
            detail = f"called in {timezone.localtime(rsvp.called_in_at):%b %-d, %-I:%M %p}"
            detail += ", exemption" if rsvp.exemption else ""
        elif rsvp.answer == Answer.SUBSTITUTE:
            detail = f"{rsvp.substitute_name}, prize to the {rsvp.prize_to}"
        lines.append(RsvpLine(name=name, answer=rsvp.answer, label=rsvp.get_answer_display(), detail=detail))
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
    substitutes_left: int
    exemption_free: bool


_CARD_COLUMNS = ("k", "e", "a", "s", "c", "x", "p", "o")


def _card_rows_query(*, membership_id: int, season_id: int, event_id: int) -> QuerySet[Any]:
    """One query of three plain selects: the member's answers of the season, the member's seats of the season
    and the event itself (its status, and whether its seats are listed). Columns: kind, event id, answer or
    seat status, substitute name, called in at, exemption, prize to, opened."""

    def part(rows: QuerySet[Any], kind: str, **columns: Any) -> QuerySet[Any]:
        """The rows as the card's columns, in that order (a typed Value where a table has none: PostgreSQL
        matches a UNION's column types pairwise)."""
        defaults = {
            "k": Value(kind, output_field=CharField()),
            "s": Value("", output_field=CharField()),
            "c": Value(None, output_field=DateTimeField()),
            "x": Value(False, output_field=BooleanField()),
            "p": Value("", output_field=CharField()),
            "o": Value(False, output_field=BooleanField()),
        }
        values = {**defaults, **columns}
        return rows.order_by().annotate(**{c: values[c] for c in _CARD_COLUMNS}).values_list(*_CARD_COLUMNS)

    return part(
        Rsvp.objects.filter(membership_id=membership_id, event__season_id=season_id),
        "answer",
        e=F("event_id"),
        a=F("answer"),
        s=F("substitute_name"),
        c=F("called_in_at"),
        x=F("exemption"),
        p=F("prize_to"),
    ).union(
        part(
            Attendance.objects.filter(membership_id=membership_id, event__season_id=season_id),
            "seat",
            e=F("event_id"),
            a=F("status"),
            s=F("substitute_name"),
            c=F("called_in_at"),
        ),
        part(
            Event.objects.filter(pk=event_id),
            "event",
            e=F("pk"),
            a=F("status"),
            o=Exists(Attendance.objects.filter(event=OuterRef("pk"))),
        ),
        all=True,
    )


def _card_rows(*, event: Event, membership: Any) -> list[tuple[Any, ...]]:
    """The card's rows (``_card_rows_query``) for the member and the event."""
    return list(
        _card_rows_query(membership_id=membership.pk, season_id=membership.season_id, event_id=event.pk)
    )


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
    status, opened = event.status, False
    mine: tuple[Any, ...] | None = None
    subs = 0
    exemption_gone = False
    for kind, event_id, value, substitute, called_in_at, exemption, prize, is_open in rows:
        if kind == "event":
            status, opened = value, bool(is_open)
        elif event_id == event.pk:
            if kind == "answer":
                mine = (value, substitute, called_in_at, exemption, prize)
        elif kind == "seat":  # a seat counts, whatever the answer for that night was
            subs += 1 if substitute else 0
            exemption_gone |= called_in_at is not None or value == Attendance.Status.CALLED_IN
        elif event_id not in seated_at:  # an answer for a night whose seats are not listed yet
            subs += 1 if value == Answer.SUBSTITUTE else 0
            exemption_gone |= value == Answer.LATE and bool(exemption)
    closed = _answer_closed(event=event, today=today or club_today(), status=status, opened=opened)
    answer, substitute_name, called_in_at, my_exemption, prize_to = mine or ("", "", None, False, "")
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
    )
