"""Results entry on tournament night: busts in order, same-hand busts, the undo of a bust, removal for abuse,
finish, and corrections (SPEC §4, §5). Commands lock the event row and check the results version the officer saw."""

import datetime as dt
import random
from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils import timezone

from events import hooks, selectors
from events.errors import ResultsError
from events.models import Attendance, Elimination, Event, Night, NightMove
from events.services.locking import event_bump, event_lock, event_lock_open
from events.services.night_clock import clock_stop
from events.services.night_seating import move_revert, newest_hand, player_reseat, seating_restore
from events.services.places import Bust, bust_places, places_final, tapped_after
from events.signals import results_final
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.majority import majority
from ncpc.core.permissions import OFFICES


def _entrants(*, event: Event) -> dict[int, Attendance]:
    return {
        a.pk: a
        for a in Attendance.objects.filter(event=event, status__in=Attendance.PLAYING).select_related(
            "membership__person"
        )
    }


def _refuse_before_the_date(*, event: Event, doing: str) -> None:
    """SPEC §15.11: results follow the calendar."""
    if club_today() < event.date:
        raise ResultsError(
            f"Event {event.number} is on {event.date:%b %-d, %Y}: its results cannot be {doing} before that day."
        )


def draw_order(*, count: int, rng: random.Random | None = None) -> list[int]:
    """A random order 1..count (the app's draw for equal chip counts)."""
    order = list(range(1, count + 1))
    (rng or random.SystemRandom()).shuffle(order)
    return order


@transaction.atomic
def bust_record(
    *,
    event: Event,
    attendance_ids: Sequence[int],
    version: int,
    actor: Actor,
    start_chips: Mapping[int, int] | None = None,
    removed_for_abuse: bool = False,
    abuse_agreed: Sequence[str] = (),
    reason: str = "",
    rng: random.Random | None = None,
    tapped_at: dt.datetime | None = None,
) -> list[Elimination]:
    """Record one hand that put one or more players out.

    Several players on the same hand need their start-of-hand chip counts (higher = better place); equal
    counts are ordered by a draw the app makes and records (§6.5, §10.3).

    ``tapped_at``: when the bust was tapped on a device that recorded it offline (never later than now); a bust
    recorded online was tapped now. The places follow the taps (SPEC §17.8): a bust tapped before others that
    reached the server first takes the worse place, and they move up (the audit row says so).
    """
    locked = event_lock_open(event=event, version=version)
    _refuse_before_the_date(event=locked, doing="entered")
    now = timezone.now()
    tapped = min(tapped_at, now) if tapped_at is not None else now
    ids = [int(i) for i in attendance_ids]
    seats, entrants = _players_out(event=locked, ids=ids)
    chips = _chips_checked(event=locked, ids=ids, seats=seats, start_chips=start_chips or {})
    hand = (newest_hand(event=locked) or 0) + 1
    draws = _draws(ids=ids, chips=chips, rng=rng) if len(ids) > 1 else {}
    new = [
        Bust(
            player=i,
            hand=hand,
            start_chips=chips.get(i) if len(ids) > 1 else None,
            draw=draws.get(i),
            removed_for_abuse=removed_for_abuse,
            tapped_at=tapped,
        )
        for i in ids
    ]
    busts = [*selectors.event_busts(event=locked), *new]
    places = {p.player: p.place for p in bust_places(entrants=entrants, busts=busts)}
    made = [
        Elimination.objects.create(
            event=locked,
            attendance_id=b.player,
            hand=hand,
            start_chips=b.start_chips,
            draw=b.draw,
            removed_for_abuse=removed_for_abuse,
            abuse_agreed=list(abuse_agreed),
            created_by=actor_user(actor),
            tapped_at=tapped,
        )
        for b in new
    ]
    locked.status = Event.Status.IN_PROGRESS
    event_bump(event=locked)
    _bust_audit(
        event=locked,
        actor=actor,
        new=new,
        seats=seats,
        places=places,
        moved_up=_moved_up(event=locked, players=tapped_after(busts=busts, hand=hand), places=places),
        abuse_agreed=abuse_agreed if removed_for_abuse else None,
        reason=reason,
    )
    return made


