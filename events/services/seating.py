"""Seat draw, table balancing and the final table (SPEC §4, bylaws §5.8, §6.4, §6.6, §6.7). Pure.

Players are plain keys. Randomness comes from the ``rng`` passed in (``random.Random`` or
``secrets.SystemRandom``), so tests can fix it and the draw itself stays fair.
"""

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Seat:
    table: int
    seat: int
    player: str


@dataclass
class Table:
    number: int
    seats: dict[int, str] = field(default_factory=dict)  # seat number → player
    button: int | None = None  # seat number of the button (may be an empty seat: dead button)
    # Seats around the table: from the season's rules (``table_size``, ``final_table_size``) when drawn.
    seat_count: int = field(kw_only=True)
    # Players not at the table yet (absent, or called in and not arrived): their chips sit there, posted and
    # folded, but they are never drawn to move (SPEC §15.5).
    away: frozenset[str] = field(default=frozenset(), kw_only=True)

    @property
    def size(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class Move:
    player: str
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int


def table_sizes(*, players: int, table_size: int, final_table_size: int) -> list[int]:
    """One table up to the final table's size; otherwise ceil(n / table_size) tables within one of each other."""
    if players <= 0:
        return []
    if players <= final_table_size:
        return [players]
    tables = math.ceil(players / table_size)
    base, extra = divmod(players, tables)
    return [base + 1 if i < extra else base for i in range(tables)]


def seat_draw(
    *,
    present: Sequence[str],
    absent: Sequence[str] = (),
    table_size: int,
    final_table_size: int,
    rng: random.Random,
) -> list[Seat]:
    """Random seats for everyone expected; absent players are spread as evenly as possible (§6.4)."""
    everyone = list(present) + list(absent)
    if len(set(everyone)) != len(everyone):
        raise ValueError("A player is listed twice.")
    sizes = table_sizes(players=len(everyone), table_size=table_size, final_table_size=final_table_size)
    # Deal the absent players round-robin from a random table, then fill the rest with present players.
    absent_shuffled = list(absent)
    rng.shuffle(absent_shuffled)
    present_shuffled = list(present)
    rng.shuffle(present_shuffled)
    order = list(range(len(sizes)))
    rng.shuffle(order)
    # Larger tables take an absent player first, so absent counts stay within one and never overflow.
    order.sort(key=lambda t: -sizes[t])
    per_table: list[list[str]] = [[] for _ in sizes]
    for i, player in enumerate(absent_shuffled):
        per_table[order[i % len(order)]].append(player)
    for t, size in enumerate(sizes):
        while len(per_table[t]) < size:
            per_table[t].append(present_shuffled.pop())
    seats: list[Seat] = []
    seat_count = max(sizes[0], table_size, final_table_size) if sizes else 0
    for t, players in enumerate(per_table, start=1):
        numbers = rng.sample(range(1, seat_count + 1), len(players))
        seats.extend(Seat(table=t, seat=n, player=p) for n, p in zip(numbers, players, strict=True))
    return sorted(seats, key=lambda s: (s.table, s.seat))


def _clockwise(table: Table, start: int) -> list[int]:
    """Seat numbers after ``start``, going clockwise (increasing numbers, wrapping)."""
    n = table.seat_count
    return [((start - 1 + k) % n) + 1 for k in range(1, n)]


def forbidden_seats(table: Table) -> set[int]:
    """Empty seats between the button and the small blind: a new player may not sit there (§6.6)."""
    if table.button is None or not table.seats:
        return set()
    forbidden = set()
    for seat in _clockwise(table, table.button):
        if seat in table.seats:  # the small blind: the first occupied seat after the button
            break
        forbidden.add(seat)
    return forbidden


def allowed_empty_seats(table: Table) -> list[int]:
    empty = [s for s in range(1, table.seat_count + 1) if s not in table.seats]
    blocked = forbidden_seats(table)
    return [s for s in empty if s not in blocked]


def balance_moves(*, tables: Sequence[Table], rng: random.Random) -> list[Move]:
    """Moves that bring the tables within one player of each other (§6.6).

    Each move takes a player drawn at random from the largest table to an empty seat at the smallest table
    that is not between the small blind and the button. A player who is away (absent, or called in and not
    arrived) is never drawn. The tables passed in are left unchanged.
    """
    state = [
        Table(t.number, dict(t.seats), t.button, seat_count=t.seat_count, away=t.away)
        for t in tables
        if t.seats
    ]
    moves: list[Move] = []
    while len(state) > 1:
        largest = max(state, key=lambda t: (t.size, -t.number))
        smallest = min(state, key=lambda t: (t.size, t.number))
        if largest.size - smallest.size < 2:
            break
        seats = allowed_empty_seats(smallest)
        if not seats:
            break
        movable = sorted(seat for seat, player in largest.seats.items() if player not in largest.away)
        if not movable:
            break
        from_seat = rng.choice(movable)
        player = largest.seats.pop(from_seat)
        to_seat = rng.choice(seats)
        smallest.seats[to_seat] = player
        moves.append(Move(player, largest.number, from_seat, smallest.number, to_seat))
    return moves


def needs_balancing(*, tables: Sequence[Table]) -> bool:
    sizes = [t.size for t in tables if t.seats]
    return len(sizes) > 1 and max(sizes) - min(sizes) >= 2


def final_table_due(*, players_left: int, tables_in_use: int, final_table_size: int) -> bool:
    return tables_in_use > 1 and players_left <= final_table_size


def final_table_draw(
    *, players: Sequence[str], final_table_size: int, rng: random.Random
) -> tuple[list[Seat], int]:
    """A fresh random draw for the final table (§6.7): seats and the seat that gets the button."""
    if len(players) > final_table_size:
        raise ValueError(f"{len(players)} players do not fit the final table of {final_table_size}.")
    numbers = rng.sample(range(1, final_table_size + 1), len(players))
    seats = sorted(
        (Seat(table=1, seat=n, player=p) for n, p in zip(numbers, players, strict=True)), key=lambda s: s.seat
    )
    button = rng.choice([s.seat for s in seats])
    return seats, button
