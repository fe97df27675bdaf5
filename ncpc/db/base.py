"""What the two database engines share: a transaction that changed the club's data has the data version bumped
(``ncpc.cache``) as its last statement before COMMIT.

Engines are loaded while the models are being defined, so this module imports no models: it sends
``before_commit`` and ``ncpc.cache`` does the bump.
"""

from django.dispatch import Signal

# Sent with ``connection`` just before a transaction marked ``data_changed`` commits, inside it.
before_commit = Signal()


class DataVersionOnCommit:
    """Mixin for a Django database wrapper. ``ncpc.cache.data_version_bump`` marks the open transaction
    (``data_changed``); ``commit`` then sends ``before_commit`` once, whatever the transaction wrote.

    Bumping last rather than at the first write keeps the counter's row lock out of the middle of a command:
    a command that bumped early and then locked an event row (``payment_record`` does, to re-check the payer's
    seats) could deadlock with another command that holds the event and waits for the counter. Taken only
    while committing, the lock orders the commits and never waits for anything but another commit."""

    data_changed = False

    def commit(self):
        if self.data_changed:
            before_commit.send(sender=type(self), connection=self)
        super().commit()
        self.data_changed = False

    def rollback(self):
        self.data_changed = False
        super().rollback()

    def close(self):
        self.data_changed = False
        super().close()
