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
