"""People, their seats in a season, and officer terms."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from ncpc.core.majority import majority


class Person(models.Model):
    """Anyone the club deals with: members, alternates on the waiting list, former members.

    Date of birth, address and phone are shown to officers and to the person only (SPEC §2).
    The app never stores Social Security numbers.
    """

    key = models.SlugField(max_length=40, unique=True, help_text="Stable handle, e.g. 'ann'.")
    first_name = models.CharField(max_length=60)
    last_name = models.CharField(max_length=60)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=30, blank=True)
    address = models.CharField(max_length=200, blank=True)
    date_of_birth = models.DateField(null=True, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="person"
    )
    is_professional = models.BooleanField(
        default=False, help_text="Primary vocation is professional poker player (§2.4.1)."
    )
    turned_pro_on = models.DateField(null=True, blank=True)

    class Meta:
        ordering = ("last_name", "first_name", "pk")
        verbose_name_plural = "people"

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Membership(models.Model):
    """A person's seat in one season (at most ``max_members`` seats a season)."""

    class HowLeft(models.TextChoices):
        SOLD = "sold", "Sold the seat"
        CEDED = "ceded", "Ceded the seat"
        WITHDREW = "withdrew", "Withdrew"
        REMOVED = "removed", "Removed by vote"

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="memberships")
    season = models.ForeignKey("events.Season", on_delete=models.PROTECT, related_name="memberships")
    first_event = models.PositiveSmallIntegerField(default=1)
    left_after_event = models.PositiveSmallIntegerField(null=True, blank=True)
    how_left = models.CharField(max_length=10, choices=HowLeft.choices, blank=True)
    joined_on = models.DateField(null=True, blank=True)
    left_on = models.DateField(null=True, blank=True)
    # Set when this member bought or was ceded the seat of another member this season (§2.5): the seat's dues
    # account continues (the buyer owes what the seller had not paid); points never move with the seat.
    seat_from = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="seat_to"
    )
    # How the seat was won (SPEC §2); empty for seats taken over by a transfer and for imported history.
    sponsor = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="sponsored_memberships"
    )
    admission_vote = models.ForeignKey(
        "members.Vote", null=True, blank=True, on_delete=models.PROTECT, related_name="admissions"
    )
    declared_not_professional = models.BooleanField(
        default=False, help_text="The person stated they are not a professional gambler (§2.4)."
    )

    class Meta:
        ordering = ("season", "person__last_name", "person__first_name", "pk")
        constraints = [
            models.UniqueConstraint(fields=["person", "season"], name="members_membership_one_per_season"),
            models.CheckConstraint(
                condition=Q(first_event__gte=1), name="members_membership_first_event_positive"
            ),
            models.CheckConstraint(
                condition=Q(left_after_event__isnull=True) | Q(left_after_event__gte=F("first_event") - 1),
                name="members_membership_leaves_after_joining",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} in {self.season}"

    @property
    def is_active(self) -> bool:
        return self.left_after_event is None


class OfficerTerm(models.Model):
    """Who holds an office between two dates (terms run 1 Jun – 31 May by default)."""

    class Office(models.TextChoices):
        PRESIDENT = "president", "President"
        VICE_PRESIDENT = "vice_president", "Vice President"
        TREASURER = "treasurer", "Treasurer"

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="officer_terms")
    office = models.CharField(max_length=20, choices=Office.choices)
    start = models.DateField()
    end = models.DateField()

    class Meta:
        ordering = ("-start", "office", "pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(end__gte=F("start")), name="members_officerterm_end_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_office_display()} {self.person} ({self.start} – {self.end})"


