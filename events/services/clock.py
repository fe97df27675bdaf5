"""The tournament clock (SPEC §4, bylaws §6.1). Pure: the stored state and "now" in, what to show out.

The state is a start time, pauses and level skips; time left is always computed from them, never counted
down and stored, so every screen shows the same time and a reload loses nothing.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace

from events.rules import BlindLevelData


@dataclass(frozen=True)
class ClockState:
    started_at: dt.datetime | None = None
    paused_at: dt.datetime | None = None
    paused_seconds: float = 0.0  # total of finished pauses
    shift_seconds: float = 0.0  # net effect of "skip level" / "back one level"


@dataclass(frozen=True)
class ClockView:
    running: bool
    paused: bool
    started: bool
    index: int  # position in the structure (levels and breaks)
    level_number: int | None  # 1-based number among levels only; None during a break
    kind: str
    small_blind: int
    big_blind: int
    ante: int
    note: str
    seconds_left: int | None  # None: the last level has no end
    elapsed_seconds: int
    next_level: BlindLevelData | None
    seconds_to_next_break: int | None
    next_break: BlindLevelData | None


def _duration(level: BlindLevelData) -> float | None:
    return None if level.minutes is None else level.minutes * 60.0


def level_starts(structure: Sequence[BlindLevelData]) -> list[float]:
    """Seconds from the start of play at which each entry of the structure begins."""
    starts, t = [], 0.0
    for level in structure:
        starts.append(t)
        d = _duration(level)
        t = t + d if d is not None else t
    return starts


def clock_elapsed(*, state: ClockState, now: dt.datetime) -> float:
    if state.started_at is None:
        return 0.0
    until = state.paused_at or now
    return max(0.0, (until - state.started_at).total_seconds() - state.paused_seconds + state.shift_seconds)


def _index_at(structure: Sequence[BlindLevelData], elapsed: float) -> int:
    starts = level_starts(structure)
    index = 0
    for i, start in enumerate(starts):
        if elapsed >= start:
            index = i
        # An entry with no end swallows everything after it.
        if _duration(structure[i]) is None and elapsed >= start:
            return i
    return index


def clock_view(*, structure: Sequence[BlindLevelData], state: ClockState, now: dt.datetime) -> ClockView:
    if not structure:
        raise ValueError("The blind structure is empty.")
    elapsed = clock_elapsed(state=state, now=now)
    index = _index_at(structure, elapsed)
    current = structure[index]
    starts = level_starts(structure)
    duration = _duration(current)
    seconds_left = None if duration is None else max(0, int(round(starts[index] + duration - elapsed)))
    level_number = None
    if current.kind == "level":
        level_number = sum(1 for lvl in structure[: index + 1] if lvl.kind == "level")
    next_level = next((lvl for lvl in structure[index + 1 :] if lvl.kind == "level"), None)
    next_break_index = next(
        (i for i in range(index + 1, len(structure)) if structure[i].kind == "break"), None
    )
    return ClockView(
        running=state.started_at is not None and state.paused_at is None,
        paused=state.paused_at is not None,
        started=state.started_at is not None,
        index=index,
        level_number=level_number,
        kind=current.kind,
        small_blind=current.small_blind,
        big_blind=current.big_blind,
        ante=current.ante,
        note=current.note,
        seconds_left=seconds_left,
        elapsed_seconds=int(elapsed),
        next_level=next_level,
        seconds_to_next_break=None
        if next_break_index is None
        else max(0, int(round(starts[next_break_index] - elapsed))),
        next_break=None if next_break_index is None else structure[next_break_index],
    )


def clock_start(*, state: ClockState, now: dt.datetime) -> ClockState:
    if state.started_at is not None:
        return state
    return replace(state, started_at=now)


def clock_pause(*, state: ClockState, now: dt.datetime) -> ClockState:
    if state.started_at is None or state.paused_at is not None:
        return state
    return replace(state, paused_at=now)


def clock_resume(*, state: ClockState, now: dt.datetime) -> ClockState:
    if state.paused_at is None:
        return state
    pause = (now - state.paused_at).total_seconds()
    return replace(state, paused_at=None, paused_seconds=state.paused_seconds + pause)


def clock_skip(*, structure: Sequence[BlindLevelData], state: ClockState, now: dt.datetime) -> ClockState:
    """Jump to the start of the next entry (level or break)."""
    if state.started_at is None:
        return state
    elapsed = clock_elapsed(state=state, now=now)
    index = _index_at(structure, elapsed)
    if index + 1 >= len(structure):
        return state
    target = level_starts(structure)[index + 1]
    return replace(state, shift_seconds=state.shift_seconds + (target - elapsed))


def clock_back(*, structure: Sequence[BlindLevelData], state: ClockState, now: dt.datetime) -> ClockState:
    """Go back to the start of the previous entry (or to the start of the first)."""
    if state.started_at is None:
        return state
    elapsed = clock_elapsed(state=state, now=now)
    index = _index_at(structure, elapsed)
    target = level_starts(structure)[max(0, index - 1)]
    return replace(state, shift_seconds=state.shift_seconds + (target - elapsed))


def late_arrival_deadline(*, structure: Sequence[BlindLevelData], levels: int) -> float | None:
    """Seconds of play after which absent players' chips come off: the end of level ``levels`` (§6.3)."""
    seen = 0
    starts = level_starts(structure)
    for i, level in enumerate(structure):
        if level.kind != "level":
            continue
        seen += 1
        if seen == levels:
            d = _duration(level)
            return None if d is None else starts[i] + d
    return None
