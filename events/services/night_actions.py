"""The night's actions, one registry for every path they arrive by (issue 31).

An officer's action on tournament night — a bust, an undo, a table move, a clock change, a late arrival, … —
reaches the server by several paths: the console's POST (``events.views.console``), a change recorded offline
and replayed later (``events.services.night_sync``), and the plain forms of the night, clock and results pages
(``events.views.night``, ``events.views.results``). All of them name the action, give its fields as a mapping
(a form's ``POST`` or the offline change's JSON) and the versions of the night the page or device saw, and call
``perform`` (or ``attempt``). So the checks are written once: the permission, the parsing of the fields, the
version of the part of the night the action changes, and the command with its own rules; a refusal is an
``NcpcError`` (``ChangeUnreadable`` for a request the app's pages never send: a 400).

Each ``NightAction`` says which part of the night it checks (``area``: the results, the seats or the clock),
which parts its command moves the version of (``moves``: an undo reseats players, so it moves the seats too),
and whether a device may record it offline.
"""

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from events.errors import ChangeUnreadable
from events.models import Attendance, Event, Night
from events.services import attendance as attendance_services
from events.services import results as results_services
from events.services.late_arrival import call_time_read
from events.services.night_arrivals import late_arrival_settle, late_arrivals_remove_all
from events.services.night_clock import clock_command
from events.services.night_seating import button_set, final_table_make, seat_add, seat_move, seats_draw
from events.services.results_mail_late import results_mail_withheld
from ncpc.core.audit import Actor
from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.permissions import Action, user_can

Payload = Mapping[str, Any]
AREAS = ("results", "seats", "clock")
INT_LIMIT = 2**31 - 1  # an id or a seat
CHIPS_LIMIT = 2**63 - 1  # a chip count read as a number, so that one beyond all the chips is told so


@dataclass(frozen=True)
class Context:
    """Who acts, on which night, having seen which versions (results, seats, clock); ``offline``: a change
    recorded on a device and replayed, which happened at ``when``."""

    event: Event
    actor: Actor
    versions: Mapping[str, int]
    offline: bool = False
    when: dt.datetime | None = None

    def version(self, area: str) -> int:
        return self.versions.get(area, -1)  # not given: stale, matches no version


@dataclass(frozen=True)
class Done:
    """What an action did: the officer's message, and the command's answer (a seat, a table, a row, …)."""

    message: str
    value: Any = None


@dataclass(frozen=True)
class Outcome:
    """``attempt``'s answer: done, or refused with the reason (``conflict``: the page was out of date;
    ``unreadable``: the request lacks a field the app's pages always send, a 400)."""

    done: Done | None = None
    error: str = ""
    conflict: bool = False
    unreadable: bool = False

    @property
    def ok(self) -> bool:
        return self.done is not None


@dataclass(frozen=True)
class NightAction:
    area: str  # the part of the night whose version the action checks
    run: Callable[[Context, Payload], Done]
    moves: tuple[str, ...] = ()  # the parts whose versions the command moves (default: its area)
    offline: bool = False  # a device may record it offline (then replayed by night_sync)
    # Any one of these rights allows it: the results are the Vice President's; the Treasurer, who takes the
    # money at the door, may also mark arrivals and seat them (issue 34).
    permissions: tuple[Action, ...] = (Action.ENTER_RESULTS,)


# ---------------------------------------------------------------------------------------------------------
# Reading the fields (a form's POST or an offline change's JSON)


def _int(value: Any, *, limit: int = INT_LIMIT) -> int | None:
    if isinstance(value, bool):
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    return number if -limit <= number <= limit else None


def _required(payload: Payload, key: str, what: str) -> int:
    number = _int(payload.get(key))
    if number is None:
        raise NcpcError(f"The change names no {what}.")
    return number


