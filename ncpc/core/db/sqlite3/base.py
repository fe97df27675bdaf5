"""Django's SQLite engine, with one change: emptying the database (``manage.py flush``, and pytest-django
between transactional tests) may delete the append-only ledger. PostgreSQL empties tables with TRUNCATE, which
fires no row trigger, so it uses Django's own engine."""

from collections.abc import Sequence
from typing import Any

from django.db.backends.sqlite3 import base, operations

# The ledger's tables refuse DELETE by a trigger unless this table holds a row (finance migration 0003).
LEDGER_UNLOCK = "finance_ledgerunlock"


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self, style: Any, tables: Sequence[str], *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        """Emptying the database (between transactional tests) deletes the ledger too: unlock it while doing so.
        PostgreSQL truncates, which fires no row trigger."""
        statements = super().sql_flush(
            style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
        if LEDGER_UNLOCK not in tables:
            return statements
        unlock = self.quote_name(LEDGER_UNLOCK)
        return [
            "INSERT INTO \"finance_ledgerunlock\" (reason) VALUES ('flush')",
            *(s for s in statements if not (s.startswith("DELETE") and unlock in s)),
            'DELETE FROM "finance_ledgerunlock"',
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