class Vote(models.Model):
    """A vote of the club's members (admission, removal, or any other question). Reusable by governance."""

    class Kind(models.TextChoices):
        ADMISSION = "admission", "Admission"
        REMOVAL = "removal", "Removal"
        TWO_EVENTS = "two_events", "Two events in one month (§4.4.2)"
        RULE_CHANGE = "rule_change", "Rule change (§3.4)"
        OTHER = "other", "Other"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    subject = models.CharField(max_length=200)
    held_on = models.DateField()
    yes = models.PositiveSmallIntegerField()
    no = models.PositiveSmallIntegerField(default=0)
    abstain = models.PositiveSmallIntegerField(default=0)
    members_eligible = models.PositiveSmallIntegerField(
        help_text="Members of the club when the vote was held (the majority is of these)."
    )
    season = models.ForeignKey(
        "events.Season", null=True, blank=True, on_delete=models.PROTECT, related_name="votes"
    )
    person = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="votes_about"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The one-time key of the form that recorded it (``ncpc.core.forms.BooksOnceForm``): the form sent twice records once.
    form_key = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ("-held_on", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(members_eligible__gte=F("yes") + F("no") + F("abstain")),
                name="members_vote_counts_within_eligible",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} vote {self.held_on}: {self.subject} ({self.yes}-{self.no}-{self.abstain})"

    @property
    def passed(self) -> bool:
        return majority(yes=self.yes, members=self.members_eligible)


class WaitingListEntry(models.Model):
    """A person waiting for a seat; the open entry in first position is the first alternate (§2.5)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        ADMITTED = "admitted", "Admitted"
        WITHDRAWN = "withdrawn", "Withdrawn"

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="waiting_list_entries")
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    sponsor = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="sponsored_entries"
    )
    added_on = models.DateField()
    offered_on = models.DateField(null=True, blank=True, help_text="A free seat was offered on this date.")
    closed_on = models.DateField(null=True, blank=True)
    notes = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ("position", "pk")
        verbose_name_plural = "waiting list entries"
        constraints = [
            models.UniqueConstraint(
                fields=["person"],
                condition=Q(status="waiting"),
                name="members_waitinglistentry_one_open_per_person",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.position} {self.person} ({self.get_status_display()})"


class Suspension(models.Model):
    """A dated period (both days included) during which the member is not in good standing (§2.16)."""

    membership = models.ForeignKey(Membership, on_delete=models.PROTECT, related_name="suspensions")
    start = models.DateField()
    end = models.DateField()
    reason = models.CharField(max_length=300)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-start", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(end__gte=F("start")), name="members_suspension_end_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership.person} suspended {self.start} – {self.end}"


class RulesSignature(models.Model):
    """The member signed the season's club rules document (§2.4, §3.5.5), recorded by the Vice President."""

    membership = models.OneToOneField(Membership, on_delete=models.PROTECT, related_name="rules_signature")
    signed_on = models.DateField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-signed_on", "-pk")

    def __str__(self) -> str:
        return f"{self.membership} signed the rules on {self.signed_on}"


class Removal(models.Model):
    """A member removed by majority vote (§2.11 unpaid fees, §5.5.3 abuse); they forfeit money paid."""

    class Grounds(models.TextChoices):
        UNPAID_FEES = "unpaid_fees", "Unpaid fees after the first January event (§2.11)"
        ABUSE = "abuse", "Player abuse (§5.5.3)"

    membership = models.OneToOneField(Membership, on_delete=models.PROTECT, related_name="removal")
    grounds = models.CharField(max_length=12, choices=Grounds.choices)
    vote = models.ForeignKey(Vote, on_delete=models.PROTECT, related_name="removals")
    nominated_by = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="removal_nominations"
    )
    removed_on = models.DateField()
    # The money itself stays in the club's books (finance); this records that nothing is refunded.
    forfeits_payments = models.BooleanField(default=True)
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ("-removed_on", "-pk")

    def __str__(self) -> str:
        return f"{self.membership} removed on {self.removed_on}"


# Governance (SPEC §10, bylaws §3, §4.8, §5.4) ------------------------------------------------------------


