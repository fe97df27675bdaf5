"""Import handmade seasons and check the exported report against the bylaws' numbers (SPEC §13)."""

import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from events.models import Season
from finance.models import Payment
from members.models import Membership, Person
from ncpc.club.services.season_file import SeasonFileError
from ncpc.club.services.season_import import season_import
from ncpc.club.services.season_report import season_report
from tests.ncpc.season_files import changed, season_file

pytestmark = pytest.mark.django_db

END = dt.date(2027, 7, 31)


def report(data, as_of=END):
    season = season_import(data=data)
    return season_report(season=season, as_of=as_of)


def drop_from_event(d, number: int, key: str, status: str) -> None:
    """Give ``key`` a status instead of a place at event ``number`` and close the gap in the places."""
    results = d["events"][number - 1]["results"]
    for row in results:
        if row["member"] == key:
            row.pop("place")
            row["status"] = status
    placed = sorted((r for r in results if "place" in r), key=lambda r: r["place"])
    for place, row in enumerate(placed, start=1):
        row["place"] = place


def test_ten_members_one_seat_and_the_ten_member_payouts():
    out = report(season_file(10, rotate=False))
    assert out["format"] == "ncpc-season-report/1"
    assert out["member_count"] == 10
    # m01 wins all ten events: 10 × 10 points; m02 10 × 9, …
    assert [(s["member"], s["rank"], s["points"]) for s in out["standings"][:3]] == [
        ("m01", 1, 100),
        ("m02", 2, 90),
        ("m03", 3, 80),
    ]
    assert [s["wsop"] for s in out["standings"][:2]] == ["qualified", "none"]
    assert out["events"][0]["payouts"] == [
        {"place": 1, "member": "m01", "paid_to": "member", "amount": "140.00"},
        {"place": 2, "member": "m02", "paid_to": "member", "amount": "85.00"},
        {"place": 3, "member": "m03", "paid_to": "member", "amount": "55.00"},
    ]
    assert out["events"][0]["points"]["m10"] == 1
    assert out["wsop"] == {
        "prizes": 1,
        "entry": "1500.00",
        "expenses": "700.00",
        "escrow": "2200.00",
        "monthly_event_funds": "2800.00",
        "per_event": "280.00",
        "qualifiers": ["m01"],
        "undecided": [],
    }
    assert out["dues"][0] == {
        "member": "m01",
        "charged": "510.00",
        "paid": "510.00",
        "late_fees": "0.00",
        "balance": "0.00",
        "good_standing": True,
    }


def test_fifteen_members_two_seats():
    out = report(season_file(15, rotate=False))
    assert out["wsop"]["prizes"] == 2
    assert out["wsop"]["escrow"] == "4400.00"
    assert out["wsop"]["per_event"] == "310.00"
    assert out["wsop"]["qualifiers"] == ["m01", "m02"]
    assert [p["amount"] for p in out["events"][0]["payouts"]] == ["155.00", "90.00", "65.00"]


def test_equal_points_across_the_cut_off_leave_the_seat_undecided_until_a_tie_break():
    # Rotating finishes: every one of 10 members takes each place once, so all have 55 points.
    out = report(season_file(10, rotate=True))
    assert {s["points"] for s in out["standings"]} == {55}
    assert {s["rank"] for s in out["standings"]} == {1}
    assert out["wsop"]["qualifiers"] == []
    assert len(out["wsop"]["undecided"]) == 10


def test_a_recorded_tie_break_decides_the_seat():
    data = season_file(10, rotate=True)
    keys = [f"m{i:02d}" for i in range(1, 11)]
    data["tie_breaks"] = [
        {"members": keys, "order": ["m07", *[k for k in keys if k != "m07"]], "how": "heads-up playoff"}
    ]
    out = report(data)
    assert out["wsop"]["qualifiers"] == ["m07"]
    assert out["standings"][0] == {
        "member": "m07",
        "rank": 1,
        "points": 55,
        "events_played": 10,
        "wsop": "qualified",
    }


def test_eighteen_members_three_seats_a_decline_and_the_winnings_split():
    data = season_file(18, rotate=False)
    data["wsop_declined"] = ["m02"]
    data["wsop_results"] = [{"member": "m04", "gross": "3600.00", "tips": "50.00"}]
    out = report(data)
    assert out["wsop"]["prizes"] == 3
    assert out["wsop"]["per_event"] == "240.00"
    assert [p["amount"] for p in out["events"][0]["payouts"]] == ["120.00", "70.00", "50.00"]
    statuses = {s["member"]: s["wsop"] for s in out["standings"]}
    assert (statuses["m01"], statuses["m02"], statuses["m03"], statuses["m04"]) == (
        "qualified",
        "declined",
        "qualified",
        "replacement",
    )
    assert out["wsop"]["qualifiers"] == ["m01", "m03", "m04"]
    (split,) = out["wsop_distributions"]
    # Net 3,550: 40% = 1,420.00 shared; 3% of net (106.50) to m02, who declined; the other 1,313.50 equally
    # among the 16 other members: 82.09 each (82.09375 floored), 16 × 82.09 = 1,313.44; the 0.06 left over
    # goes to the representative: 2,130.00 + 0.06.
    assert split["net"] == "3550.00"
    assert split["shares"]["m02"] == "106.50"
    assert split["shares"]["m01"] == "82.09"
    assert len(split["shares"]) == 17
    assert split["representative"] == "2130.06"


