"""The computed-page cache (ncpc/cache.py): fewer queries on a repeat visit, fresh data after any change."""

import datetime as dt
import threading
from decimal import Decimal

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from events.models import Venue
from events.services.locking import event_lock
from finance.selectors import season_dues_accounts
from finance.services.ledger import accounts_ensure
from finance.services.payments import payment_record
from ncpc.core.audit import audit_record
from ncpc.core.cache import computed_forget, data_version, data_version_bump, data_version_forget
from tests.factories import member_user, season_make

# Cached values are used only outside transactions, so these tests run without the usual test transaction.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cache_on(settings):
    # As in production: the computed pages, and what is kept under a stamp or the roster version.
    settings.NCPC_COMPUTED_CACHE = True
    settings.NCPC_STAMPED_CACHE = True
    computed_forget()
    yield
    computed_forget()


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_a_repeat_visit_computes_nothing_again(cache_on, member_client):
    first = count_queries(member_client, "/finance/me/")
    second = count_queries(member_client, "/finance/me/")
    assert second < first


def test_a_page_reads_the_data_version_before_anything_else(cache_on, member_client):
    """Rows the view reads (its season, the rows pages share) end up in cached values: none may be older than
    the version they are kept under."""
    with CaptureQueriesContext(connection) as queries:
        assert member_client.get("/standings/2026-27/").status_code == 200
    assert "ncpc_dataversion" in queries.captured_queries[0]["sql"]


def test_a_payment_shows_at_once_on_the_next_page(cache_on, member_client, member, treasurer):
    # Nothing paid by Nov 29: $410 is due through the November event (§2.8).
    assert "$410.00" in member_client.get("/").content.decode()
    payment_record(
        membership=member.person.memberships.get(),
        date=dt.date(2026, 11, 29),
        amount=Decimal("410.00"),
        method="cash",
        actor=treasurer,
    )
    html = member_client.get("/").content.decode()
    assert "Paid up" in html and "$410.00" not in html
    assert "Good standing" in html


def test_the_event_pages_kept_results_follow_a_change_to_a_player(
    cache_on, member_client, season, today, monkeypatch
):
    """The results table is kept rendered (events.views_schedule._results_html): a player renamed after the
    page was seen shows under the new name on the next visit."""
    # Every player eligible, as in the events tests (tests/events/conftest.py).
    monkeypatch.setattr("events.hooks.good_standing.answer", lambda *, membership, on: True)
    monkeypatch.setattr("events.hooks.rules_signed.answer", lambda *, membership: True)
    from events.services.attendance import attendance_set
    from events.services.results import bust_record, results_finish
    from tests.events.factories import night_make

    event, seats = night_make(season=season, players=3)
    member_seat = event.attendances.get(membership__person__key="member1")
    attendance_set(
        event=event, attendance_id=member_seat.pk, status="absent", version=event.results_version, actor=None
    )
    for seat in (seats["c"], seats["b"]):
        event.refresh_from_db()
        bust_record(event=event, attendance_ids=[seat.pk], version=event.results_version, actor=None)
    event.refresh_from_db()
    results_finish(event=event, version=event.results_version, actor=None)
    assert "B Player" in member_client.get("/events/2026-27/4/").content.decode()
    person = seats["b"].membership.person
    person.first_name = "Bea"
    person.save()
    text = member_client.get("/events/2026-27/4/").content.decode()
    assert "Bea Player" in text and "B Player" not in text


def test_writing_an_audit_row_moves_the_data_version_on(cache_on):
    before = data_version()
    audit_record(actor=None, action="test", summary="a change")
    assert data_version() != before


def counter() -> int:
    data_version_forget()
    return int(data_version())


def test_a_write_that_skips_the_audit_moves_the_data_version_on_all_the_same(cache_on):
    before = data_version()
    venue = Venue.objects.create(name="Back room")
    assert data_version() != before
    before = data_version()
    venue.delete()
    assert data_version() != before


def test_a_transaction_moves_the_version_on_once_and_only_when_it_commits(cache_on):
    start = counter()
    with transaction.atomic():
        audit_record(actor=None, action="test", summary="a change")
        Venue.objects.create(name="Back room")
        Venue.objects.create(name="Front room")
        assert counter() == start  # not before COMMIT
    assert counter() == start + 1


def test_a_transaction_rolled_back_leaves_the_version_alone(cache_on):
    start = counter()
    with pytest.raises(RuntimeError), transaction.atomic():
        Venue.objects.create(name="Back room")
        raise RuntimeError
    assert counter() == start
    Venue.objects.create(name="Front room")  # the next transaction is not taken for the rolled-back one
    assert counter() == start + 1


def test_a_bulk_update_is_seen_when_its_code_bumps_the_version(cache_on):
    """``QuerySet.update()`` sends no signal: code that uses it calls ``data_version_bump()`` (or audits)."""
    Venue.objects.create(name="Back room")
    start = counter()
    with transaction.atomic():
        Venue.objects.update(active=False)
    assert counter() == start
    with transaction.atomic():
        Venue.objects.update(active=True)
        data_version_bump()
    assert counter() == start + 1


def test_a_change_in_the_django_admin_moves_the_data_version_on_too(cache_on, admin_client):
    before = data_version()
    admin_client.post(
        "/admin/events/venue/add/", {"name": "New hall", "address": "1 Main St", "active": "on"}
    )
    data_version_forget()
    assert data_version() != before


