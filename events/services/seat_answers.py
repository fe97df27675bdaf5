"""A who's-coming answer on its seat (SPEC §16.5; bylaws §5.2, §5.3, §6.3): the §5.3 checks of a substitute, the
season's limits counted with the answers not on a seat yet, and writing one answer into the member's seat.

An answer survives the member's standing: opening the night writes it into the seats that may play; the seat of
a member not in good standing (or whose rules document is unsigned) keeps the answer, and it is written there
the moment the seat may play (``attendance_after_payment`` after a payment at the door, ``attendance_recheck``),
with the member's own call-in time (when the member answered, not when the officer tapped).

Apart from ``rsvp`` (answering, opening the night) and ``attendance`` (the seats' commands) because both use it:
``attendance`` applies a kept answer when a seat turns eligible, ``rsvp`` when the night opens.
"""

import datetime as dt
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from events import hooks, selectors
from events.errors import ExemptionUsed, SubstituteRefused
from events.models import Attendance, Event, Rsvp
from ncpc.core.audit import Actor, audit_record
from ncpc.core.errors import NcpcError

Answer = Rsvp.Answer

# A seat that cannot play yet (§2.17, §2.4): its answer is kept until it may.
WAITING = (Attendance.Status.NOT_IN_GOOD_STANDING, Attendance.Status.NOT_SIGNED)


def substitute_refusal(
    *, membership: Any, event: Event, name: str, not_professional: bool, prize_to: str, used: int
) -> tuple[list[Any], NcpcError | None]:
    """The §5.3 checks of a substitute ``name`` for the member at ``event``, who has sent one to ``used`` other
    events of the season: (the people known by that name, why the substitute is refused or None)."""
    member = membership.person.full_name
    if prize_to not in Attendance.PrizeTo.values:
        return [], NcpcError("Choose who gets the prize: the member or the substitute (§5.3.4).")
    limit = selectors.season_rules(event.season).substitutes_per_season
    if used >= limit:
        return [], SubstituteRefused(
            f"{member} has sent a substitute to {used} events this season already; the limit is {limit} (§5.3.1)."
        )
    known = hooks.people_named(name=name)
    if any(p.pk == membership.person_id for p in known):
        return known, SubstituteRefused(f"{member} cannot be their own substitute.")
    if any(p.is_professional for p in known):
        return known, SubstituteRefused(
            f"{name} is recorded as a professional gambler and cannot substitute (§5.3.1)."
        )
    if any(hooks.person_banned(person=p) for p in known):
        return known, SubstituteRefused(f"{name} is banned from the club and cannot substitute (§5.3.2).")
    if not not_professional:
        return known, SubstituteRefused(
            f"Confirm that {name} is not a professional gambler (§5.3.1) before entering the substitute."
        )
    return known, None


# ---------------------------------------------------------------------------------------------------------
# The season's limits, counting answers not on a seat yet


def _other_events(qs: QuerySet[Any], exclude_event: Event | None) -> QuerySet[Any]:
    return qs.exclude(event=exclude_event) if exclude_event is not None else qs


def _substitute_seats(*, membership: Any) -> QuerySet[Attendance]:
    return Attendance.objects.filter(membership=membership, event__season_id=membership.season_id).exclude(
        substitute_name=""
    )


def answers_not_on_a_seat(*, membership: Any) -> QuerySet[Rsvp]:
    """The member's answers of the season that no seat carries: at nights where the member has no seat yet, or
    kept (not applied) on a seat that cannot play yet and carries neither a substitute nor a call-in. They count
    toward the limits; once on a seat, the seat counts instead (whatever the officers made of the answer)."""
    seats = Attendance.objects.filter(event=OuterRef("event_id"), membership=membership)
    waiting = seats.filter(status__in=WAITING, substitute_name="", called_in_at__isnull=True)
    return Rsvp.objects.filter(membership=membership, event__season_id=membership.season_id).filter(
        ~Exists(seats) | Q(applied_at__isnull=True) & Exists(waiting)
    )


def substitutes_counted(*, membership: Any, exclude_event: Event | None = None) -> int:
    """Events of the member's season with a substitute (§5.3.1): on a seat (as ``selectors.substitutes_used``
    counts them), or answered and on no seat yet."""
    seats = _other_events(_substitute_seats(membership=membership), exclude_event).count()
    answers = answers_not_on_a_seat(membership=membership).filter(answer=Answer.SUBSTITUTE)
    return seats + _other_events(answers, exclude_event).count()


