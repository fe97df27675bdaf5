"""The "Club votes" home panel: open ballots the member has not finished voting on."""

from django.db.models import Count

from members.models import Ballot, BallotParticipation, Membership
from ncpc.home import register_home_panel
from ncpc.permissions import user_person


@register_home_panel
def open_ballots_panel(*, request, season):
    person = user_person(request.user)
    if person is None or season is None:
        return None
    ballots = list(
        Ballot.objects.filter(season=season, status=Ballot.Status.OPEN)
        .annotate(question_count=Count("questions", distinct=True))
        .order_by("pk")
    )
    if not ballots:
        return None
    # The same rule as members.governance_selectors.may_vote: a seat held in the ballot's season.
    if not Membership.objects.filter(person=person, season=season, left_after_event__isnull=True).exists():
        return None
    voted = dict(
        BallotParticipation.objects.filter(question__ballot__in=ballots, person=person)
        .values_list("question__ballot_id")
        .annotate(count=Count("pk"))
    )
    waiting = [ballot for ballot in ballots if voted.get(ballot.pk, 0) < ballot.question_count]
    if not waiting:
        return None
    return {
        "title": "Club votes",
        "template": "members/partials/home_ballots.html",
        "order": 5,
        "context": {"ballots": waiting},
    }
