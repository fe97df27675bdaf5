import pytest

from members.models import Vote
from members.services.votes import vote_record
from ncpc.core.errors import NcpcError
from ncpc.core.majority import majority


@pytest.mark.parametrize(
    ("yes", "members", "passes"),
    [
        (11, 20, True),
        (10, 20, False),  # exactly half is not a majority
        (9, 16, True),
        (8, 16, False),
        (3, 5, True),
        (2, 5, False),
        (0, 1, False),
        (1, 1, True),
    ],
)
def test_a_majority_is_more_than_half_of_the_members(yes, members, passes):
    assert majority(yes=yes, members=members) is passes


def test_a_recorded_vote_knows_whether_it_passed(db, season, today):
    vote = vote_record(
        kind=Vote.Kind.OTHER, subject="Buy new cards", held_on=today, yes=8, no=8, members_eligible=16
    ).record
    assert not vote.passed
    assert Vote.objects.get(pk=vote.pk).members_eligible == 16


def test_a_vote_with_more_ballots_than_members_is_refused(db, season, today):
    with pytest.raises(NcpcError, match="only 16 members could vote"):
        vote_record(kind=Vote.Kind.OTHER, subject="x", held_on=today, yes=10, no=7, members_eligible=16)
    assert not Vote.objects.exists()
