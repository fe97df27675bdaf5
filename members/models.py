"""People, their seats in a season, and officer terms."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q


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
        from members.services.votes import majority

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