def _values(payload: Payload, key: str) -> list[Any]:
    """Every value of ``key``: a form's repeated field (``getlist``), an offline change's list, or the one."""
    getlist = getattr(payload, "getlist", None)
    if getlist is not None:
        return [v for v in getlist(key) if v not in (None, "")]
    value = payload.get(key)
    if value in (None, "", []):
        return []
    return list(value) if isinstance(value, list) else [value]


def player_ids(payload: Payload) -> list[int]:
    """The players an action names: ``players`` (a list, offline), ``player`` or ``attendance`` (a form; several
    ``player`` fields for several players out on one hand)."""
    for key in ("players", "player", "attendance"):
        items = _values(payload, key)
        if not items:
            continue
        ids = [_int(i) for i in items]
        if any(i is None for i in ids):
            break
        return [i for i in ids if i is not None]
    raise NcpcError("The change names no player.")


def _player(payload: Payload) -> int:
    return player_ids(payload)[0]


def _chips(payload: Payload) -> dict[int, int]:
    """Chip counts at the start of the hand: ``chips`` (a mapping, offline) or a form's ``chips_<player>``
    fields (thousands separators allowed)."""
    raw = payload.get("chips") or {}
    if not isinstance(raw, Mapping):
        raise NcpcError("The chip counts of the change cannot be read.")
    fields = {
        key[len("chips_") :]: payload.get(key)
        for key in payload
        if isinstance(key, str) and key.startswith("chips_")
    }
    chips = {}
    for key, value in {**fields, **raw}.items():
        if value in (None, ""):
            continue
        number = _int(str(value).replace(",", "").strip(), limit=CHIPS_LIMIT)
        player = _int(key)
        if number is None or player is None:
            raise NcpcError("The chip counts of the change cannot be read: give whole numbers of chips.")
        chips[player] = number
    return chips


# ---------------------------------------------------------------------------------------------------------
# The actions


def _bust(ctx: Context, payload: Payload) -> Done:
    """A bust tapped now, or (offline) when the device says it was tapped: the places follow the taps (SPEC
    §17.8), so a bust sent late moves up the players out after it, and the message names them."""
    made = results_services.bust_record(
        event=ctx.event,
        attendance_ids=player_ids(payload),
        start_chips=_chips(payload),
        version=ctx.version("results"),
        actor=ctx.actor,
        tapped_at=ctx.when if ctx.offline else None,
    )
    names = ", ".join(e.attendance.player_name for e in made)
    drawn = " Equal chip counts: the app drew the order (shown below)." if any(e.draw for e in made) else ""
    # Online the tap is now, after every bust recorded: only a bust sent late can come before others.
    moved = results_services.bust_moved_up(event=ctx.event, made=made) if ctx.offline else []
    late = (
        f" Tapped at {timezone.localtime(made[0].tapped_at):%H:%M:%S}, before busts recorded earlier (the places "
        f"follow the taps): {', '.join(moved)} {'moves' if len(moved) == 1 else 'move'} up."
        if moved
        else ""
    )
    return Done(f"Out: {names}.{drawn}{late}", made)


def _abuse(ctx: Context, payload: Payload) -> Done:
    """Removal for abuse (§5.5.2) with the officers of the executive committee who agreed (``agreed``)."""
    made = results_services.abuse_remove(
        event=ctx.event,
        attendance_id=_player(payload),
        version=ctx.version("results"),
        actor=ctx.actor,
        reason=str(payload.get("reason") or ""),
        agreed=[str(v) for v in _values(payload, "agreed")],
    )
    return Done(f"Removed for abuse: {made[0].attendance.player_name} (keeps this place).", made)


def _undo(ctx: Context, payload: Payload) -> Done:
    """The bust of ``hand``: an undo names the bust it undoes, without one it is refused (SPEC §17.8)."""
    hand = _int(payload.get("hand"))
    if hand is None:
        raise ChangeUnreadable(
            "The undo names no bust (its hand is missing or not a number): nothing was undone."
        )
    done = results_services.bust_undo(
        event=ctx.event, hand=hand, version=ctx.version("results"), actor=ctx.actor
    )
    return Done("Undone: " + "; ".join(done) + ".", done)


