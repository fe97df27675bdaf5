"""SPEC §17.2 and the new season: the Treasurer may close August (and September) before the officers open the
new season in the app. The season still opens: its seats carry over on the first day of the first open month
(``joined_on``), its events must all fall in open months, a members spreadsheet imported into it takes effect on
that day too, and the new-season form says so before the officer creates it. Only the day in the books moves:
a continuing member owes the season's dues from its first event, as every year.

The club: season 2026-27 (the bylaws' rules) with Ann, Bob, the Treasurer and the Vice President holding seats;
the Vice President was elected again for 2027-28. The clock is Oct 6, 2027; the books start in July 2027 (Ann
paid $110 on Jul 10); the Treasurer closed July, August and September 2027, so October is the first open month.
"""

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.urls import reverse

from events import hooks
from events.bylaws import BYLAWS_RULES
from events.models import Event, Season
from events.services.seasons import SeasonOpening, season_create, season_first_month_offered, season_opening
from finance.selectors.dues import amount_owed, dues_account
from finance.selectors.report_record import month_report_complete, report_record
from finance.services.escrow import season_member_count
from finance.services.month_closing import month_close
from members.models import Membership, OfficerTerm
from members.services.roster import roster_carry_over, season_open
from members.services.roster_import import RosterLine, roster_import
from ncpc.core.errors import NcpcError
from tests.factories import MembershipFactory, OfficerTermFactory
from tests.finance.factories import pay
from tests.members.test_closed_month_members import kept

pytestmark = pytest.mark.django_db

OCT_1, OCT_6 = dt.date(2027, 10, 1), dt.date(2027, 10, 6)
CLOSED = [dt.date(2027, 7, 1), dt.date(2027, 8, 1), dt.date(2027, 9, 1)]
# The bylaws' schedule puts event 1 on the 4th Saturday of August: Aug 28, 2027.
FIRST_EVENT_CLOSED = (
    "Nothing was created: the first event of 2027-28 would be on Aug 28, 2027. August 2027 is closed (its report "
    "was presented): nothing can be dated in it any more. Date it in the first open month, October 2027, or "
    "later. Choose the month of its first event (and the day the events fall on) so that every event is in an "
    "open month."
)
NOTICE = (
    "Season 2027-28: the seats carry over on Oct 1, 2027, not Aug 1, since the months up to September 2027 are "
    "closed (each continuing member owes the season's dues as always). Its first event must be in October 2027 "
    "or later."
)
# One event a month on the 4th Saturday from October: Oct 23, Nov 27, Dec 25, Jan 22, Feb 26, …
OCTOBER_ON = {"first_month": 10, "nth": 4}
EVENT_DATES = [
    dt.date(2027, 10, 23),
    dt.date(2027, 11, 27),
    dt.date(2027, 12, 25),
    dt.date(2028, 1, 22),
    dt.date(2028, 2, 26),
    dt.date(2028, 3, 25),
    dt.date(2028, 4, 22),
    dt.date(2028, 5, 27),
    dt.date(2028, 6, 24),
    dt.date(2028, 7, 22),
]


@pytest.fixture
def september_closed(season, treasurer, vice_president, today):
    ann = MembershipFactory(season=season, person__first_name="Ann", person__last_name="Able")
    bob = MembershipFactory(season=season, person__first_name="Bob", person__last_name="Baker")
    OfficerTermFactory(
        person=vice_president.person,
        office=OfficerTerm.Office.VICE_PRESIDENT,
        start=dt.date(2027, 6, 1),
        end=dt.date(2028, 5, 31),
    )
    with time_machine.travel(dt.datetime(2027, 10, 6, 17, 0, tzinfo=dt.UTC), tick=False):
        pay(membership=ann, day="2027-07-10", amount="110.00", actor=treasurer)
        for month in CLOSED:
            month_close(day=month, actor=treasurer)
        yield {"ann": ann, "bob": bob, "season": season}


def recomputed(month: dt.date) -> dict:
    return report_record(month_report_complete(year=month.year, month=month.month, today=OCT_6))


# What a month's report says about money and members (the whole record, the season it names with it:
# test_the_closed_reports_made_again_are_exactly_the_kept_ones).
MONEY_AND_MEMBERS = (
    "accounts",
    "members",
    "charged",
    "paid",
    "late_fees",
    "outstanding",
    "escrow_balance",
    "wsop_posted_on",
    "corrections",
    "payouts",
    "ledger",
)


