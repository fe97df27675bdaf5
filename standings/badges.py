"""The labels and badge classes of the standings' WSOP statuses (SPEC §13) and race states."""

from typing import NamedTuple


class Badge(NamedTuple):
    label: str
    css: str  # the badge's classes


WSOP_BADGES = {
    "qualified": Badge("WSOP spot", "text-bg-success"),
    "replacement": Badge("WSOP spot (replacement)", "text-bg-success"),
    "declined": Badge("Declined", "text-bg-secondary"),
    "undecided": Badge("Tie at the cut", "text-bg-warning"),
    "ineligible": Badge("Not eligible", "text-bg-light border"),
    "none": Badge("", ""),
}
RACE_BADGES = {
    "clinched": Badge("Clinched", "text-bg-success"),
    "open": Badge("In the race", "border border-primary text-primary"),
    "out of reach": Badge("Out of reach", "text-bg-light border"),
}
