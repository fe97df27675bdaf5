"""Issue 47: a season's calendar and its tables.

- A new season's first month and schedule rule are chosen on the form that creates it (a club starting in
  September on the 4th Thursday gets its events from September on, on that rule's dates).
- A new schedule rule offers to move every event not yet played, in one confirmation; played events stay.
- New dues offer the payout table and the dues schedule they imply, scaled from the season's, to accept or edit.

Dates were read off a calendar; amounts worked out by hand from the bylaws' tables (§2.8, §6.2, §8.1).
"""

import datetime as dt
from decimal import Decimal as D

import pytest

from events.bylaws import BYLAWS_RULES
from events.models import Event, Season
from events.rules import PayoutRowData
from events.selectors import season_rules
from events.services.rules_scale import dues_schedule_scaled, payout_table_scaled
from events.services.seasons import season_create
from ncpc.core.audit import AuditEntry
from ncpc.core.errors import NcpcError

pytestmark = pytest.mark.django_db


def _dates(season):
    return list(season.events.order_by("number").values_list("date", flat=True))


# --- 1. the season's first month and schedule rule, chosen when it is created -------------------------------


def test_a_season_created_from_september_on_the_4th_thursday_has_its_events_on_those_dates(
    officer_client, season
):
    response = officer_client.post(
        "/events/seasons/new/", {"start_year": "2027", "first_month": "9", "nth": "4", "weekday": "3"}
    )
    assert response.status_code == 302
    new = Season.objects.get(name="2027-28")
    # The fiscal year stays 1 Aug – 31 Jul (bylaws §1.2); ten events, one a month from September.
    assert (new.start, new.end) == (dt.date(2027, 8, 1), dt.date(2028, 7, 31))
    assert _dates(new) == [
        dt.date(2027, 9, 23),
        dt.date(2027, 10, 28),
        dt.date(2027, 11, 25),
        dt.date(2027, 12, 23),
        dt.date(2028, 1, 27),
        dt.date(2028, 2, 24),
        dt.date(2028, 3, 23),
        dt.date(2028, 4, 27),
        dt.date(2028, 5, 25),
        dt.date(2028, 6, 22),
    ]
    assert all(d.weekday() == 3 for d in _dates(new))  # Thursdays
    assert new.schedule_weekday == 3
    assert new.schedule == [[9, 4], [10, 4], [11, 4], [12, 4], [1, 4], [2, 4], [3, 4], [4, 4], [5, 4], [6, 4]]
    page = officer_client.get("/events/rules/2027-28/").content.decode()
    assert "the fourth Thursday" in page


def test_a_new_season_without_a_choice_keeps_the_bylaws_schedule(officer_client, season):
    response = officer_client.post("/events/seasons/new/", {"start_year": "2027"})
    assert response.status_code == 302
    assert _dates(Season.objects.get(name="2027-28"))[:5] == [
        dt.date(2027, 8, 28),
        dt.date(2027, 9, 25),
        dt.date(2027, 10, 23),
        dt.date(2027, 11, 13),
        dt.date(2027, 12, 11),
    ]


def test_a_first_month_the_schedule_cannot_start_in_is_refused_and_nothing_is_created(officer_client, season):
    # The bylaws' schedule starts in August: a September start needs its day of the month chosen.
    response = officer_client.post(
        "/events/seasons/new/", {"start_year": "2027", "first_month": "9"}, follow=True
    )
    assert (
        "The schedule of the season before starts in August: for events from September on, choose which day "
        "of the month they fall on (like the 4th)." in response.content.decode()
    )
    assert not Season.objects.filter(name="2027-28").exists()
    # Ten events one a month from December would run past July.
    with pytest.raises(NcpcError, match="10 events, one a month from December, run past July"):
        season_create(start_year=2027, first_month=12, nth=4)
    assert not Season.objects.filter(name="2027-28").exists()


# --- 2. a new schedule rule moves the events not yet played, in one confirmation --------------------------


def _rules_post(client, season, **changes):
    """Post the rules page back as it is shown, with some fields changed."""
    page = client.get(f"/events/rules/{season.name}/")
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data["points_table"] = ", ".join(str(p) for p in season.points_table)
    data["schedule"] = ", ".join(f"{m}/{n}" for m, n in season.schedule)
    for name, _title, formset in page.context["formsets"]:
        data[f"{name}-TOTAL_FORMS"] = formset.total_form_count()
        data[f"{name}-INITIAL_FORMS"] = formset.initial_form_count()
        for i, f in enumerate(formset.forms):
            for field in f.fields:
                value = f[field].value()
                data[f"{name}-{i}-{field}"] = "" if value is None else value
    data = {k: ("" if v is None else v) for k, v in data.items() if v is not False}
    data.update({"reason": "April vote", "confirm": "on"})
    data.update(changes)
    return client.post(f"/events/rules/{season.name}/", data)