class Ballot(models.Model):
    """A secret ballot of the members: the officers' election (§3.2–3.3) or a rule-change ballot (§3.4.2–3.4.4).

    The President prepares it (nominations, accepted rule changes), opens it, closes it (the tally is taken)
    and publishes the result.
    """

    class Kind(models.TextChoices):
        ELECTION = "election", "Election of officers"
        RULE_CHANGES = "rule_changes", "Rule-change ballot"

    class Status(models.TextChoices):
        PREPARING = "preparing", "Being prepared"
        OPEN = "open", "Open for voting"
        CLOSED = "closed", "Closed, being counted"
        PUBLISHED = "published", "Result published"

    season = models.ForeignKey("events.Season", on_delete=models.PROTECT, related_name="ballots")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    title = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREPARING)
    opened_on = models.DateField(null=True, blank=True)
    closed_on = models.DateField(null=True, blank=True)
    published_on = models.DateField(null=True, blank=True)
    members_eligible = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seats held when the ballot closed (a majority is of these)."
    )

    class Meta:
        ordering = ("-season__start", "kind", "-pk")

    def __str__(self) -> str:
        return f"{self.title} ({self.get_status_display()})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED


class RuleChange(models.Model):
    """A member's suggestion to change the club's rules, and what became of it (§3.4.1–3.4.4).

    When it changes a rule number, ``rule_field`` names it (a scalar rule of ``events.rules.SeasonRules``,
    ``payout_row`` or ``wsop_row``) and ``new_value`` holds the value as JSON. An adopted change is applied
    to the next season's rules (``applies_to``), never to a season already under way.
    """

    class Status(models.TextChoices):
        SUBMITTED = "submitted", "Submitted"
        ON_BALLOT = "on_ballot", "On the ballot"
        DECLINED = "declined", "Not put on the ballot"
        ADOPTED = "adopted", "Adopted"
        REJECTED = "rejected", "Rejected"

    class Applied(models.TextChoices):
        NONE = "", "Nothing to apply"
        PENDING = "pending", "Waiting for the next season"
        APPLIED = "applied", "Applied"
        NEEDS_OFFICER = "needs_officer", "To be entered by an officer"
        BY_HAND = "by_hand", "Entered by an officer"

    season = models.ForeignKey("events.Season", on_delete=models.PROTECT, related_name="rule_changes")
    submitted_by = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="rule_suggestions")
    submitted_on = models.DateField()
    suggestion = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUBMITTED)
    ballot = models.ForeignKey(
        Ballot, null=True, blank=True, on_delete=models.PROTECT, related_name="rule_changes"
    )
    title = models.CharField(max_length=200, blank=True, help_text="The wording on the ballot.")
    rule_field = models.CharField(max_length=40, blank=True)
    new_value = models.JSONField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_on = models.DateField(null=True, blank=True)
    decline_reason = models.CharField(max_length=300, blank=True)
    vote = models.ForeignKey(
        Vote, null=True, blank=True, on_delete=models.PROTECT, related_name="rule_changes"
    )
    applies_to = models.CharField(max_length=9, blank=True, help_text="Name of the season it changes.")
    apply_state = models.CharField(max_length=14, choices=Applied.choices, blank=True, default=Applied.NONE)
    applied_to = models.ForeignKey(
        "events.Season", null=True, blank=True, on_delete=models.PROTECT, related_name="rule_changes_applied"
    )
    applied_on = models.DateField(null=True, blank=True)
    apply_problem = models.TextField(blank=True)

    class Meta:
        ordering = ("-season__start", "-submitted_on", "-pk")

    def __str__(self) -> str:
        return self.title or self.suggestion[:80]


class BallotQuestion(models.Model):
    """One thing voted on: an office (election, options are the nominees) or a rule change (yes / no)."""

    ballot = models.ForeignKey(Ballot, on_delete=models.CASCADE, related_name="questions")
    position = models.PositiveSmallIntegerField()
    office = models.CharField(max_length=20, choices=OfficerTerm.Office.choices, blank=True)
    rule_change = models.OneToOneField(
        RuleChange, null=True, blank=True, on_delete=models.PROTECT, related_name="question"
    )
    # Election outcome: set when the count has one leader, or by the President after a tie (§3.3 is silent).
    winner = models.ForeignKey(Person, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    tie = models.BooleanField(default=False)
    outcome_note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ("ballot", "position", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["ballot", "office"],
                condition=~Q(office=""),
                name="members_ballotquestion_one_per_office",
            ),
        ]

    def __str__(self) -> str:
        if self.office:
            return self.get_office_display()
        return str(self.rule_change) if self.rule_change_id else f"Question {self.position}"


