"""What a member who joins after event 1 owes and can win (SPEC §2, bylaws §2.5). Pure calculator."""

from collections.abc import Iterable
from dataclasses import dataclass

from events.rules import SeasonRules


@dataclass(frozen=True)
class JoinTerms:
    first_event: int
    is_late_joiner: bool
    owes_admin_fee: bool
    # None: no condition (full member). Otherwise the member must play at least ``min_events`` of the events
    # numbered ``window_from`` … last to stay WSOP-eligible.
    min_events: int | None
    window_from: int | None
    can_qualify_for_wsop: bool
    one_percent_benefit: bool  # paid a share of WSOP winnings instead (SPEC §9)


def join_terms(*, rules: SeasonRules, first_event: int) -> JoinTerms:
    if first_event <= 1:
        return JoinTerms(first_event, False, True, None, None, True, False)
    if first_event <= rules.late_joiner_full_until_event:
        return JoinTerms(
            first_event,
            True,
            True,
            rules.late_joiner_min_events,
            rules.late_joiner_window_from_event,
            True,
            False,
        )
    return JoinTerms(first_event, True, False, None, None, False, True)


def wsop_eligibility_kept(*, terms: JoinTerms, events_played: Iterable[int]) -> bool:
    """Has a member met their join terms, given the event numbers where they (or a substitute) had a place?

    Call it at the season's end; before then it says whether the condition is met so far.
    """
    if not terms.can_qualify_for_wsop:
        return False
    if terms.min_events is None or terms.window_from is None:  # set together
        return True
    played_in_window = {n for n in events_played if n >= terms.window_from}
    return len(played_in_window) >= terms.min_events


def late_joiner_dues_events(*, rules: SeasonRules, first_event: int) -> int:
    """How many events' dues a late joiner who did not take over a seat's account owes (SPEC §2)."""
    return max(0, rules.events_per_season - first_event + 1)