def test_a_new_weekday_moves_the_events_not_yet_played_after_one_confirmation(officer_client, season, today):
    # Today is Nov 29, 2026: events 1-3 are final, event 4 (Nov 14) is past without results; 5-10 are to come.
    Event.objects.filter(season=season, number__lte=3).update(status=Event.Status.FINAL)
    before = _dates(season)
    response = _rules_post(
        officer_client, season, schedule_weekday="3", reason="The club now plays Thursdays"
    )
    assert response.status_code == 302
    assert response["Location"] == "/events/rules/2026-27/reschedule/"
    assert _dates(season) == before  # nothing moves without the confirmation

    page = officer_client.get("/events/rules/2026-27/reschedule/")
    moves = [m.key for m in page.context["moves"]]
    # Same months and nth days, on Thursdays: Dec 2nd, Jan 4th, Feb 2nd and 4th, Mar 4th, Apr 4th.
    assert moves == [
        "5:2026-12-12:2026-12-10",
        "6:2027-01-23:2027-01-28",
        "7:2027-02-13:2027-02-11",
        "8:2027-02-27:2027-02-25",
        "9:2027-03-27:2027-03-25",
        "10:2027-04-24:2027-04-22",
    ]
    assert [(m.number, m.stays) for m in page.context["stays"]] == [
        (n, "played already") for n in (1, 2, 3, 4)
    ]

    refused = officer_client.post("/events/rules/2026-27/reschedule/", {"move": moves, "reason": "Thursdays"})
    assert refused.status_code == 302 and _dates(season) == before  # not confirmed: nothing moved

    done = officer_client.post(
        "/events/rules/2026-27/reschedule/", {"move": moves, "reason": "Thursdays", "confirm": "on"}
    )
    assert done.status_code == 302
    assert _dates(season) == [
        *before[:4],  # played: never moved
        dt.date(2026, 12, 10),
        dt.date(2027, 1, 28),
        dt.date(2027, 2, 11),
        dt.date(2027, 2, 25),
        dt.date(2027, 3, 25),
        dt.date(2027, 4, 22),
    ]
    assert AuditEntry.objects.filter(action="event.move").count() == 6
    entry = AuditEntry.objects.get(action="season.reschedule")
    assert [m["event"] for m in entry.data["moves"]] == [5, 6, 7, 8, 9, 10]


def test_moves_confirmed_for_another_plan_move_nothing(officer_client, season, today):
    _rules_post(officer_client, season, schedule_weekday="3")
    before = _dates(season)
    officer_client.post(
        "/events/rules/2026-27/reschedule/",
        {"move": ["5:2026-12-12:2026-12-10"], "confirm": "on"},  # only one of the six moves
    )
    assert _dates(season) == before
    assert not AuditEntry.objects.filter(action="season.reschedule").exists()


def test_one_move_refused_moves_no_event_at_all(officer_client, season, today, monkeypatch):
    """Each move goes through event_move (its own checks, e.g. a closed month); one refused refuses them all."""
    from events.services import seasons

    real_move = seasons.event_move

    def move_refusing_event_8(*, event, **kwargs):
        if event.number == 8:
            raise NcpcError("February 2027 is closed.")
        return real_move(event=event, **kwargs)

    monkeypatch.setattr(seasons, "event_move", move_refusing_event_8)
    _rules_post(officer_client, season, schedule_weekday="3")
    before = _dates(season)
    moves = [m.key for m in officer_client.get("/events/rules/2026-27/reschedule/").context["moves"]]
    response = officer_client.post(
        "/events/rules/2026-27/reschedule/", {"move": moves, "confirm": "on"}, follow=True
    )
    assert "Nothing was moved: event 8 cannot move to Feb 25, 2027. February 2027 is closed." in (
        response.content.decode()
    )
    assert _dates(season) == before
    assert not AuditEntry.objects.filter(action__in=["event.move", "season.reschedule"]).exists()


# --- 3. new dues offer the payout table and dues schedule they imply ---------------------------------------