def assert_closed_money_and_members_unchanged(before: dict[dt.date, dict]) -> None:
    """The kept reports are as they were; made again from today's data, their accounts, members' fees, escrow,
    payouts and ledger are what was kept."""
    assert kept() == before
    for month, record in before.items():
        now = recomputed(month)
        assert {k: now[k] for k in MONEY_AND_MEMBERS} == {k: record[k] for k in MONEY_AND_MEMBERS}, month


# --- when the seats take effect ---------------------------------------------------------------------------


def test_with_no_month_closed_a_season_takes_effect_on_its_first_day(db):
    opening = season_opening(start_year=2027)
    assert (opening.seats_on, opening.closed_until, opening.moved, opening.notice) == (
        dt.date(2027, 8, 1),
        None,
        False,
        "",
    )


def test_with_august_and_september_closed_the_season_takes_effect_on_october_1(september_closed):
    opening = season_opening(start_year=2027)
    assert (opening.seats_on, opening.closed_until, opening.moved) == (OCT_1, dt.date(2027, 9, 1), True)
    assert opening.notice == NOTICE
    # The season after is not touched by this year's closed months.
    assert season_opening(start_year=2028).seats_on == dt.date(2028, 8, 1)


def test_a_season_whose_every_month_is_closed_cannot_be_opened(db, monkeypatch):
    """Every month up to Jul 2028 closed (the answer stands in for finance's): nothing of 2027-28 can be dated."""

    def refusal(*, day):
        return "closed" if day <= dt.date(2028, 7, 31) else None

    monkeypatch.setattr(hooks.closed_month_refusal, "answer", refusal)
    opening = season_opening(start_year=2027)
    assert (opening.seats_on, opening.closed_until) == (None, dt.date(2028, 7, 1))
    assert opening.notice == (
        "Every month of 2027-28 is closed (the books are closed up to July 2028): it cannot be opened."
    )


# --- season_open -------------------------------------------------------------------------------------------


def test_a_schedule_whose_first_event_is_in_a_closed_month_creates_nothing(september_closed, treasurer):
    before = kept()
    with pytest.raises(NcpcError) as refused:
        season_open(start_year=2027, actor=treasurer)
    assert str(refused.value) == FIRST_EVENT_CLOSED
    assert refused.value.field == "first_month"
    assert not Season.objects.filter(name="2027-28").exists()
    assert not Membership.objects.filter(season__name="2027-28").exists()
    assert kept() == before


def test_season_create_alone_refuses_an_event_in_a_closed_month(september_closed):
    with pytest.raises(NcpcError) as refused:
        season_create(start_year=2027, first_month=9, nth=4)  # Sep 25, 2027: September is closed
    assert str(refused.value) == (
        "Nothing was created: the first event of 2027-28 would be on Sep 25, 2027. September 2027 is closed (its "
        "report was presented): nothing can be dated in it any more. Date it in the first open month, October "
        "2027, or later. Choose the month of its first event (and the day the events fall on) so that every "
        "event is in an open month."
    )
    assert not Season.objects.filter(name="2027-28").exists()


def test_a_season_file_restoring_history_of_record_keeps_its_events_in_the_closed_months(september_closed):
    """A season file (``season_create`` given its rules) writes history of record, which a closed month takes
    (as its payments, ``transaction_post(restoring=True)``): its events stay on their days."""
    season = season_create(start_year=2027, rules=BYLAWS_RULES)
    assert season.events.get(number=1).date == dt.date(2027, 8, 28)


def test_the_season_opens_with_its_seats_on_october_1_and_its_events_from_october(
    september_closed, treasurer
):
    before = kept()
    season, carried = season_open(start_year=2027, actor=treasurer, **OCTOBER_ON)
    assert (season.start, season.end) == (dt.date(2027, 8, 1), dt.date(2028, 7, 31))  # the fiscal year (§1.2)
    assert sorted(m.person.first_name for m in carried) == sorted(
        Membership.objects.filter(season=september_closed["season"]).values_list(
            "person__first_name", flat=True
        )
    )
    assert len(carried) == 4
    assert {(m.joined_on, m.first_event) for m in carried} == {(OCT_1, 1)}
    assert list(Event.objects.filter(season=season).order_by("number").values_list("date", flat=True)) == (
        EVENT_DATES
    )
    assert_closed_money_and_members_unchanged(before)