def test_twenty_members_with_a_late_joiner_and_winnings_under_the_threshold():
    def late(d):
        d["members"][19]["first_event"] = 4
        d["payments"][19] = {"member": "m20", "date": "2026-11-14", "amount": "350.00", "method": "cash"}
        for number in (1, 2, 3):
            d["events"][number - 1]["results"] = [
                r for r in d["events"][number - 1]["results"] if r["member"] != "m20"
            ]
        d["wsop_results"] = [{"member": "m01", "gross": "2200.00", "tips": "100.00"}]

    out = report(changed(season_file(20, rotate=False), late))
    # 19 members at the first event: three seats and the 19-member payout row until m20 joins.
    assert out["member_count"] == 19
    assert out["wsop"]["prizes"] == 3
    assert out["wsop"]["per_event"] == "290.00"
    assert [p["amount"] for p in out["events"][0]["payouts"]] == ["145.00", "85.00", "60.00"]
    assert [p["amount"] for p in out["events"][3]["payouts"]] == ["135.00", "85.00", "70.00", "50.00"]
    m20 = next(row for row in out["dues"] if row["member"] == "m20")
    # Joining at event 4: no admin fee, dues for events 4–10 (7 × $50).
    assert (m20["charged"], m20["balance"]) == ("350.00", "0.00")
    assert next(s for s in out["standings"] if s["member"] == "m20")["wsop"] == "ineligible"
    (split,) = out["wsop_distributions"]
    # Gross $2,200 does not exceed the $2,200 threshold: the representative keeps all of net.
    assert (split["net"], split["representative"], split["shares"]) == ("2100.00", "2100.00", {})


def test_a_late_payer_pays_a_late_fee_and_cannot_play_while_behind():
    def late_payer(d):
        d["payments"][4] = {"member": "m05", "date": "2026-08-01", "amount": "410.00", "method": "check"}
        d["payments"].append({"member": "m05", "date": "2027-01-10", "amount": "125.00", "method": "cash"})
        drop_from_event(d, 5, "m05", "not_in_good_standing")

    out = report(changed(season_file(10, rotate=False), late_payer))
    m05 = next(row for row in out["dues"] if row["member"] == "m05")
    # $510 due by the December event (Dec 12) with $410 paid: one $25 late fee; paid up on Jan 10.
    assert m05 == {
        "member": "m05",
        "charged": "535.00",
        "paid": "535.00",
        "late_fees": "25.00",
        "balance": "0.00",
        "good_standing": True,
    }
    assert "m05" not in out["events"][4]["points"]
    assert out["events"][4]["points"]["m06"] == 6  # moved up to 5th


def test_a_placed_member_who_was_behind_on_dues_is_an_error_and_nothing_is_written():
    data = changed(
        season_file(10),
        lambda d: d["payments"].__setitem__(
            4, {"member": "m05", "date": "2026-08-01", "amount": "410.00", "method": "check"}
        ),
    )
    with pytest.raises(SeasonFileError) as exc:
        season_import(data=data)
    assert any(
        p.startswith("events[4].results[")
        and "'m05' has a place but was not in good standing on 2026-12-12" in p
        for p in exc.value.problems
    )
    assert not Season.objects.exists()
    assert not Person.objects.exists()
    assert not Payment.objects.exists()


def test_a_season_that_exists_is_refused_unless_replaced():
    season_import(data=season_file(10, rotate=False))
    with pytest.raises(SeasonFileError, match="exists already"):
        season_import(data=season_file(12, rotate=False))
    season = season_import(data=season_file(12, rotate=False), replace=True)
    assert Membership.objects.filter(season=season).count() == 12
    assert season_report(season=season, as_of=END)["member_count"] == 12


def test_member_keys_name_the_same_person_across_seasons():
    season_import(data=season_file(10, rotate=False))
    next_year = season_file(10, rotate=False)
    next_year["season"] = {"name": "2027-28", "start": "2027-08-01"}
    for event in next_year["events"]:
        event["date"] = event["date"].replace("2027-", "2028-").replace("2026-", "2027-")
    for payment in next_year["payments"]:
        payment["date"] = "2027-08-01"
    season_import(data=next_year)
    assert Person.objects.count() == 10
    assert Person.objects.get(key="m01").memberships.count() == 2


