"""What a command that books a form once returns (issue 31): the record, and whether this call wrote it.

A form carries a one-time key; sent twice (a double click, a retry after a dropped connection, a parallel
submit), the second call records nothing and returns the record the first one wrote, ``replayed``. The view
then shows "Already recorded" rather than a second success message. The answer is a value returned by the
command, never an attribute set on the model instance."""

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Booked(Generic[T]):
    """``record``: the row the command wrote or found; ``replayed``: found, written by an earlier call."""

    record: T
    replayed: bool = False
