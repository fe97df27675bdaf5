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
    # The member's check number (SPEC §17.4), so the bank's line of its deposit matches this payment.
    check_number = models.CharField(max_length=20, blank=True)
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
    it names the two officers who sign it. Money leaves the WSOP escrow and reaches an expense only this way.
    A check not yet issued may be voided, with a reason (it keeps its number); an issued one is reversed."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approvals"
        ISSUED = "issued", "Issued"
        VOID = "void", "Voided"

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
    # A voided check: the day, who voided it and why (``finance.services.checks.disbursement_void``).
    voided_on = models.DateField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_reason = models.CharField(max_length=500, blank=True)
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
            models.CheckConstraint(
                condition=~Q(status="void") | (~Q(void_reason="") & Q(voided_on__isnull=False)),
                name="finance_disbursement_void_has_reason",
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
    # SPEC §17.1: the month's report as it was when the month closed (finance/selectors/report_record.py); its
    # page and files are built from it, never recomputed. None for a month closed before reports were kept.
    report = models.JSONField(null=True, blank=True, editable=False)

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


def bank_statement_path(instance: "BankStatement", filename: str) -> str:
    """Where a statement's PDF is stored: by account and month, a new name per version (never overwritten)."""
    return f"bank-statements/{instance.account.code}/{instance.month:%Y-%m}-v{instance.version}.pdf"


class BankStatement(models.Model):
    """The bank's statement of one account for one month (bylaws §3.6.6, SPEC §17.3): the bank's PDF, kept
    through Django's storage API. None is ever deleted: a replacement is a new version (the highest number is
    the current one), with the reason it replaces the last."""

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The first day of the month.")
    version = models.PositiveSmallIntegerField(default=1)
    file = models.FileField(upload_to=bank_statement_path, max_length=200)
    original_name = models.CharField(max_length=200)
    size = models.PositiveIntegerField()
    reason = models.TextField(blank=True, help_text="Why this version replaces the one before.")
    # The one-time key of the form that uploaded it (``ncpc.core.forms.BooksOnceForm``): a replay finds it.
    form_key = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-month", "account", "-version", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=["account", "month", "version"], name="finance_bankstatement_one_per_version"
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="finance_bankstatement_version_from_one"
            ),
            models.CheckConstraint(
                condition=Q(version=1) | ~Q(reason=""), name="finance_bankstatement_replacement_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account} statement {self.month:%B %Y} (version {self.version})"


class BankCsvColumns(models.Model):
    """How one account's bank names the columns of its CSV export (SPEC §17.4: mapped once, remembered)."""

    account = models.OneToOneField(Account, on_delete=models.PROTECT, related_name="+")
    date = models.CharField(max_length=80)
    amount = models.CharField(max_length=80)
    description = models.CharField(max_length=80, blank=True)
    check_number = models.CharField(max_length=80, blank=True)
    date_format = models.CharField(max_length=20, default="%m/%d/%Y")

    def __str__(self) -> str:
        return f"CSV columns of {self.account}"


class BankImport(models.Model):
    """One transaction file of the bank (OFX/QFX or CSV) imported for an account's month (SPEC §17.4)."""

    class Format(models.TextChoices):
        OFX = "ofx", "OFX/QFX"
        CSV = "csv", "CSV"

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The first day of the month.")
    format = models.CharField(max_length=3, choices=Format.choices)
    file_name = models.CharField(max_length=200)
    lines_added = models.PositiveIntegerField(default=0)
    # The one-time key of the form that imported it: a replay finds it.
    form_key = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-imported_at", "-pk")

    def __str__(self) -> str:
        return f"{self.file_name} ({self.account}, {self.month:%B %Y})"


class BankLine(models.Model):
    """One line of the bank's file: money into (positive) or out of (negative) the account, as the bank saw
    it. ``entry``: the posting of the account it is matched to (one each way), by the import's matching or by
    the Treasurer's hand; empty while it is listed as not in the books."""

    class Matched(models.TextChoices):
        AUTO = "auto", "Matched on import"
        HAND = "hand", "Matched by hand"

    bank_import = models.ForeignKey(BankImport, on_delete=models.PROTECT, related_name="lines")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The first day of the month of the import.")
    date = models.DateField()
    amount = MoneyField()
    check_number = models.CharField(max_length=20, blank=True)
    description = models.CharField(max_length=200, blank=True)
    # What makes the line the same line in a second import of the same or an overlapping file: the bank's own
    # id (OFX FITID), or for a CSV the row's date, amount, check number, text and its count among equal rows.
    bank_id = models.CharField(max_length=255)
    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="bank_line"
    )
    matched = models.CharField(max_length=4, choices=Matched.choices, blank=True)
    matched_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ("date", "pk")
        constraints = [
            models.UniqueConstraint(fields=["account", "bank_id"], name="finance_bankline_once_per_account"),
            models.CheckConstraint(condition=~Q(amount=0), name="finance_bankline_not_zero"),
            models.CheckConstraint(
                condition=Q(entry__isnull=True, matched="") | Q(entry__isnull=False) & ~Q(matched=""),
                name="finance_bankline_matched_how",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.date} {self.amount} {self.description}".strip()


class BankReconciliation(models.Model):
    """An account's month against its bank statement (SPEC §17.4): the statement's closing balance, and when
    it does not equal the books' balance less the items not yet cleared, the difference the Treasurer recorded
    with a reason (shown on the monthly report). One per account and month; the month closes only when it
    agrees or its difference is recorded."""

    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    month = models.DateField(help_text="The first day of the month.")
    statement_balance = MoneyField(null=True, blank=True)
    difference = MoneyField(null=True, blank=True)
    difference_reason = models.TextField(blank=True)
    difference_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-month", "account")
        constraints = [
            models.UniqueConstraint(fields=["account", "month"], name="finance_bankreconciliation_once"),
            models.CheckConstraint(
                condition=Q(difference__isnull=True) | ~Q(difference_reason=""),
                name="finance_bankreconciliation_difference_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.account} reconciled for {self.month:%B %Y}"


class PayoutCorrectionProposal(models.Model):
    """The payout difference of an event of a closed month whose results were corrected (SPEC §17.2), proposed
    by the Treasurer or the President and approved like a check (§4.7): the season's quorum of different
    officers, the proposer one of them. The last approval posts the difference to the ledger, dated that day
    (``finance.services.payout_corrections``). ``differences``: per seat, as it stood when proposed (place,
    paid, corrected, difference, as strings); an approval refuses it when the event's differences no longer
    match. One not yet posted may be voided, with a reason."""

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approvals"
        POSTED = "posted", "Posted"
        VOID = "void", "Voided"

    event = models.ForeignKey("events.Event", on_delete=models.PROTECT, related_name="+")
    differences = models.JSONField()
    total = MoneyField(help_text="What leaves the cash box (negative: what comes back to it).")
    proposed_on = models.DateField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    posted_on = models.DateField(null=True, blank=True)
    transaction = models.OneToOneField(
        Transaction, null=True, blank=True, on_delete=models.PROTECT, related_name="payout_correction"
    )
    voided_on = models.DateField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    void_reason = models.CharField(max_length=500, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-proposed_on", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(status="pending"), name="finance_payoutcorrection_one_pending"
            ),
            models.CheckConstraint(
                condition=~Q(status="void") | (~Q(void_reason="") & Q(voided_on__isnull=False)),
                name="finance_payoutcorrection_void_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"Payout correction #{self.pk} of event {self.event.number}"


class PayoutCorrectionApproval(models.Model):
    proposal = models.ForeignKey(PayoutCorrectionProposal, on_delete=models.PROTECT, related_name="approvals")
    officer = models.ForeignKey("members.Person", on_delete=models.PROTECT, related_name="+")
    office = models.CharField(max_length=20)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("proposal", "at", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=["proposal", "officer"], name="finance_payoutcorrectionapproval_once_per_officer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.officer} approved {self.proposal}"
