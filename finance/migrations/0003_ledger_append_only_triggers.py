"""The ledger is append-only in the database: an UPDATE or DELETE of a transaction or an entry is refused by a
trigger (corrections are reversals), unless the same transaction holds a ``finance_ledgerunlock`` row, which only
a season restore (``finance.services.purge``) writes and removes again before it commits.

PostgreSQL's TRUNCATE (used to empty the test database) fires no row trigger; SQLite's DELETE does, so the
SQLite engine's flush unlocks the ledger first (``ncpc.core.db.sqlite3``).
"""

from django.db import migrations

TABLES = ("finance_transaction", "finance_entry")

POSTGRESQL = [
    """
    CREATE OR REPLACE FUNCTION finance_ledger_append_only() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM finance_ledgerunlock) THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'The ledger is append-only: % on % is refused; post a reversal instead.',
            TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    *(
        f"""
        CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
        FOR EACH ROW EXECUTE FUNCTION finance_ledger_append_only();
        """
        for table in TABLES
    ),
]
POSTGRESQL_REVERSE = [
    *(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table};" for table in TABLES),
    "DROP FUNCTION IF EXISTS finance_ledger_append_only();",
]

# Only a DELETE is ever unlocked; an UPDATE is always refused.
SQLITE = [
    """
    CREATE TRIGGER finance_transaction_no_update BEFORE UPDATE ON finance_transaction
    BEGIN
        SELECT RAISE(ABORT, 'The ledger is append-only: UPDATE on finance_transaction is refused; post a reversal.');
    END;
    """,
    """
    CREATE TRIGGER finance_transaction_no_delete BEFORE DELETE ON finance_transaction
    WHEN NOT EXISTS (SELECT 1 FROM finance_ledgerunlock)
    BEGIN
        SELECT RAISE(ABORT, 'The ledger is append-only: DELETE on finance_transaction is refused; post a reversal.');
    END;
    """,
    """
    CREATE TRIGGER finance_entry_no_update BEFORE UPDATE ON finance_entry
    BEGIN
        SELECT RAISE(ABORT, 'The ledger is append-only: UPDATE on finance_entry is refused; post a reversal.');
    END;
    """,
    """
    CREATE TRIGGER finance_entry_no_delete BEFORE DELETE ON finance_entry
    WHEN NOT EXISTS (SELECT 1 FROM finance_ledgerunlock)
    BEGIN
        SELECT RAISE(ABORT, 'The ledger is append-only: DELETE on finance_entry is refused; post a reversal.');
    END;
    """,
]
SQLITE_REVERSE = [
    f"DROP TRIGGER IF EXISTS {table}_no_{op.lower()};" for table in TABLES for op in ("UPDATE", "DELETE")
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("finance", "0002_checks_three_officers_closed_months_form_keys"),
    ]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        ),
    ]