class Nomination(models.Model):
    """A member nominated for an office at the March event (§3.2)."""

    question = models.ForeignKey(BallotQuestion, on_delete=models.CASCADE, related_name="nominations")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="nominations")
    nominated_by = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    nominated_on = models.DateField()

    class Meta:
        ordering = ("question", "person__last_name", "person__first_name", "pk")
        constraints = [
            models.UniqueConstraint(fields=["question", "person"], name="members_nomination_once_per_office"),
        ]

    def __str__(self) -> str:
        return f"{self.person} for {self.question}"


class BallotParticipation(models.Model):
    """That a member voted on a question, and nothing about how: the choice only adds one to a
    ``BallotCount``, which has no link to the voter (a secret ballot)."""

    question = models.ForeignKey(BallotQuestion, on_delete=models.CASCADE, related_name="participations")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="ballot_participations")
    voted_on = models.DateField()

    class Meta:
        ordering = ("question", "person__last_name", "person__first_name", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["question", "person"], name="members_ballotparticipation_once_per_question"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.person} voted on {self.question}"


class BallotCount(models.Model):
    """The running count of one option of a question (a nominee, or yes / no).

    Deliberately no row per ballot paper, no voter, no time: a vote adds one to ``votes`` in the same
    transaction that records the ``BallotParticipation``, so neither row order nor timestamps can tie a
    voter to a choice.
    """

    class Answer(models.TextChoices):
        YES = "yes", "Yes"
        NO = "no", "No"

    question = models.ForeignKey(BallotQuestion, on_delete=models.CASCADE, related_name="counts")
    nomination = models.OneToOneField(
        Nomination, null=True, blank=True, on_delete=models.CASCADE, related_name="count"
    )
    answer = models.CharField(max_length=3, choices=Answer.choices, blank=True)
    votes = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("question", "answer", "nomination", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["question", "answer"],
                condition=~Q(answer=""),
                name="members_ballotcount_one_per_answer",
            ),
            models.CheckConstraint(
                condition=(Q(answer="") & Q(nomination__isnull=False))
                | (~Q(answer="") & Q(nomination__isnull=True)),
                name="members_ballotcount_nominee_or_answer",
            ),
        ]

    def __str__(self) -> str:
        # A count is for an answer or for a nominee, never both (the check constraint above).
        option = str(self.nomination.person) if self.nomination is not None else self.get_answer_display()
        return f"{self.question}: {option} {self.votes}"


class Ruling(models.Model):
    """A dispute at an event and how it was ruled (§4.8, §5.4): who ruled follows SPEC §10."""

    event = models.ForeignKey("events.Event", on_delete=models.PROTECT, related_name="rulings")
    hand = models.CharField(max_length=120, help_text="Which hand: level, table, what was happening.")
    parties = models.CharField(max_length=200, help_text="The players in the dispute.")
    dispute = models.TextField()
    ruling = models.TextField()
    officers_present = models.JSONField(default=list)
    officers_involved = models.JSONField(default=list)
    ruled_by_offices = models.JSONField(default=list)
    ruled_by = models.CharField(max_length=200, help_text="Names of those who ruled.")
    independent_player = models.CharField(max_length=120, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("event", "created_at", "pk")

    def __str__(self) -> str:
        return f"Ruling at {self.event}: {self.hand}"


class Invitation(models.Model):
    """An e-mailed link with which a person chooses the username and password of their login (SPEC §16.8):
    valid 7 days, used once; a newer invitation to the same person replaces it. Only the token's SHA-256 is
    kept, so the link cannot be read back from the database."""

    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    email = models.EmailField(help_text="The address it was sent to (the person's e-mail then).")
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("-created_at", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")), name="members_invitation_expires_after_created"
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation of {self.person} ({self.created_at:%Y-%m-%d})"
