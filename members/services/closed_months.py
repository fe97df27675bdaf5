"""SPEC §17.2 for the members' commands: nothing takes effect inside (or before) a closed month."""

import datetime as dt

from events import hooks
from ncpc.core.errors import NcpcError


def closed_month_refuse(*, day: dt.date, field: str) -> None:
    """Refuse a command whose effective ``day`` falls in or before a closed month (finance answers why, naming
    the month and the first open one). ``field``: the form's date field the message goes on. Called inside
    the command's transaction, so the forms, the imports and every other caller are refused alike, and before
    the command writes: on PostgreSQL the answer holds a lock until the command commits, so that a month closing
    meanwhile waits for it, or it waits for the close and is refused (``finance.services.ledger``)."""
    refusal = hooks.closed_month_refusal(day=day)
    if refusal is not None:
        raise NcpcError(refusal, field=field)
