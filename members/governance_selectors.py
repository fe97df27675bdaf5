"""Reads for the governance pages (ballots, elections, rule changes, club votes, rulings)."""

from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q, QuerySet

from events.models import Season
from members.models import (
    Ballot,
    BallotCount,
    BallotParticipation,
    BallotQuestion,
    Membership,
    Nomination,
    Person,
    RuleChange,
    Ruling,
    Vote,
)


def rule_changes_pending(*, season_name: str) -> list[RuleChange]:
    """Adopted changes of a rule number waiting for the season of that name (oldest first)."""
    return list(
        RuleChange.objects.filter(
            status=RuleChange.Status.ADOPTED, apply_state=RuleChange.Applied.PENDING, applies_to=season_name
        ).order_by("submitted_on", "pk")
    )


@dataclass(frozen=True)
class BallotWaiting:
    pk: int
    title: str


def _open_ballots(*, season_id: int, person_id: int) -> "QuerySet":
    return (
        Ballot.objects.filter(season_id=season_id, status=Ballot.Status.OPEN)
        .annotate(
            question_count=Count("questions", distinct=True),
            answered=Count(
                "questions__participations",
                filter=Q(questions__participations__person_id=person_id),
                distinct=True,
            ),
        )
        .order_by("pk")
        .values_list("pk", "title", "question_count", "answered")
    )


def ballots_waiting_for(*, person: Person, season: Season, seated: bool | None = None) -> list[BallotWaiting]:
    """The season's open ballots the person may vote on and has not finished (the home page's "Club votes"):
    one plain query while no ballot is open (most days), and one more counting the questions answered while
    one is. ``seated``: whether the person holds a seat in the season now, when the caller knows."""
    if seated is False:  # the same rule as may_vote: a seat held in the ballot's season
        return []
    if not Ballot.objects.filter(season_id=season.pk, status=Ballot.Status.OPEN).exists():
        return []
    ballots = [
        BallotWaiting(pk, title)
        for pk, title, questions, answered in _open_ballots(season_id=season.pk, person_id=person.pk)
        if answered < questions
    ]
    if not ballots:
        return []
    if seated is None:
        seated = Membership.objects.filter(
            person=person, season=season, left_after_event__isnull=True
        ).exists()
    return ballots if seated else []


def season_ballots(*, season: Season) -> list[Ballot]:
    return list(Ballot.objects.filter(season=season).order_by("-pk"))


def ballot_questions(*, ballot: Ballot) -> list[BallotQuestion]:
    """The ballot's questions with their nominees, counts and rule changes (a few queries)."""
    return list(
        ballot.questions.select_related("rule_change__vote", "winner").prefetch_related(
            Prefetch("nominations", queryset=Nomination.objects.select_related("person", "nominated_by")),
            Prefetch("counts", queryset=BallotCount.objects.select_related("nomination__person")),
        )
    )


def questions_voted(*, ballot: Ballot, person: Person | None) -> set[int]:
    if person is None:
        return set()
    return set(
        BallotParticipation.objects.filter(question__ballot=ballot, person=person).values_list(
            "question_id", flat=True
        )
    )


def ballot_turnout(*, ballot: Ballot) -> int:
    """How many different members have voted on at least one question."""
    return BallotParticipation.objects.filter(question__ballot=ballot).values("person_id").distinct().count()


def may_vote(*, ballot: Ballot, person: Person | None) -> bool:
    """A member holding a seat in the ballot's season."""
    if person is None:
        return False
    return Membership.objects.filter(
        person=person, season=ballot.season, left_after_event__isnull=True
    ).exists()


@dataclass
class OptionResult:
    label: str
    votes: int
    leading: bool = False


@dataclass
class QuestionResult:
    question: BallotQuestion
    options: list[OptionResult] = field(default_factory=list)
    participants: int = 0  # members who voted on this question
    eligible: int = 0  # members when the ballot closed

    @property
    def turnout_pct(self) -> int | None:
        """Turnout shown beside the result (SPEC §15.14), rounded to a whole percent."""
        return round(100 * self.participants / self.eligible) if self.eligible else None

    @property
    def winner_votes(self) -> int:
        winner = self.question.winner
        if winner is None:
            return 0
        return next((o.votes for o in self.options if o.label == winner.full_name), 0)


def ballot_results(*, ballot: Ballot, questions: list[BallotQuestion]) -> list[QuestionResult]:
    """The counts per question, most votes first (elections) or yes then no (rule changes)."""
    participants = dict(
        _participants_per_question(ballot=ballot),
    )
    results = []
    for question in questions:
        counts = list(question.counts.all())
        if question.office:
            options = [
                OptionResult(label=c.nomination.person.full_name, votes=c.votes)
                for c in counts
                if c.nomination is not None
            ]
            options.sort(key=lambda o: (-o.votes, o.label))
            top = options[0].votes if options else 0
            for option in options:
                option.leading = option.votes == top and top > 0
        else:
            by_answer = {c.answer: c.votes for c in counts}
            options = [
                OptionResult(label="Yes", votes=by_answer.get("yes", 0)),
                OptionResult(label="No", votes=by_answer.get("no", 0)),
            ]
        results.append(
            QuestionResult(
                question=question,
                options=options,
                participants=participants.get(question.pk, 0),
                eligible=ballot.members_eligible or 0,
            )
        )
    return results


def _participants_per_question(*, ballot: Ballot) -> list[tuple[int, int]]:
    rows = (
        BallotParticipation.objects.filter(question__ballot=ballot)
        .values("question_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return [(row["question_id"], row["n"]) for row in rows]


def rule_suggestions(*, season: Season) -> list[RuleChange]:
    return list(
        RuleChange.objects.filter(season=season).select_related(
            "submitted_by", "ballot", "vote", "applied_to"
        )
    )


def rule_changes_waiting() -> list[RuleChange]:
    """Adopted changes not yet in a season's rules (waiting, or for an officer to enter by hand)."""
    return list(
        RuleChange.objects.filter(
            status=RuleChange.Status.ADOPTED,
            apply_state__in=[RuleChange.Applied.PENDING, RuleChange.Applied.NEEDS_OFFICER],
        ).select_related("season")
    )


def club_votes(*, season: Season) -> list[Vote]:
    return list(Vote.objects.filter(season=season).select_related("person"))


def season_rulings(*, season: Season) -> list[Ruling]:
    return list(
        Ruling.objects.filter(event__season=season)
        .select_related("event", "recorded_by")
        .order_by("event__number", "created_at", "pk")
    )
