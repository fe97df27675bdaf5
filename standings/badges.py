"""The labels and badge classes of the standings' WSOP statuses (SPEC §13) and race states."""

WSOP_BADGES = {
    "qualified": ("WSOP spot", "text-bg-success"),
    "replacement": ("WSOP spot (replacement)", "text-bg-success"),
    "declined": ("Declined", "text-bg-secondary"),
    "undecided": ("Tie at the cut", "text-bg-warning"),
    "ineligible": ("Not eligible", "text-bg-light border"),
    "none": ("", ""),
}
RACE_BADGES = {
    "clinched": ("Clinched", "text-bg-success"),
    "open": ("In the race", "border border-primary text-primary"),
    "out of reach": ("Out of reach", "text-bg-light border"),
}
