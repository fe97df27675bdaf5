"""What standings store: tie-breaks, WSOP declines, and which events' results were e-mailed.

Everything else (points, ranks, WSOP status, the race) is derived from the results on every read.
"""

from django.conf import settings
from django.db import models


class TieBreak(models.Model):
    """The officers' record of how a group of members with equal points is ordered (§10.6)."""

    class How(models.TextChoices):
        PLAYOFF = "playoff", "Heads-up playoff"
        AGREEMENT = "agreement", "Agreement between the tied players"

    season = models.ForeignKey("events.Season", on_delete=models.PROTECT, related_name="tie_breaks")
    how = models.CharField(max_length=10, choices=How.choices)
    note = models.CharField(max_length=300, blank=True)
    points = models.PositiveIntegerField(
        help_text=(
            "The points total the members were tied on. The tie-break settles that tie only; tied again at "
            "another total, they need a new one."
        )
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("season", "recorded_at", "pk")

    def __str__(self) -> str:
        names = ", ".join(str(e.membership.person) for e in self.entries.all())
        return f"{self.season} tie-break ({self.get_how_display()}): {names}"


class TieBreakEntry(models.Model):
    """One member's position (1 = best) in a tie-break."""

    tie_break = models.ForeignKey(TieBreak, on_delete=models.CASCADE, related_name="entries")
    membership = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ("tie_break", "position", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["tie_break", "membership"], name="standings_tiebreakentry_member_once"
            ),
            models.UniqueConstraint(
                fields=["tie_break", "position"], name="standings_tiebreakentry_position_once"
            ),
            models.CheckConstraint(
                condition=models.Q(position__gte=1), name="standings_tiebreakentry_position_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.membership_id} in tie-break {self.tie_break_id}"


class WsopDecline(models.Model):
    """A WSOP qualifier who cannot attend (§8.4): the spot passes to the next eligible finisher."""

    season = models.ForeignKey("events.Season", on_delete=models.PROTECT, related_name="wsop_declines")
    membership = models.OneToOneField(
        "members.Membership", on_delete=models.PROTECT, related_name="wsop_decline"
    )
    note = models.CharField(max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("season", "recorded_at", "pk")

    def __str__(self) -> str:
        return f"{self.membership} declined the WSOP seat"


class ResultsNotice(models.Model):
    """The e-mail to members after an event's results became final: once per finish (the event's
    ``results_version`` then), so results corrected after a reopening are e-mailed again, marked corrected."""

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="results_notices")
    results_version = models.PositiveIntegerField(default=0)
    corrected = models.BooleanField(default=False)
    sent_at = models.DateTimeField(auto_now_add=True)
    recipients = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ("-sent_at", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "results_version"], name="standings_resultsnotice_once_per_finish"
            )
        ]

    def __str__(self) -> str:
        return f"Results e-mail for {self.event} ({self.recipients} recipients)"