def _owes_one_late_fee(d):
    """m05 pays $410 in August and $100 on Jan 10: $100 of dues unpaid on the December event (Dec 12) brings
    one $25 late fee (§2.10), still unpaid at the season's end, so m05 plays no more after November."""
    d["payments"][4] = {"member": "m05", "date": "2026-08-01", "amount": "410.00", "method": "check"}
    d["payments"].append({"member": "m05", "date": "2027-01-10", "amount": "100.00", "method": "cash"})
    for number in range(5, 11):
        drop_from_event(d, number, "m05", "not_in_good_standing")


def test_spec_15_1_dues_charged_includes_late_fees_as_in_the_spec_13_example():
    out = report(changed(season_file(10, rotate=False), _owes_one_late_fee))
    m05 = next(row for row in out["dues"] if row["member"] == "m05")
    # $510 dues and admin fee + one $25 late fee = $535 charged; $510 paid; $25 owed (SPEC §13's example row).
    assert m05 == {
        "member": "m05",
        "charged": "535.00",
        "paid": "510.00",
        "late_fees": "25.00",
        "balance": "25.00",
        "good_standing": False,
    }


def test_round_trip_through_a_season_file_gives_an_identical_report(monkeypatch):
    data = changed(season_file(18, rotate=False), _owes_one_late_fee)
    data["wsop_declined"] = ["m02"]
    data["wsop_results"] = [{"member": "m04", "gross": "3600.00", "tips": "50.00"}]
    first = report(data)
    assert next(row for row in first["dues"] if row["member"] == "m05")["charged"] == "535.00"
    out = io.StringIO()
    call_command("export_season", "2026-27", "--format", "season-file", stdout=out)
    exported = json.loads(out.getvalue())
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(exported)))
    call_command("import_season", "-", "--replace")
    season = Season.objects.get(name="2026-27")
    assert season_report(season=season, as_of=END) == first


def test_the_command_prints_every_problem_without_a_traceback(tmp_path):
    bad = changed(season_file(10), lambda d: d["events"][3]["results"][5].update(place=4))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as exc:
        call_command("import_season", str(path))
    assert "Nothing was imported" in str(exc.value)
    assert "events[3].results[5].place: place 4 given twice" in str(exc.value)
    assert not Season.objects.exists()


def test_a_file_that_is_not_json_is_a_clear_error(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(CommandError, match="is not valid JSON"):
        call_command("import_season", str(path))


def test_export_of_an_unknown_season_is_a_clear_error():
    with pytest.raises(CommandError, match="No season named '1999-00'"):
        call_command("export_season", "1999-00")


BAD_FILES = {
    "wrong format": lambda d: d.update(format="ncpc-season/0"),
    "place twice": lambda d: d["events"][3]["results"][5].update(place=4),
    "unknown member": lambda d: d["events"][2]["results"][0].update(member="zed"),
    "bad date": lambda d: d["events"][0].update(date="2026-02-30"),
    "bad money": lambda d: d["payments"][0].update(amount="12,50"),
    "under age": lambda d: d["members"][0].update(date_of_birth="2006-01-01"),
    "too many members": lambda d: d["members"].extend(
        {"key": f"x{i}", "first_name": "X", "last_name": "Y", "date_of_birth": "1980-01-01"}
        for i in range(11)
    ),
    "fourth substitute": lambda d: [
        next(r for r in d["events"][i]["results"] if r["member"] == "m01").update(substitute="Carl Guest")
        for i in range(4)
    ],
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_each_kind_of_bad_file_is_refused_and_leaves_the_database_unchanged(kind):
    from django.apps import apps

    before = {m._meta.label: m.objects.count() for m in apps.get_models()}
    with pytest.raises(SeasonFileError):
        season_import(data=changed(season_file(10), BAD_FILES[kind]))
    after = {m._meta.label: m.objects.count() for m in apps.get_models()}
    assert after == before


def test_spec_15_3_declines_in_a_file_are_applied_in_rank_order():
    # Three seats; m02 declines and m04 replaces them; m04 declines too and m05 goes. The file lists m04 first.
    data = season_file(18, rotate=False)
    data["wsop_declined"] = ["m04", "m02"]
    out = report(data)
    statuses = {s["member"]: s["wsop"] for s in out["standings"]}
    assert [statuses[k] for k in ("m01", "m02", "m03", "m04", "m05", "m06")] == [
        "qualified",
        "declined",
        "qualified",
        "declined",
        "replacement",
        "none",
    ]
    assert out["wsop"]["qualifiers"] == ["m01", "m03", "m05"]