# Dues $50 -> $60 a event (WSOP $1,500 + $700 a prize, 10 events). Each row's event fund (§8.1):
# (members x $600 - prizes x $2,200) / 10, e.g. 10 members: (6,000 - 2,200) / 10 = $380 (was $280). Places 2-4
# are the bylaws' amounts x new fund / old fund, rounded to $5 as every amount of §6.2 is (halves up); the
# first place is what is left of the fund. 10 members: 85 x 380/280 = 115.36 -> 115; 55 x 380/280 = 74.64 -> 75;
# first 380 - 190 = 190. 18 members: 70 x 420/240 = 122.50 -> 125; 50 x 420/240 = 87.50 -> 90; first 205.
PAYOUTS_AT_60 = {
    10: ("190", "115", "75"),
    11: ("220", "135", "85"),
    12: ("250", "150", "100"),
    13: ("230", "135", "110", "85"),
    14: ("250", "155", "125", "90"),
    15: ("230", "135", "95"),
    16: ("215", "135", "100", "70"),
    17: ("230", "150", "115", "85"),
    18: ("205", "125", "90"),
    19: ("240", "140", "100"),
    20: ("215", "135", "110", "80"),
}
# §2.8: $110 (= $100 of dues + the $10 fee) then $100 four times: dues parts x 60/50 -> $120; the fee stays $10.
DUES_AT_60 = ((1, D("130.00")), (2, D("120.00")), (3, D("120.00")), (4, D("120.00")), (5, D("120.00")))


def test_the_scaled_tables_for_dues_of_60_dollars_are_worked_out_from_the_bylaws_tables():
    from dataclasses import replace

    new = replace(BYLAWS_RULES, dues_per_event=D("60.00"))
    assert payout_table_scaled(old=BYLAWS_RULES, new=new) == tuple(
        PayoutRowData(member_count=n, amounts=tuple(D(a) for a in amounts))
        for n, amounts in PAYOUTS_AT_60.items()
    )
    assert dues_schedule_scaled(old=BYLAWS_RULES, new=new) == DUES_AT_60


def test_dues_55_and_fee_15_give_the_11_member_row_to_10_members_and_a_125_dollar_first_installment():
    from dataclasses import replace

    # 10 members at $55: (5,500 - 2,200) / 10 = $330, the bylaws' fund for 11 members: 165 / 100 / 65 again.
    new = replace(BYLAWS_RULES, dues_per_event=D("55.00"), admin_fee=D("15.00"))
    assert payout_table_scaled(old=BYLAWS_RULES, new=new)[0] == PayoutRowData(
        10, (D("165"), D("100"), D("65"))
    )
    # Dues parts $100 x 55/50 = $110 each; the first also carries the $15 fee: 125 + 4 x 110 = 565 = 10 x 55 + 15.
    assert dues_schedule_scaled(old=BYLAWS_RULES, new=new) == (
        (1, D("125.00")),
        (2, D("110.00")),
        (3, D("110.00")),
        (4, D("110.00")),
        (5, D("110.00")),
    )


def test_changing_the_dues_on_the_rules_page_offers_the_scaled_tables_then_saves_them(officer_client, season):
    shown = _rules_post(officer_client, season, dues_per_event="60.00")
    assert shown.status_code == 200  # nothing saved yet: the tables are shown to accept or edit
    season.refresh_from_db()
    assert season.dues_per_event == D("50.00")
    assert "filled in below, scaled from the season" in shown.content.decode()
    formsets = {name: fs for name, _title, fs in shown.context["formsets"]}
    offered = {
        int(f["member_count"].value()): tuple(
            D(f[p].value()) for p in ("first", "second", "third", "fourth") if f[p].value() not in ("", None)
        )
        for f in formsets["payouts"].forms
        if f["member_count"].value() not in ("", None)
    }
    assert offered == {n: tuple(D(a) for a in row) for n, row in PAYOUTS_AT_60.items()}
    offered_dues = [
        (int(f["event_number"].value()), D(f["amount"].value()))
        for f in formsets["dues"].forms
        if f["event_number"].value() not in ("", None)
    ]
    assert offered_dues == list(DUES_AT_60)

    # Accepted as offered: the form posted back with the offered tables (and the hidden mark that they were seen).
    data = {key: value for key, value in shown.wsgi_request.POST.items()}
    for name, fs in formsets.items():
        for i, f in enumerate(fs.forms):
            for field in f.fields:
                value = f[field].value()
                data[f"{name}-{i}-{field}"] = "" if value is None or value is False else value
    data = {k: v for k, v in data.items() if v is not False}
    data["tables_for"] = shown.context["tables_for"]
    saved = officer_client.post(f"/events/rules/{season.name}/", data)
    assert saved.status_code == 302
    rules = season_rules(Season.objects.get(pk=season.pk))
    assert rules.dues_per_event == D("60.00")
    assert rules.dues_schedule == DUES_AT_60
    assert {row.member_count: row.amounts for row in rules.payout_table} == {
        n: tuple(D(a) for a in amounts) for n, amounts in PAYOUTS_AT_60.items()
    }
    assert AuditEntry.objects.filter(action="season.rules").count() == 1
