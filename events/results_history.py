"""The places an event had when its month was closed (SPEC §17.2), for the event page to show beside the
corrected ones. ``results_reopen`` keeps them in the audit row of the first correction made while the month was
closed; later corrections keep theirs too, but the original is the first."""

from dataclasses import dataclass

from events.models import Event
from events.placings import Placing
from ncpc.core.models import AuditEntry


@dataclass(frozen=True)
class OriginalResults:
    """The places that stood when the event's month was closed, and that month ("October 2026")."""

    placings: list[Placing]
    closed_month: str


def original_placings(*, event: Event) -> OriginalResults | None:
    """The event's places as its closed month's report knew them, when they were corrected since; else None."""
    rows = AuditEntry.objects.filter(
        action="results.correct",
        target_type=Event._meta.label_lower,
        target_id=str(event.pk),
        data__has_key="placings_before",
    ).order_by("at", "pk")
    first = rows.values_list("data", flat=True).first()
    if first is None:
        return None
    return OriginalResults(
        placings=[Placing(**p) for p in first["placings_before"]], closed_month=first["closed_month"]
    )