def _moved_up(*, event: Event, players: Sequence[int], places: Mapping[int, int]) -> list[str]:
    """The players out before a bust that was tapped before theirs, with the place each moves up to."""
    if not players:
        return []
    names = {
        a.pk: a.player_name
        for a in Attendance.objects.filter(event=event, pk__in=players).select_related("membership__person")
    }
    return [f"{names[p]} (now {_ordinal(places[p])})" for p in sorted(players, key=lambda p: places[p])]


def bust_moved_up(*, event: Event, made: Sequence[Elimination]) -> list[str]:
    """After ``bust_record``: the players out on busts recorded before ``made`` but tapped after it (it came
    late, SPEC §17.8), each with the place they move up to, best first; [] when it came in its turn."""
    if not made:
        return []
    busts = selectors.event_busts(event=event)
    later = tapped_after(busts=busts, hand=made[0].hand)
    if not later:
        return []
    places = {p.player: p.place for p in bust_places(entrants=_entrants(event=event), busts=busts)}
    return _moved_up(event=event, players=later, places=places)


def _players_out(*, event: Event, ids: list[int]) -> tuple[dict[int, Attendance], dict[int, Attendance]]:
    """The seats of the players a hand put out, and the night's entrants; refused when a player is missing,
    named twice, not playing tonight or out already."""
    if not ids:
        raise ResultsError("Choose the player who is out.")
    if len(set(ids)) != len(ids):
        raise ResultsError("A player is entered twice on the same hand.")
    seats = {
        a.pk: a
        for a in Attendance.objects.filter(event=event, pk__in=ids).select_related("membership__person")
    }
    for i in ids:
        if i not in seats:
            raise ResultsError("Unknown player: that member has no seat at this event.")
    entrants = _entrants(event=event)
    for i in ids:
        seat = seats[i]
        if i not in entrants:
            raise ResultsError(
                f"{seat.membership.person.full_name} is not playing tonight ({seat.get_status_display().lower()})."
            )
        if Elimination.objects.filter(attendance=seat).exists():
            raise ResultsError(f"{seat.player_name} is out already: entered twice.")
    return seats, entrants


def _chips_checked(
    *, event: Event, ids: list[int], seats: Mapping[int, Attendance], start_chips: Mapping[int, int]
) -> dict[int, int]:
    """The start-of-hand chip counts of several players out on one hand: each given, and none more than every
    stack at the table (starting stack × the seats that started). One player out needs none."""
    chips = {int(k): v for k, v in start_chips.items()}
    if len(ids) < 2:
        return chips
    in_play = event.season.starting_stack * Attendance.objects.filter(event=event).count()
    for i in ids:
        if chips.get(i) is None or chips[i] < 1:
            raise ResultsError(
                f"Enter {seats[i].player_name}'s chip count at the start of the hand (players out on the "
                "same hand are placed by it, §6.5)."
            )
        if chips[i] > in_play:
            raise ResultsError(
                f"{seats[i].player_name}'s chip count {chips[i]:,} is more than all the chips in play "
                f"({in_play:,}): check the number."
            )
    return chips


def _draws(*, ids: list[int], chips: Mapping[int, int], rng: random.Random | None) -> dict[int, int]:
    """The app's draw among players out on one hand with equal chip counts: player → order (1 = better)."""
    by_count: dict[int, list[int]] = {}
    for i in ids:
        by_count.setdefault(chips[i], []).append(i)
    draws: dict[int, int] = {}
    for tied in by_count.values():
        if len(tied) > 1:
            draws.update(zip(tied, draw_order(count=len(tied), rng=rng), strict=True))
    return draws


def _bust_audit(
    *,
    event: Event,
    actor: Actor,
    new: Sequence[Bust[int]],
    seats: Mapping[int, Attendance],
    places: Mapping[int, int],
    moved_up: Sequence[str],
    abuse_agreed: Sequence[str] | None,
    reason: str,
) -> None:
    """The audit row of a hand: who went out in which place (with the chips and the draw), and when it was
    tapped; the players out before it but tapped after, who move up; a removal for abuse (``abuse_agreed``
    given) with the officers who agreed."""
    described = ", ".join(
        f"{seats[b.player].player_name} {_ordinal(places[b.player])}"
        + (f" ({b.start_chips:,} chips{', draw ' + str(b.draw) if b.draw else ''})" if b.start_chips else "")
        for b in sorted(new, key=lambda b: places[b.player])
    )
    tapped = new[0].tapped_at
    late = (
        f" (tapped at {timezone.localtime(tapped):%H:%M:%S}, before busts recorded earlier; moved up: "
        + ", ".join(moved_up)
        + ")"
        if moved_up and tapped is not None
        else ""
    )
    abuse = abuse_agreed is not None
    audit_record(
        actor=actor,
        action="results.abuse" if abuse else "results.bust",
        target=event,
        summary=("Removed for abuse: " if abuse else "Out: ") + described + late,
        reason=reason,
        data={
            "hand": new[0].hand,
            "tapped_at": tapped.isoformat() if tapped is not None else None,
            **({"moved_up": list(moved_up)} if moved_up else {}),
            **({"agreed": list(abuse_agreed)} if abuse_agreed is not None else {}),
            "busts": [
                {
                    "attendance": b.player,
                    "place": places[b.player],
                    "start_chips": b.start_chips,
                    "draw": b.draw,
                }
                for b in new
            ],
        },
    )


