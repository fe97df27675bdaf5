"""Removing a season's money records, for `import_season --replace` only (a restore from a season file).

The ledger is otherwise never edited, and the database refuses it (finance migration 0003): this runs only inside
the import's transaction, which writes the season again from the file and an audit row saying so, and unlocks
the ledger for that transaction alone.
"""

from django.db import transaction
from django.db.models import Q

from events.models import Season
from finance.models import (
    DuesReminder,
    Entry,
    LateFeeWaiver,
    LedgerUnlock,
    Payment,
    Transaction,
    WsopResult,
)
from finance.services.escrow import escrow_key


@transaction.atomic
def finance_season_purge(*, season: Season) -> None:
    memberships = season.memberships.all()
    txns = Transaction.objects.filter(
        Q(entries__membership__in=memberships)
        | Q(key__startswith=escrow_key(season=season))
        | Q(payment__membership__in=memberships)
    ).distinct()
    ids = set(txns.values_list("pk", flat=True))
    # Payouts carry the winners' memberships on their entries; reversals of all these go too.
    ids |= set(Transaction.objects.filter(reverses__in=ids).values_list("pk", flat=True))
    WsopResult.objects.filter(season=season).delete()
    LateFeeWaiver.objects.filter(membership__in=memberships).delete()
    DuesReminder.objects.filter(membership__in=memberships).delete()
    Payment.objects.filter(membership__in=memberships).delete()
    unlock = LedgerUnlock.objects.create(reason=f"Season {season} restored from a season file")
    Entry.objects.filter(transaction__in=ids).delete()
    Transaction.objects.filter(pk__in=ids, reverses__isnull=False).delete()
    Transaction.objects.filter(pk__in=ids).delete()
    unlock.delete()
