import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


class AuditEntry(models.Model):
    """Who changed what, when and why: one row per change to members, results, money or rules.

    Rows are only ever added. Commands write them inside their own transaction, so a change and its audit
    row land together or not at all.
    """

    at = models.DateTimeField(auto_now_add=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=80)
    target_type = models.CharField(max_length=80, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    summary = models.CharField(max_length=300)
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ("-at", "-pk")
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["target_type", "target_id"], name="ncpc_audit_target_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}: {self.summary}"


class MailDelivery(models.Model):
    """One e-mail to one recipient, sent by the task worker (ncpc/core/mail.py): what was sent, to whom, and how
    it went. A message that cannot be delivered says why, for the officers' "Mail deliveries" page."""

    class Kind(models.TextChoices):
        PASSWORD_RESET = "password_reset", "password reset"
        RESULTS = "results", "results"
        RESULTS_CORRECTED = "results_corrected", "corrected results"
        DUES_REMINDER = "dues_reminder", "dues reminder"
        BALLOT = "ballot", "ballot"
        RSVP_REMINDER = "rsvp_reminder", "who's coming reminder"
        CHECK_APPROVAL = "check_approval", "check to approve"
        LOGIN_EMAIL = "login_email", "login's e-mail changed"

    class Status(models.TextChoices):
        QUEUED = "queued", "waiting to be sent"
        SENDING = "sending", "being sent"
        RETRYING = "retrying", "will be tried again"
        SENT = "sent", "sent"
        FAILED = "failed", "not delivered"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    to = models.CharField(max_length=254)
    subject = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    reference = models.CharField(max_length=80, blank=True)  # what it is about, e.g. "event:12"
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Fixed when queued and sent with every attempt (SPEC §17.9): a message sent again after a worker stopped
    # mid-send is the same message, which mail programs show once.
    message_id = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name_plural = "mail deliveries"
        indexes = [models.Index(fields=["status", "created_at"], name="ncpc_mail_status_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.to}: {self.get_status_display()}"


class PasswordResetRequest(models.Model):
    """A password reset asked for (whether or not the address is a member's): counted to limit them per
    e-mail address and per client address."""

    email = models.CharField(max_length=254)
    client = models.CharField(max_length=45)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ("-at", "-pk")

    def __str__(self) -> str:
        return f"Reset for {self.email} from {self.client} at {self.at:%Y-%m-%d %H:%M}"


class SheetImport(models.Model):
    """A previewed spreadsheet waiting for its confirmation. Confirming claims the row (locked), so a double
    click or two officers confirming at once import it once; the second sees the first one's result."""

    class Status(models.TextChoices):
        PREVIEWED = "previewed", "previewed"
        IMPORTED = "imported", "imported"

    token = models.CharField(max_length=32, unique=True)
    kind = models.CharField(max_length=10)
    season_name = models.CharField(max_length=20)
    text = models.TextField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREVIEWED)
    rows = models.PositiveIntegerField(default=0)
    imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")

    def __str__(self) -> str:
        return f"{self.kind} sheet for {self.season_name} ({self.get_status_display()})"


def time_zone_validate(value: str) -> None:
    """An IANA time zone name the system knows, like America/New_York."""
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a time zone name like America/New_York or Europe/London.")


class ClubIdentity(models.Model):
    """One row (id 1): what the club is called, where its clock is, what its rule book is called, and how the
    rule book numbers the rules the pages mention (SPEC §16.7). Read through ``ncpc.core.identity``; before
    anyone saves it, the defaults below are the club's (the site as it was before this was data)."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    name = models.CharField("club's name", max_length=100, default="Northern Cincinnati Poker Club")
    short_name = models.CharField(
        "short name", max_length=20, default="NCPC", help_text="In the navigation, e-mails and the night app."
    )
    time_zone = models.CharField(
        "time zone",
        max_length=64,
        default="America/New_York",
        validators=[time_zone_validate],
        help_text="Where the club meets: every date and time is shown and counted in it.",
    )
    rule_book = models.CharField(
        "rule book's name",
        max_length=60,
        default="the bylaws",
        help_text="As a sentence names it, like “the bylaws” or “the house rules”.",
    )
    # Reference key (ncpc.core.identity.REFERENCES) → the text shown for it, like "§2.12"; a key not here
    # shows its default, an empty text shows none.
    references = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name_plural = "club identity"
        constraints = [models.CheckConstraint(condition=models.Q(id=1), name="ncpc_clubidentity_one_row")]

    def __str__(self) -> str:
        return self.name
