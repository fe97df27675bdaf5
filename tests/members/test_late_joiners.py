import pytest

from events.bylaws import BYLAWS_RULES
from members.services.late_joiners import join_terms, late_joiner_dues_events, wsop_eligibility_kept


def test_a_member_from_event_one_is_a_full_member():
    terms = join_terms(rules=BYLAWS_RULES, first_event=1)
    assert not terms.is_late_joiner
    assert terms.owes_admin_fee
    assert wsop_eligibility_kept(terms=terms, events_played=[])


@pytest.mark.parametrize("first_event", [2, 3])
def test_joining_at_event_two_or_three_owes_the_admin_fee_and_must_play_seven_of_events_three_to_ten(
    first_event,
):
    terms = join_terms(rules=BYLAWS_RULES, first_event=first_event)
    assert terms.is_late_joiner
    assert terms.owes_admin_fee
    assert not terms.one_percent_benefit
    assert wsop_eligibility_kept(terms=terms, events_played=[3, 4, 5, 6, 7, 8, 9])
    assert not wsop_eligibility_kept(terms=terms, events_played=[3, 4, 5, 6, 7, 8])
    # Event 2 is outside the window of events 3–10.
    assert not wsop_eligibility_kept(terms=terms, events_played=[2, 4, 5, 6, 7, 8, 9])


@pytest.mark.parametrize("first_event", [4, 7, 10])
def test_joining_at_event_four_or_later_owes_no_admin_fee_cannot_qualify_and_gets_the_one_percent(
    first_event,
):
    terms = join_terms(rules=BYLAWS_RULES, first_event=first_event)
    assert not terms.owes_admin_fee
    assert not terms.can_qualify_for_wsop
    assert terms.one_percent_benefit
    assert not wsop_eligibility_kept(terms=terms, events_played=range(1, 11))


@pytest.mark.parametrize(("first_event", "events_owed"), [(1, 10), (2, 9), (4, 7), (10, 1)])
def test_a_late_joiner_owes_dues_for_each_remaining_event(first_event, events_owed):
    assert late_joiner_dues_events(rules=BYLAWS_RULES, first_event=first_event) == events_owed
