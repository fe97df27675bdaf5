"""What the two database engines share: a transaction that changed the club's data has the data version bumped
(``ncpc.core.cache``) as its last statement before COMMIT.

Engines are loaded while the models are being defined, so this module imports no models: it sends
``before_commit`` and ``ncpc.core.cache`` does the bump.
"""

from typing import TYPE_CHECKING

from django.dispatch import Signal

if TYPE_CHECKING:
    # The mixin is put before a Django database wrapper; the type checker sees that wrapper as its base.
    from django.db.backends.base.base import BaseDatabaseWrapper as _Wrapper
else:
    _Wrapper = object

# Sent with ``connection`` just before a transaction marked ``data_changed`` commits, inside it.
before_commit = Signal()


class DataVersionOnCommit(_Wrapper):
    """Mixin for a Django database wrapper. ``ncpc.core.cache.data_version_bump`` marks the open transaction
    (``data_changed``); ``commit`` then sends ``before_commit`` once, whatever the transaction wrote.

    Bumping last rather than at the first write keeps the counter's row lock out of the middle of a command:
    a command that bumped early and then locked an event row (``payment_record`` does, to re-check the payer's
    seats) could deadlock with another command that holds the event and waits for the counter. Taken only
    while committing, the lock orders the commits and never waits for anything but another commit."""

    data_changed = False
    # The transaction also changed a season's roster or schedule (``ncpc.core.cache.roster_bump``).
    roster_changed = False

    def commit(self) -> None:
        if self.data_changed:
            before_commit.send(sender=type(self), connection=self)
        super().commit()
        self.data_changed = self.roster_changed = False

    def rollback(self) -> None:
        self.data_changed = self.roster_changed = False
        super().rollback()

    def close(self) -> None:
        self.data_changed = self.roster_changed = False
        super().close()