@transaction.atomic
def abuse_remove(
    *,
    event: Event,
    attendance_id: int,
    version: int,
    actor: Actor,
    reason: str,
    agreed: Sequence[str] = (),
) -> list[Elimination]:
    """Remove a player for abuse (§5.5.2): out at this moment, keeping that place, its points and prize.

    ``agreed``: the offices of the executive committee (President, Vice President, Treasurer) that agreed; a
    majority of the committee is needed (SPEC §15.8), and it is recorded on the elimination."""
    if not reason.strip():
        raise NcpcError("Say what happened: removal for abuse needs a reason.")
    offices = [o for o in OFFICES if o in set(agreed)]
    if set(agreed) - set(OFFICES):
        raise NcpcError(
            "Only the President, the Vice President and the Treasurer decide a removal for abuse."
        )
    if not majority(yes=len(offices), members=len(OFFICES)):
        raise NcpcError(
            f"A removal for abuse needs a majority of the executive committee (§5.5.2): {len(offices)} of "
            f"{len(OFFICES)} officers agreed; tick the officers who agreed (at least {len(OFFICES) // 2 + 1}).",
            field="agreed",
        )
    return bust_record(
        event=event,
        attendance_ids=[attendance_id],
        version=version,
        actor=actor,
        removed_for_abuse=True,
        abuse_agreed=offices,
        reason=reason.strip(),
    )


@transaction.atomic
def bust_undo(
    *, event: Event, hand: int, version: int, actor: Actor, rng: random.Random | None = None
) -> list[str]:
    """Undo the bust of ``hand`` (every player out on it, any bust of the night, not only the last) with the
    table moves that followed it. The night's one undo: the console, the offline replay and the results page
    all name the hand (SPEC §17.8) and end here, through the registry (``night_actions``).

    Returns what happened, one line each (for the officer's message and the audit row)."""
    locked = event_lock_open(event=event, version=version)
    Night.objects.get_or_create(event_id=locked.pk)
    night = Night.objects.select_for_update().get(event_id=locked.pk)
    rows = list(locked.eliminations.filter(hand=hand).select_related("attendance__membership__person"))
    if not rows:
        raise ResultsError("That bust is not recorded (any more): the page was out of date.")
    rng = rng or random.SystemRandom()
    moves = _moves_take_back(event=locked, hand=hand)
    back = []
    for row in rows:
        row.delete()
        back.append(_player_back(event=locked, attendance=row.attendance, rng=rng))
    done = [*reversed(back), *moves]
    if not locked.eliminations.exists():
        locked.status = Event.Status.SCHEDULED
    event_bump(event=locked)
    night.seats_version += 1
    night.save(update_fields=["seats_version"])
    audit_record(
        actor=actor,
        action="results.undo",
        target=locked,
        summary=f"Undid the bust of hand {hand} at {locked}: " + "; ".join(done),
        data={"hand": hand, "attendances": [r.attendance_id for r in rows]},
    )
    return done


def _moves_take_back(*, event: Event, hand: int) -> list[str]:
    """Take back the table moves that followed the bust of ``hand``, newest first: the final table from the
    seating it kept, a balancing move when the player's old seat is still free. One line each."""
    done: list[str] = []
    for move in NightMove.objects.filter(event=event, after_hand=hand).order_by("-pk"):
        if move.kind == NightMove.Kind.FINAL:
            seating_restore(event=event, before=move.before)
            done.append("the final table is taken back (the tables are as before it)")
        elif move.attendance is not None:
            name = move.attendance.player_name
            if move_revert(event=event, move=move):
                done.append(f"{name} back to table {move.from_table} seat {move.from_seat}")
            else:
                done.append(
                    f"{name} stays at table {move.to_table} seat {move.to_seat} (the old seat is gone)"
                )
        move.delete()
    return done


