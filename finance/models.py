"""The club's money: a double-entry ledger, members' payments, late-fee waivers, checks, WSOP winnings.

Dues charges are not stored: they follow from the season's rules, the event dates and the payments
(``finance.services.dues``), so a member's account "as of any date" is exactly SPEC §7. The ledger records
money that moved (cash basis). Entries are only ever added; a correction is a reversing transaction.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from ncpc.core.fields import MoneyField
from ncpc.core.money import money_display


class Account(models.Model):
    """A ledger account. Amounts are debit-positive: an asset's balance is the sum of its entries."""

    class Kind(models.TextChoices):
        ASSET = "asset", "Asset"
        INCOME = "income", "Income"
        EXPENSE = "expense", "Expense"
        EQUITY = "equity", "Equity"

    CHECKING = "checking"
    ESCROW = "wsop_escrow"
    CASH = "cash_box"
    DUES = "dues_income"
    OTHER_INCOME = "other_income"
    PAYOUTS = "event_payouts"
    WSOP_EXPENSES = "wsop_expenses"
    SUPPLIES = "supplies"
    OPENING = "opening_balances"

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ("position", "name", "pk")

    def __str__(self) -> str:
        return self.name


class Transaction(models.Model):
    """One movement of money: entries that add up to zero. Never edited or deleted: the database refuses an
    UPDATE or DELETE of a transaction or an entry (a trigger, migration 0002), corrections are reversals."""

    class Kind(models.TextChoices):
        PAYMENT = "payment", "Member payment"
        PAYOUT = "payout", "Event payout"
        WSOP_ESCROW = "wsop_escrow", "WSOP money to escrow"
        CHECK = "check", "Check"
        TRANSFER = "transfer", "Transfer or other receipt"
        OPENING = "opening", "Opening balance"
        REVERSAL = "reversal", "Reversal"

    date = models.DateField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    memo = models.CharField(max_length=200)
    # Idempotency key for postings that must not happen twice (an event's payout, a season's escrow move, the
    # posting of a form: ``form:<one-time key>``).
    key = models.CharField(max_length=80, null=True, blank=True, unique=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-date", "-pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(reverses__isnull=True) | ~Q(reason=""),
                name="finance_transaction_reversal_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.date} {self.memo}"


class Entry(models.Model):
    """One line of a transaction: a debit (positive) or a credit (negative) to an account."""

    transaction = models.ForeignKey(Transaction, on_delete=models.PROTECT, related_name="entries")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="entries")
    amount = MoneyField()
    membership = models.ForeignKey(
        "members.Membership", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    memo = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("transaction", "pk")
        verbose_name_plural = "entries"
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="finance_entry_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount}"


class OpeningBalance(models.Model):
    """What an asset account held on the day the club's books start in the app (SPEC §16.6), from the bank
    statement (or the cash counted) of that day, posted against Opening balances (``transaction``; none for a
    balance of zero, which moves nothing). One standing per account; a correction reverses it with a reason
    (``reversal``, ``corrected_on``), after which a new one may be recorded. The earliest date of any of them
    is the day the books start: nothing is dated before it."""

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    date = models.DateField(help_text="The statement's date.")
    amount = MoneyField()
    note = models.CharField(max_length=200, blank=True)
    transaction = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="opening_balance"
    )
    # The one-time key of the form that recorded it (``ncpc.core.forms.BooksOnceForm``): a replay finds it.
    form_key = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    corrected_on = models.DateField(null=True, blank=True)
    correction_reason = models.TextField(blank=True)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reversal = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="opening_balance_reversed"
    )

    class Meta:
        ordering = ("date", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["account"],
                condition=Q(corrected_on__isnull=True),
                name="finance_openingbalance_one_per_account",
            ),
            models.CheckConstraint(condition=Q(amount__gte=0), name="finance_openingbalance_not_negative"),
            models.CheckConstraint(
                condition=Q(corrected_on__isnull=True) | ~Q(correction_reason=""),
                name="finance_openingbalance_correction_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"Opening balance of {self.account}: {self.amount} on {self.date}"


class Payment(models.Model):
    """A member's payment of dues and fees, as the treasurer recorded it (posted to the ledger)."""

    class Method(models.TextChoices):
        CASH = "cash", "Cash"
        CHECK = "check", "Check"

    membership = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="payments")
    date = models.DateField()
    amount = MoneyField()
    method = models.CharField(max_length=5, choices=Method.choices)
    reference = models.CharField(max_length=80, blank=True, help_text="Check number or receipt note.")
    transaction = models.OneToOneField(Transaction, on_delete=models.PROTECT, related_name="payment")

    class Meta:
        ordering = ("-date", "-pk")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="finance_payment_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.membership.person} paid {self.amount} on {self.date}"