def _move(ctx: Context, payload: Payload) -> Done:
    row = seat_move(
        event=ctx.event,
        attendance_id=_player(payload),
        to_table=_required(payload, "to_table", "table"),
        to_seat=_required(payload, "to_seat", "seat"),
        version=ctx.version("seats"),
        actor=ctx.actor,
        # Online the move is the one the app proposes; offline, the one made at the tables.
        proposed=not ctx.offline,
    )
    return Done(f"{row.attendance.player_name} now sits at table {row.table.number}, seat {row.seat}.", row)


def _clock(ctx: Context, payload: Payload) -> Done:
    what = str(payload.get("clock", ""))
    now = None
    if ctx.offline and ctx.when is not None:
        night = Night.objects.filter(event_id=ctx.event.pk).first()
        # Never before the clock's own last change (a device's clock may run a little behind the server's).
        times = [t for t in (night.started_at, night.paused_at) if t] if night else []
        now = max([ctx.when, *times])
    night = clock_command(
        event=ctx.event, action=what, version=ctx.version("clock"), actor=ctx.actor, now=now
    )
    message = {"start": "Clock started.", "pause": "Clock paused.", "resume": "Clock running."}
    return Done(message.get(what, "Clock changed."), night)


def _final(ctx: Context, payload: Payload) -> Done:
    table = final_table_make(event=ctx.event, version=ctx.version("seats"), actor=ctx.actor)
    return Done(f"Final table drawn: button at seat {table.button}.", table)


def _draw(ctx: Context, payload: Payload) -> Done:
    tables = seats_draw(
        event=ctx.event,
        version=ctx.version("seats"),
        actor=ctx.actor,
        confirm_redraw=payload.get("confirm") == "1",
    )
    return Done(f"Seats drawn: {len(tables)} table(s).", tables)


def _button(ctx: Context, payload: Payload) -> Done:
    table = button_set(
        event=ctx.event,
        table_number=_int(payload.get("table")) or 0,
        seat=_int(payload.get("seat")) or 0,
        version=ctx.version("seats"),
        actor=ctx.actor,
    )
    return Done(f"Button at table {table.number}: seat {table.button}.", table)


def _seat(ctx: Context, payload: Payload) -> Done:
    seat = seat_add(
        event=ctx.event, attendance_id=_player(payload), version=ctx.version("seats"), actor=ctx.actor
    )
    return Done(f"{seat.attendance.player_name}: table {seat.table.number}, seat {seat.seat}.", seat)


def _arrived(ctx: Context, payload: Payload) -> Done:
    row = attendance_services.attendance_set(
        event=ctx.event,
        attendance_id=_player(payload),
        status=Attendance.Status.EXPECTED,
        version=ctx.version("results"),
        actor=ctx.actor,
    )
    return Done(f"{row.membership.person.full_name} arrived and plays.", row)


def _called(ctx: Context, payload: Payload) -> Done:
    called_at = call_time_read(str(payload.get("called_at") or ""), event=ctx.event)
    if called_at is False:
        raise NcpcError("Give the time of the call as HH:MM (e.g. 19:40), or leave it empty for now.")
    row = late_arrival_settle(
        event=ctx.event,
        attendance_id=_player(payload),
        use_exemption=True,
        called_at=called_at if isinstance(called_at, dt.datetime) else None,
        version=ctx.version("results"),
        actor=ctx.actor,
    )
    when = f" at {timezone.localtime(row.called_in_at):%H:%M}" if row.called_in_at else ""
    return Done(
        f"{row.membership.person.full_name} called in{when}: the exemption of the season is used.", row
    )


def _remove(ctx: Context, payload: Payload) -> Done:
    row = late_arrival_settle(
        event=ctx.event,
        attendance_id=_player(payload),
        use_exemption=False,
        version=ctx.version("results"),
        actor=ctx.actor,
    )
    return Done(f"{row.membership.person.full_name}: chips removed.", row)