def _player_back(*, event: Event, attendance: Attendance, rng: random.Random) -> str:
    """A player whose bust is undone, back in: reseated when the seats are drawn. The line that says where."""
    name = attendance.player_name
    if not event.night_tables.exists():
        return f"{name} back in"
    where = player_reseat(event=event, attendance=attendance, rng=rng)
    return (
        f"{name} back in at {where}" if where else f"{name} back in (no free seat: seat them when one frees)"
    )


@transaction.atomic
def results_finish(*, event: Event, version: int, actor: Actor) -> list[Attendance]:
    """Places 1..N for the players who played (§5); absent seats never back by now lose their chips (§6.3).

    Sends ``results_final`` once the transaction commits.
    """
    locked = event_lock_open(event=event, version=version)
    _refuse_before_the_date(event=locked, doing="finished")
    # Absent, or called in and never arrived (SPEC §15.5): the chips came off, no place.
    removed = list(
        Attendance.objects.filter(event=locked, status__in=Attendance.AWAY).select_related(
            "membership__person"
        )
    )
    entrants = _entrants(event=locked)
    places = places_final(entrants=list(entrants), busts=selectors.event_busts(event=locked))
    for row in removed:
        row.status = Attendance.Status.CHIPS_REMOVED
        row.save(update_fields=["status"])
    Attendance.objects.filter(event=locked).update(place=None)
    for p in places:
        Attendance.objects.filter(pk=p.player).update(place=p.place)
    locked.status = Event.Status.FINAL
    clock_stop(event=locked, actor=actor)
    locked.final_placings = selectors.placings_snapshot(selectors.season_placings(events=[locked])[locked.pk])
    locked.save(update_fields=["final_placings"])
    event_bump(event=locked)
    audit_record(
        actor=actor,
        action="results.finish",
        target=locked,
        summary=f"Results of {locked} final: "
        + ", ".join(f"{p.place}. {entrants[p.player].player_name}" for p in places[:3])
        + (
            f"; chips removed: {', '.join(r.membership.person.full_name for r in removed)}" if removed else ""
        ),
        data={"places": {str(p.player): p.place for p in places}, "chips_removed": [r.pk for r in removed]},
    )
    transaction.on_commit(lambda: results_final.send(sender=Event, event=locked))
    return [entrants[p.player] for p in places]


@transaction.atomic
def results_reopen(*, event: Event, version: int, actor: Actor, reason: str) -> Event:
    """Reopen final results for a correction. The reason and the places as they stood go to the audit trail;
    finishing again makes the corrected places final (and sends ``results_final`` again).

    An event of a closed month may be corrected too (SPEC §17.2): the audit row then keeps its whole placings
    as they stood (``events.results_history.original_placings`` reads them for the event page), and finance
    offers the payout difference as a correction posted today (``finance.services.payout_corrections``)."""
    reason = reason.strip()
    if not reason:
        raise NcpcError("A correction of final results needs a reason (it is kept in the audit trail).")
    locked = event_lock(event=event, version=version)
    if locked.status != Event.Status.FINAL:
        raise NcpcError("These results are not final yet: correct them directly.")
    # Event.final_placings stays: standings and reports show those places until the correction is final.
    placings = selectors.event_placings(event=locked)
    before = {p.member_key: p.place for p in placings}
    # SPEC §17.2: the results of an event in a closed month were part of its report (its payouts): they are
    # corrected by a correction posted today, and the event page shows the original places beside the new.
    closed = hooks.closed_month_refusal(day=locked.date)
    # (Months close in order: a closed month after the event's means the event's month is closed too.)
    kept = {"closed_month": f"{locked.date:%B %Y}", "placings_before": selectors.placings_snapshot(placings)}
    Attendance.objects.filter(event=locked).update(place=None)
    locked.status = Event.Status.IN_PROGRESS
    event_bump(event=locked)
    audit_record(
        actor=actor,
        action="results.correct",
        target=locked,
        summary=f"Reopened the results of {locked} for a correction",
        reason=reason,
        data={"places_before": before} | (kept if closed is not None else {}),
    )
    return locked


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