@pytest.mark.parametrize(
    ("url", "most"),
    [
        # Every page: session, user, data version = 3; permissions, rules, computations and the seasons (kept
        # under the roster version, read with the data version) come from memory.
        ("/", 3),  # the viewer's person (greeting) is cached with the permissions
        ("/standings/2026-27/", 3),  # the seasons (menu) are kept; the viewer's row is found by login
        ("/events/2026-27/", 3),  # the season, its events with venues: kept
        ("/events/2026-27/4/", 3),
        ("/finance/reports/2026/11/", 3),
        ("/api/v1/seasons/2026-27/report", 3),  # the season of the address: kept
    ],
)
def test_with_the_cache_warm_every_main_page_needs_at_most_a_few_queries(
    cache_on, client, url, most, django_assert_max_num_queries
):
    from members.models import Person
    from ncpc.club.services.season_import import season_import
    from tests.factories import UserFactory
    from tests.ncpc.season_files import season_file

    season_import(data=season_file(20))
    user = UserFactory(username="m01")
    Person.objects.filter(key="m01").update(user=user)
    client.force_login(user)
    client.get(url)  # computes and fills the cache
    with django_assert_max_num_queries(most):
        assert client.get(url).status_code == 200


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs two real connections (PostgreSQL)")
def test_a_page_read_between_two_officers_commits_is_not_kept_after_the_second_commit(
    cache_on, member_client, member, treasurer, season
):
    """Issue 14: ids are handed out at insert, not at commit. The Treasurer records ann's payment at the door
    and the transaction is still open (id N) when another officer's payment commits (id N+2); a page read
    then is cached under a version that includes N+2 but not ann's payment, and with the newest audit id as
    the version it stayed so after ann's payment committed. The counter moves on when each one commits."""
    other = member_user(season=season, username="member2").person.memberships.get()
    mine = member.person.memberships.get()
    written, release, other_done = threading.Event(), threading.Event(), threading.Event()
    failures = []

    def paid() -> dict:
        """What ann and the other member have paid, from the cached season accounts, read as a new request."""
        data_version_forget()
        accounts = {a.holder.person.key: a for a in season_dues_accounts(season=season)}
        return {key: sum(p.amount for p in accounts[key].payments) for key in ("member1", "member2")}

    def pay(membership) -> None:
        payment_record(
            membership=membership,
            date=dt.date(2026, 11, 29),
            amount=Decimal("410.00"),
            method="cash",
            actor=treasurer,
        )

    def at_the_door() -> None:
        try:
            with transaction.atomic():
                pay(mine)
                written.set()
                assert release.wait(20)
        except Exception as exc:  # reported by the test, not lost in the thread
            failures.append(exc)
        finally:
            written.set()
            connections.close_all()

    def at_the_other_table() -> None:
        try:
            pay(other)
            other_done.set()
        except Exception as exc:
            failures.append(exc)
        finally:
            connections.close_all()

    accounts_ensure()  # made on first use: the first payment would otherwise hold them for the second
    door, table = threading.Thread(target=at_the_door), threading.Thread(target=at_the_other_table)
    door.start()
    assert written.wait(20)
    table.start()
    # Commits at once (a counter bumped at the first write rather than before COMMIT would make it wait).
    assert other_done.wait(20)
    # Read, computed and cached before the door's commit: only the other table's payment is in.
    assert "$410.00" in member_client.get("/").content.decode()
    assert paid() == {"member1": 0, "member2": Decimal("410.00")}
    release.set()
    door.join(20)
    table.join(20)
    assert not failures
    assert not door.is_alive() and not table.is_alive()

    html = member_client.get("/").content.decode()
    assert "Paid up" in html and "$410.00" not in html
    assert "Good standing" in html
    assert paid() == {"member1": Decimal("410.00"), "member2": Decimal("410.00")}


@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="needs row locks (PostgreSQL)")
def test_a_command_that_locks_an_event_after_writing_does_not_deadlock_with_one_holding_that_event(cache_on):
    """``payment_record`` writes, then locks the payer's open events to re-check their seats. Were the counter
    bumped at the first write, another officer holding the event and writing would wait for the counter
    while the payment waits for the event: a deadlock. Bumped before COMMIT, both commit, one after the other."""
    event = season_make(2026).events.get(number=4)
    start = counter()
    wrote, locked = threading.Event(), threading.Event()
    failures = []

    def write_then_lock() -> None:
        try:
            with transaction.atomic():
                Venue.objects.create(name="Back room")
                wrote.set()
                assert locked.wait(20)
                event_lock(event=event, version=None)
        except Exception as exc:  # reported by the test, not lost in the thread
            failures.append(exc)
        finally:
            connections.close_all()

    def lock_then_write() -> None:
        try:
            assert wrote.wait(20)
            with transaction.atomic():
                event_lock(event=event, version=None)
                locked.set()
                audit_record(actor=None, action="test", summary="a change at the event")
        except Exception as exc:
            failures.append(exc)
        finally:
            locked.set()
            connections.close_all()

    threads = [threading.Thread(target=write_then_lock), threading.Thread(target=lock_then_write)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures
    assert counter() == start + 2
