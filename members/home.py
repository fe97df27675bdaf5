"""The "Club votes" home panel: open ballots the member has not finished voting on."""

from members.models import Ballot, BallotParticipation, BallotQuestion
from ncpc.home import register_home_panel
from ncpc.permissions import user_person


@register_home_panel
def open_ballots_panel(*, request, season):
    person = user_person(request.user)
    if person is None or season is None:
        return None
    from members.governance_selectors import may_vote

    waiting = []
    for ballot in Ballot.objects.filter(season=season, status=Ballot.Status.OPEN).order_by("pk"):
        if not may_vote(ballot=ballot, person=person):
            continue
        questions = BallotQuestion.objects.filter(ballot=ballot).count()
        voted = BallotParticipation.objects.filter(question__ballot=ballot, person=person).count()
        if voted < questions:
            waiting.append(ballot)
    if not waiting:
        return None
    return {
        "title": "Club votes",
        "template": "members/partials/home_ballots.html",
        "order": 5,
        "context": {"ballots": waiting},
    }