def test_a_continuing_member_owes_the_seasons_dues_as_always(september_closed, treasurer):
    """The bylaws' dues schedule: $110 at event 1, $100 at events 2 to 5, charged on the events' days; the
    WSOP member count is everyone holding a seat at event 1 (§6)."""
    season, carried = season_open(start_year=2027, actor=treasurer, **OCTOBER_ON)
    bob = next(m for m in carried if m.person.first_name == "Bob")
    account = dues_account(membership=bob)
    assert [(c.date, c.amount) for c in account.charges if c.kind == "dues"] == [
        (EVENT_DATES[0], Decimal("110.00")),
        (EVENT_DATES[1], Decimal("100.00")),
        (EVENT_DATES[2], Decimal("100.00")),
        (EVENT_DATES[3], Decimal("100.00")),
        (EVENT_DATES[4], Decimal("100.00")),
    ]
    assert amount_owed(membership=bob, on=EVENT_DATES[0]) == Decimal("110.00")
    assert season_member_count(season=season) == 4


def test_octobers_report_lists_the_carried_seats_with_their_first_installment(september_closed, treasurer):
    """October is the seats' first month in the books: each owes event 1's $110 (Oct 23), nothing paid yet in
    2027-28 (Ann's $110 of Jul 10 was 2026-27's), no late fee before the December event (§2.10)."""
    season, carried = season_open(start_year=2027, actor=treasurer, **OCTOBER_ON)
    october = month_report_complete(year=2027, month=10, today=dt.date(2027, 11, 1))  # the whole month
    assert october.season == season
    rows = {r.membership.pk: (r.charged, r.paid, r.late_fees) for r in october.members}
    assert rows == {m.pk: (Decimal("110.00"), Decimal("0.00"), Decimal("0.00")) for m in carried}


def test_the_closed_reports_made_again_are_exactly_the_kept_ones(september_closed, treasurer):
    before = kept()
    season_open(start_year=2027, actor=treasurer, **OCTOBER_ON)
    for month, record in before.items():
        assert recomputed(month) == {k: v for k, v in record.items() if k != "closed_by"}, month


def test_seats_carried_into_a_season_made_alone_take_effect_on_october_1(september_closed, treasurer):
    new = season_create(start_year=2027, **OCTOBER_ON)
    carried = roster_carry_over(season=new, actor=treasurer)
    assert {m.joined_on for m in carried} == {OCT_1}
    assert len(carried) == 4


def test_an_imported_members_spreadsheet_takes_effect_on_october_1(september_closed, treasurer):
    before = kept()
    new = season_create(start_year=2027, **OCTOBER_ON)
    seats = roster_import(
        season=new,
        lines=[
            RosterLine(
                key="dan",
                first_name="Dan",
                last_name="Dunn",
                date_of_birth=dt.date(1980, 5, 1),
                first_event=1,
            )
        ],
        actor=treasurer,
        source="a members spreadsheet",
    )
    assert [(s.person.first_name, s.joined_on, s.first_event) for s in seats] == [("Dan", OCT_1, 1)]
    assert_closed_money_and_members_unchanged(before)


def _line(key: str, first_event: int) -> RosterLine:
    return RosterLine(
        key=key,
        first_name=key.title(),
        last_name="Dunn",
        date_of_birth=dt.date(1980, 5, 1),
        first_event=first_event,
    )


def test_an_imported_member_who_joined_at_a_later_event_takes_effect_on_that_events_date(
    september_closed, treasurer
):
    """Event 3 of the season scheduled from October is on Dec 25, 2027: the seat of a member who joined at it is
    not in October's and November's reports; a member from event 1 takes effect on Oct 1, the first open day."""
    new = season_create(start_year=2027, **OCTOBER_ON)
    seats = roster_import(
        season=new, lines=[_line("dan", 1), _line("eve", 3)], actor=treasurer, source="a members spreadsheet"
    )
    assert [(s.person.key, s.first_event, s.joined_on) for s in seats] == [
        ("dan", 1, OCT_1),
        ("eve", 3, dt.date(2027, 12, 25)),
    ]
    november = month_report_complete(year=2027, month=11, today=dt.date(2027, 12, 1))
    assert sorted(r.membership.person.key for r in november.members if r.membership.season == new) == ["dan"]