def _remove_all(ctx: Context, payload: Payload) -> Done:
    count = late_arrivals_remove_all(event=ctx.event, version=ctx.version("results"), actor=ctx.actor)
    return Done(f"Chips removed: {count} absent player(s).", count)


def _finish(ctx: Context, payload: Payload) -> Done:
    done = results_services.results_finish(event=ctx.event, version=ctx.version("results"), actor=ctx.actor)
    message = f"Results final. Winner: {done[0].player_name}." if done else "Results final."
    withheld = results_mail_withheld(event=ctx.event)  # a night entered after the fact (issue 47)
    return Done(f"{message} {withheld}" if withheld else message, done)


AT_THE_DOOR = (Action.ENTER_RESULTS, Action.RECORD_PAYMENTS)  # attendance: the Treasurer at the door too

ACTIONS: dict[str, NightAction] = {
    "bust": NightAction(area="results", run=_bust, offline=True),
    "undo": NightAction(area="results", run=_undo, moves=("results", "seats"), offline=True),
    "move": NightAction(area="seats", run=_move, offline=True),
    "clock": NightAction(area="clock", run=_clock, offline=True),
    "abuse": NightAction(area="results", run=_abuse),
    "final": NightAction(area="seats", run=_final),
    "draw": NightAction(area="seats", run=_draw),
    "button": NightAction(area="seats", run=_button),
    "seat": NightAction(area="seats", run=_seat, permissions=AT_THE_DOOR),
    "arrived": NightAction(area="results", run=_arrived, permissions=AT_THE_DOOR),
    "called": NightAction(area="results", run=_called, permissions=AT_THE_DOOR),
    "remove": NightAction(area="results", run=_remove),
    "remove_all": NightAction(area="results", run=_remove_all),
    "finish": NightAction(area="results", run=_finish),
}


def moves_of(action: NightAction) -> tuple[str, ...]:
    return action.moves or (action.area,)


def action_name(raw: str, payload: Payload) -> tuple[str, Payload]:
    """The console's buttons say ``clock.start``, ``clock.pause``, …: the ``clock`` action with that change."""
    if raw.startswith("clock."):
        return "clock", {**payload, "clock": raw[len("clock.") :]}
    return raw, payload


def offline_action(name: str) -> NightAction | None:
    """The action a device may record offline under that name; None for any other."""
    action = ACTIONS.get(name)
    return action if action is not None and action.offline else None


def perform(
    name: str,
    *,
    event: Event,
    actor: Actor,
    payload: Payload,
    versions: Mapping[str, int],
    offline: bool = False,
    when: dt.datetime | None = None,
) -> Done:
    """Run one night action; raises ``NcpcError`` (``ConcurrentChange`` when the page was out of date)."""
    action = offline_action(name) if offline else ACTIONS.get(name)
    if action is None:
        raise NcpcError(f"Unknown kind of change: {name!r}." if offline else "Unknown action.")
    # ``None`` is the system (the demo night, tests); a person needs the right.
    if actor is not None and not any(user_can(actor, right) for right in action.permissions):
        raise NcpcError(f"Your role does not allow this ({action.permissions[0].value}).")
    ctx = Context(event=event, actor=actor, versions=versions, offline=offline, when=when)
    return action.run(ctx, payload)


def attempt(
    name: str,
    *,
    event: Event,
    actor: Actor,
    payload: Payload,
    versions: Mapping[str, int],
    offline: bool = False,
    when: dt.datetime | None = None,
) -> Outcome:
    """``perform`` with a refusal as a value; a refused action leaves nothing behind (its own savepoint)."""
    try:
        with transaction.atomic():
            done = perform(
                name, event=event, actor=actor, payload=payload, versions=versions, offline=offline, when=when
            )
    except ConcurrentChange as exc:
        return Outcome(error=str(exc), conflict=True)
    except ChangeUnreadable as exc:
        return Outcome(error=str(exc), unreadable=True)
    except NcpcError as exc:
        return Outcome(error=str(exc))
    return Outcome(done=done)