class LateFeeWaiver(models.Model):
    """The treasurer waived the late fee charged on ``fee_date`` (SPEC §7), effective ``on``."""

    membership = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="+")
    fee_date = models.DateField()
    on = models.DateField()
    reason = models.TextField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("fee_date", "pk")
        constraints = [
            models.UniqueConstraint(fields=["membership", "fee_date"], name="finance_latefeewaiver_once"),
            models.CheckConstraint(condition=~Q(reason=""), name="finance_latefeewaiver_has_reason"),
        ]

    def __str__(self) -> str:
        return f"Late fee of {self.fee_date} waived"


class Disbursement(models.Model):
    """A check (§4.7): counts as issued once the season's quorum of different officers (three) approved it;
    it names the two officers who sign it. Money leaves the WSOP escrow and reaches an expense only this way."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approvals"
        ISSUED = "issued", "Issued"

    date = models.DateField()
    payee = models.CharField(max_length=120)
    amount = MoneyField()
    memo = models.CharField("purpose", max_length=200)
    check_number = models.CharField(max_length=20, blank=True)
    from_account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    to_account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    signer_1 = models.ForeignKey(
        "members.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    signer_2 = models.ForeignKey(
        "members.Person", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    issued_on = models.DateField(null=True, blank=True)
    transaction = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="disbursement"
    )
    # The one-time key of the form that created it (``ncpc.core.forms.BooksOnceForm``): a replay finds it.
    form_key = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-date", "-pk")
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="finance_disbursement_positive"),
            models.UniqueConstraint(
                fields=["from_account", "check_number"],
                condition=~Q(check_number=""),
                name="finance_disbursement_check_number_once",
            ),
            models.CheckConstraint(
                condition=Q(signer_1__isnull=True) | ~Q(signer_1=models.F("signer_2")),
                name="finance_disbursement_two_signers",
            ),
        ]

    def __str__(self) -> str:
        number = f" #{self.check_number}" if self.check_number else ""
        return f"Check{number} to {self.payee} for {money_display(self.amount)}"


class DisbursementApproval(models.Model):
    disbursement = models.ForeignKey(Disbursement, on_delete=models.PROTECT, related_name="approvals")
    officer = models.ForeignKey("members.Person", on_delete=models.PROTECT, related_name="+")
    office = models.CharField(max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("disbursement", "at", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["disbursement", "officer"], name="finance_disbursementapproval_once_per_officer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.officer} approved {self.disbursement}"


class ClosedMonth(models.Model):
    """A month whose treasurer's report was presented (§3.6.3): no entry may be dated inside it any more."""

    month = models.DateField(unique=True, help_text="The first day of the month.")
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-month",)

    def __str__(self) -> str:
        return f"{self.month:%B %Y} closed"


class LedgerUnlock(models.Model):
    """Present only inside the transaction of a season restore (``import_season --replace``), which removes the
    season's money records to write them again from the file: the ledger's triggers let that one transaction
    delete. Nothing else writes here; the row is gone again before the transaction commits."""

    reason = models.CharField(max_length=200)

    def __str__(self) -> str:
        return self.reason


class WsopResult(models.Model):
    """A representative's WSOP winnings (SPEC §9), as the treasurer verified them."""

    season = models.ForeignKey("events.Season", on_delete=models.PROTECT, related_name="+")
    representative = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="+")
    gross = MoneyField()
    tips = MoneyField(default=0)
    declined = models.ForeignKey(
        "members.Membership",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The qualifier who could not go and whom this representative replaced (§8.4).",
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)
    # The one-time key of the form that created it (``ncpc.core.forms.BooksOnceForm``): a replay finds it.
    form_key = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ("season", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "representative"], name="finance_wsopresult_one_per_rep"
            ),
            models.CheckConstraint(condition=Q(gross__gte=0), name="finance_wsopresult_gross_not_negative"),
            models.CheckConstraint(condition=Q(tips__gte=0), name="finance_wsopresult_tips_not_negative"),
        ]

    def __str__(self) -> str:
        return f"WSOP winnings of {self.representative.person} ({self.season})"


class DuesReminder(models.Model):
    """One dues reminder e-mail sent to a member: who, when, for which event, what to pay to play there, the
    late fee ahead (``finance.services.forecast``), the text. At most one per member and event."""

    membership = models.ForeignKey("members.Membership", on_delete=models.PROTECT, related_name="+")
    # The event the member must pay to play at (empty on reminders sent before reminders named one).
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    email = models.EmailField()
    balance = MoneyField()
    to_play = MoneyField(null=True, blank=True)
    late_fee = MoneyField(null=True, blank=True)
    late_fee_date = models.DateField(null=True, blank=True)
    body = models.TextField()
    # Empty when the scheduled command (``manage.py send_dues_reminders``) sent it.
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-sent_at", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=["membership", "event"], name="finance_duesreminder_once_per_event"
            ),
        ]

    def __str__(self) -> str:
        return f"Reminder to {self.email} ({self.to_play if self.to_play is not None else self.balance})"