def test_an_imported_member_whose_first_event_fell_in_a_closed_month_takes_effect_on_the_first_open_day(
    september_closed, treasurer
):
    """A season file's season keeps the bylaws' schedule: event 2 on Sep 25, 2027, in closed September; the seat
    takes effect on Oct 1, the first open day, never inside the closed month."""
    new = season_create(start_year=2027, rules=BYLAWS_RULES)
    assert Event.objects.get(season=new, number=2).date == dt.date(2027, 9, 25)
    seats = roster_import(
        season=new, lines=[_line("eve", 2)], actor=treasurer, source="a members spreadsheet"
    )
    assert [(s.first_event, s.joined_on) for s in seats] == [(2, OCT_1)]


def test_with_nothing_closed_an_imported_member_from_event_2_takes_effect_on_its_date(season, treasurer):
    """The bylaws' schedule: one event a month on the 4th Saturday from August; event 2 of 2027-28 is on
    Sep 25, 2027."""
    new = season_create(start_year=2027)
    seats = roster_import(
        season=new, lines=[_line("dan", 1), _line("eve", 2)], actor=treasurer, source="a members spreadsheet"
    )
    assert [(s.first_event, s.joined_on) for s in seats] == [
        (1, dt.date(2027, 8, 1)),
        (2, dt.date(2027, 9, 25)),
    ]


def test_with_nothing_closed_the_seats_carry_over_on_august_1(season, member, treasurer):
    new, carried = season_open(start_year=2027, actor=treasurer)
    assert {m.joined_on for m in carried} == {dt.date(2027, 8, 1)}


# --- the new-season form ------------------------------------------------------------------------------------


def test_the_new_season_form_says_when_the_seats_carry_over_before_anything_is_created(
    client, september_closed, vice_president
):
    client.force_login(vice_president)
    response = client.get(reverse("events:rules", kwargs={"season": "2026-27"}))
    assert response.status_code == 200
    assert response.context["opening"].notice == NOTICE
    assert NOTICE.replace("'", "&#x27;") in response.content.decode()
    # The form offers October, the first open month, for the first event.
    assert response.context["create_form"].initial["first_month"] == 10


def test_the_new_season_form_refuses_a_first_event_in_a_closed_month_by_name(
    client, september_closed, vice_president
):
    client.force_login(vice_president)
    response = client.post(reverse("season_new"), {"start_year": 2027, "first_month": 8}, follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [FIRST_EVENT_CLOSED]
    assert not Season.objects.filter(name="2027-28").exists()


def test_the_new_season_form_opens_the_season_from_october(client, september_closed, vice_president):
    client.force_login(vice_president)
    response = client.post(reverse("season_new"), {"start_year": 2027, **OCTOBER_ON}, follow=True)
    assert response.status_code == 200
    assert [str(m) for m in response.context["messages"]] == [
        "Created season 2027-28 with its 10 events and the rules of the season before; 4 members keep their "
        "seats (each signs the new rules document before playing), from Oct 1, 2027 in the books since the "
        "months before it are closed (their dues are the season's, as always)."
    ]
    assert set(Membership.objects.filter(season__name="2027-28").values_list("joined_on", flat=True)) == {
        OCT_1
    }


def test_the_new_season_form_offers_the_first_open_month_when_the_first_event_month_is_closed():
    # Season 2027-28 begins Aug 1, 2027; August and September closed: its seats take effect Oct 1, 2027.
    moved = SeasonOpening(
        name="2027-28", start=dt.date(2027, 8, 1), seats_on=OCT_1, closed_until=dt.date(2027, 9, 1)
    )
    on_time = SeasonOpening(
        name="2027-28", start=dt.date(2027, 8, 1), seats_on=dt.date(2027, 8, 1), closed_until=None
    )
    september = [(9, 4)]
    assert season_first_month_offered(schedule=september, start_year=2027, opening=moved) == 10
    assert season_first_month_offered(schedule=september, start_year=2027, opening=on_time) == 9
    assert season_first_month_offered(schedule=september, start_year=2027, opening=None) == 9
    # A first event later than the seats' day (November; March of 2028) stays as it was.
    assert season_first_month_offered(schedule=[(11, 4)], start_year=2027, opening=moved) == 11
    assert season_first_month_offered(schedule=[(3, 4)], start_year=2027, opening=moved) == 3
    # No schedule: the fiscal year's first month (§1.2: August), or the first open one.
    assert season_first_month_offered(schedule=[], start_year=2027, opening=None) == 8
    assert season_first_month_offered(schedule=[], start_year=2027, opening=moved) == 10