def exemption_taken(*, membership: Any, exclude_event: Event | None = None) -> tuple[Event, bool] | None:
    """Where the member's once-a-season late-arrival exemption (§6.3) went: (the event, whether only asked for
    in an answer on no seat yet), or None while it is free."""
    used = selectors.exemption_used_at(membership=membership, exclude_event=exclude_event)
    if used is not None:
        return used, False
    asked = answers_not_on_a_seat(membership=membership).filter(answer=Answer.LATE, exemption=True)
    first = _other_events(asked, exclude_event).select_related("event").order_by("event__number").first()
    return (first.event, True) if first is not None else None


def exemption_refusal(*, membership: Any, event: Event) -> NcpcError | None:
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
# One answer into its seat


def answer_describe(rsvp: Rsvp) -> str:
    text = rsvp.get_answer_display()
    if rsvp.answer == Answer.LATE and rsvp.called_in_at is not None:
        text += f" (called in {_local(rsvp.called_in_at)}"
        text += ", asks for the exemption)" if rsvp.exemption else ", no exemption)"
    if rsvp.answer == Answer.SUBSTITUTE:
        text += f": {rsvp.substitute_name}, prize to the {rsvp.prize_to}"
    return text


def _local(when: dt.datetime) -> str:
    return f"{timezone.localtime(when):%b %-d, %-I:%M %p}"


def _written(*, rsvp: Rsvp, row: Attendance, event: Event) -> tuple[list[str], str | None]:
    """Write one answer into its seat (a seat that plays); returns (the fields changed, a note or None)."""
    name = row.membership.person.full_name
    if rsvp.answer == Answer.COMING:
        return [], None
    if rsvp.answer == Answer.NOT_COMING or (rsvp.answer == Answer.LATE and not rsvp.exemption):
        row.status = Attendance.Status.ABSENT
        return ["status"], None
    if rsvp.answer == Answer.LATE:
        refused = exemption_refusal(membership=row.membership, event=event)
        if refused:
            row.status = Attendance.Status.ABSENT
            return ["status"], f"{name}: called in late, but {refused}"
        row.status = Attendance.Status.CALLED_IN
        row.called_in_at = rsvp.called_in_at  # the member's call, not the moment it is applied
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


def seat_answer_apply(
    *, rsvp: Rsvp, row: Attendance, event: Event, actor: Actor, now: dt.datetime, when: str
) -> tuple[bool, str | None]:
    """Write ``rsvp`` into ``row`` (the member's seat at ``event``, locked by the caller), and mark the answer
    applied. Only a seat that plays and carries nothing of the night yet (no substitute, not out) changes; a
    seat that cannot play yet keeps the answer unapplied (call again once it may). ``when``: what made it apply,
    for the audit row. Returns (the seat changed, a note for the officer or None). The caller bumps the event's
    version when the seat changed."""
    if rsvp.applied_at is not None or row.status in WAITING:
        return False, None
    # The answer is marked applied first: its own substitute or exemption no longer counts twice.
    rsvp.applied_at = now
    rsvp.save(update_fields=["applied_at"])
    if row.status != Attendance.Status.EXPECTED or hasattr(row, "elimination") or row.substitute_name:
        return False, None
    old = row.status
    fields, note = _written(rsvp=rsvp, row=row, event=event)
    if not fields:
        return False, note
    row.save(update_fields=fields)
    audit_record(
        actor=actor,
        action="rsvp.apply",
        target=row,
        summary=f"{row.membership.person.full_name} at {event} from the answer '{answer_describe(rsvp)}' "
        f"({when}): {Attendance.Status(old).label} → {Attendance.Status(row.status).label}"
        + (f", substitute {row.substitute_name}" if row.substitute_name else "")
        + (f" — {note}" if note else ""),
        data={
            "event": event.pk,
            "rsvp": rsvp.pk,
            "to": row.status,
            "substitute": row.substitute_name,
            "called_in_at": row.called_in_at.isoformat() if row.called_in_at else None,
        },
    )
    return True, note
