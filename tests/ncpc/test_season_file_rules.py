"""Season files carry the season's rules (SPEC §16.9): the optional ``rules`` object goes out with the season
and comes back, a file without it gets the rules it got before, and a bad one is refused whole."""

import datetime as dt
import io
import json
from decimal import Decimal as D

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.bylaws import BYLAWS_RULES
from events.models import Season
from events.rules import BlindLevelData, PayoutRowData, WsopRowData
from events.selectors import season_rules
from events.services.rules_edit import season_rules_save
from events.services.seasons import season_create
from members.models import Person
from ncpc.club.services.season_export import season_file_export
from ncpc.club.services.season_file import SeasonFileError
from ncpc.club.services.season_import import season_import, season_purge
from ncpc.club.services.season_report import season_report
from ncpc.core.errors import NcpcError, RulesError
from tests.ncpc.season_files import changed, season_file

pytestmark = pytest.mark.django_db

END = dt.date(2027, 7, 31)

# The club's own rules, as its officers set them on the rules page: nothing here is a bylaws number.
CLUB_BLINDS = (
    BlindLevelData("level", 100, 200, 0, 20),
    BlindLevelData("level", 200, 400, 0, 20),
    BlindLevelData("break", minutes=10, note="Colour up the 100s"),
    BlindLevelData("level", 300, 600, 50, None),
)
CLUB_CHANGES = {
    "points_table": [25, 18, 15, 12, 10],
    "dues_per_event": D("60.00"),
    "admin_fee": D("20.00"),
    "late_fee": D("40.00"),
    "wsop_expenses": D("800.00"),
    "representative_share_pct": D("70.00"),
    "event_start_time": dt.time(18, 30),
    "substitutes_per_season": 2,
    "results_email": False,
}
CLUB_TABLES = {
    # $60 × 10 events + $20 admin fee = $620.
    "dues_schedule": ((1, D("220.00")), (2, D("200.00")), (3, D("200.00"))),
    # Event fund for n members: (n × $600 − one WSOP seat of $1,500 + $800) / 10 events.
    "payout_table": (
        PayoutRowData(10, (D("200.00"), D("105.00"), D("65.00"))),  # $370
        PayoutRowData(11, (D("230.00"), D("125.00"), D("75.00"))),  # $430
        PayoutRowData(12, (D("220.00"), D("130.00"), D("90.00"), D("50.00"))),  # $490
    ),
    "wsop_table": (WsopRowData(10, 12, 1), WsopRowData(13, 20, 2)),
    "blind_structure": CLUB_BLINDS,
}


def club_season_file() -> dict:
    """Ten members pay the club's $620; m05 pays $520 in August and the rest with one $40 late fee in January,
    so is not in good standing at events 3–5 (the third installment is due on Oct 24)."""

    def club(d):
        for payment in d["payments"]:
            payment["amount"] = "620.00"
        d["payments"][4]["amount"] = "520.00"
        d["payments"].append({"member": "m05", "date": "2027-01-10", "amount": "140.00", "method": "cash"})
        for number in (3, 4, 5):
            results = d["events"][number - 1]["results"]
            for row in results:
                if row["member"] == "m05":
                    row.pop("place")
                    row["status"] = "not_in_good_standing"
            for place, row in enumerate(
                sorted((r for r in results if "place" in r), key=lambda r: r["place"]), 1
            ):
                row["place"] = place

    return changed(season_file(10, rotate=False), club)


def _rows() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def _the_club_season():
    """The season as the club runs it: created, its rules changed by the officers, its year imported."""
    president = get_user_model().objects.create(username="pres")
    season = season_create(start_year=2026, actor=president)
    season_rules_save(
        season=season,
        changes=CLUB_CHANGES,
        tables=CLUB_TABLES,
        actor=president,
        reason="General meeting, July 2026",
    )
    return season_import(data=club_season_file(), replace=True)


# Emptied with flush (TRUNCATE): on PostgreSQL not inside the test's transaction, whose deferred checks are pending.
@pytest.mark.django_db(transaction=True)
def test_a_season_with_the_clubs_own_rules_comes_back_from_its_file_into_an_empty_database(monkeypatch):
    season = _the_club_season()
    before = season_report(season=season, as_of=END)
    # The club's rules are the ones that computed the report.
    assert [s["points"] for s in before["standings"][:3]] == [250, 180, 150]
    assert before["events"][0]["points"] == {
        "m01": 25,
        "m02": 18,
        "m03": 15,
        "m04": 12,
        "m05": 10,
        **{f"m{i:02d}": 0 for i in range(6, 11)},  # places beyond the table score 0
    }
    assert before["events"][0]["payouts"] == [
        {"place": 1, "member": "m01", "paid_to": "member", "amount": "200.00"},
        {"place": 2, "member": "m02", "paid_to": "member", "amount": "105.00"},
        {"place": 3, "member": "m03", "paid_to": "member", "amount": "65.00"},
    ]
    assert (before["wsop"]["expenses"], before["wsop"]["escrow"], before["wsop"]["per_event"]) == (
        "800.00",
        "2300.00",
        "370.00",
    )
    m05 = next(row for row in before["dues"] if row["member"] == "m05")
    assert (m05["charged"], m05["paid"], m05["late_fees"], m05["balance"]) == (
        "660.00",
        "660.00",
        "40.00",
        "0.00",
    )

    out = io.StringIO()
    call_command("export_season", "2026-27", "--format", "season-file", stdout=out)
    exported = json.loads(out.getvalue())
    rules = exported["rules"]
    assert exported["format"] == "ncpc-season/1"
    assert (rules["points_table"], rules["late_fee"], rules["dues_per_event"], rules["admin_fee"]) == (
        [25, 18, 15, 12, 10],
        "40.00",
        "60.00",
        "20.00",
    )
    assert (rules["representative_share_pct"], rules["event_start_time"], rules["results_email"]) == (
        "70.00",
        "18:30",
        False,
    )
    assert rules["dues_schedule"] == [
        {"event_number": 1, "amount": "220.00"},
        {"event_number": 2, "amount": "200.00"},
        {"event_number": 3, "amount": "200.00"},
    ]
    assert rules["payout_table"][2] == {"member_count": 12, "amounts": ["220.00", "130.00", "90.00", "50.00"]}
    assert rules["wsop_table"] == [
        {"min_members": 10, "max_members": 12, "prizes": 1},
        {"min_members": 13, "max_members": 20, "prizes": 2},
    ]
    assert rules["blind_structure"][2] == {
        "kind": "break",
        "small_blind": 0,
        "big_blind": 0,
        "ante": 0,
        "minutes": 10,
        "note": "Colour up the 100s",
    }
    assert rules["blind_structure"][3]["minutes"] is None

    call_command("flush", interactive=False, verbosity=0)
    assert not Season.objects.exists() and not Person.objects.exists()
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(exported)))
    call_command("import_season", "-", stdout=io.StringIO())
    season = Season.objects.get(name="2026-27")

    assert season_report(season=season, as_of=END) == before
    back = season_rules(season)
    assert back.points_table == (25, 18, 15, 12, 10)
    assert (back.dues_per_event, back.admin_fee, back.late_fee) == (D("60.00"), D("20.00"), D("40.00"))
    assert (back.wsop_expenses, back.representative_share_pct) == (D("800.00"), D("70.00"))
    assert (back.event_start_time, back.substitutes_per_season) == (dt.time(18, 30), 2)
    assert back.dues_schedule == CLUB_TABLES["dues_schedule"]
    assert back.payout_table == CLUB_TABLES["payout_table"]
    assert back.wsop_table == CLUB_TABLES["wsop_table"]
    assert back.blind_structure == CLUB_BLINDS
    assert season.results_email is False
    # Everything else as it was: the bylaws' values the officers did not change.
    assert (back.max_members, back.minimum_age, back.wsop_entry) == (20, 21, D("1500.00"))
    assert season_file_export(season=season) == exported


def test_the_import_command_reads_a_files_rules(tmp_path):
    data = club_season_file()
    data["rules"] = _exported_club_rules()
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data))
    call_command("import_season", str(path), stdout=io.StringIO())
    season = Season.objects.get(name="2026-27")
    out = season_report(season=season, as_of=END)
    assert out["events"][1]["points"]["m01"] == 25
    assert [p["amount"] for p in out["events"][1]["payouts"]] == ["200.00", "105.00", "65.00"]


def _exported_club_rules() -> dict:
    """The club's rules as a handmade file writes them."""
    return {
        "points_table": [25, 18, 15, 12, 10],
        "dues_per_event": "60.00",
        "admin_fee": "20.00",
        "late_fee": "40.00",
        "wsop_expenses": "800.00",
        "dues_schedule": [
            {"event_number": 1, "amount": "220.00"},
            {"event_number": 2, "amount": "200.00"},
            {"event_number": 3, "amount": "200.00"},
        ],
        "payout_table": [
            {"member_count": 10, "amounts": ["200.00", "105.00", "65.00"]},
            {"member_count": 11, "amounts": ["230.00", "125.00", "75.00"]},
        ],
        "wsop_table": [{"min_members": 10, "max_members": 20, "prizes": 1}],
    }


def test_a_file_without_rules_gets_the_bylaws_rules_in_an_empty_database():
    season = season_import(data=season_file(10, rotate=False))
    rules = season_rules(season)
    assert rules == BYLAWS_RULES
    assert rules.points_table == (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert (rules.late_fee, rules.dues_per_event, rules.admin_fee) == (D("25.00"), D("50.00"), D("10.00"))
    assert rules.payout_table[0] == PayoutRowData(10, (D("140.00"), D("85.00"), D("55.00")))
    assert season.results_email is True


def test_rules_a_file_leaves_out_keep_the_values_the_season_would_get():
    data = club_season_file()
    data["rules"] = _exported_club_rules()
    season = season_import(data=data)
    rules = season_rules(season)
    assert rules.late_fee == D("40.00")
    assert rules.wsop_table == (WsopRowData(10, 20, 1),)
    # Not in the file: the bylaws' values.
    assert (rules.late_joiner_min_events, rules.table_size) == (7, 9)
    assert rules.blind_structure[0] == BlindLevelData("level", 25, 50, 0, 30)


BAD_RULES = {
    "points as text": (
        lambda r: r.update(points_table="25, 18, 15"),
        "rules.points_table: must be a list",
    ),
    "a prize as a number": (
        lambda r: r["payout_table"][0].update(amounts=[200, "105.00", "65.00"]),
        'rules.payout_table[0].amounts[0]: 200 must be a money string like "110.00"',
    ),
    "a negative late fee": (
        lambda r: r.update(late_fee="-5.00"),
        "rules.late_fee: -5.00 must be zero or more",
    ),
    "payouts not adding up to the event fund": (
        lambda r: r["payout_table"][0].update(amounts=["250.00", "105.00", "65.00"]),
        "rules.payout_table: Payouts for 10 members add up to $420.00, but the event fund for 10 members is "
        "$370.00.",
    ),
    "dues not adding up": (
        lambda r: r["dues_schedule"].pop(),
        "rules.dues_schedule: The dues schedule adds up to $420.00, but dues and admin fee come to $620.00.",
    ),
    "a quorum of two": (
        lambda r: r.update(check_approvals=2),
        "rules.check_approvals: Officers approving a check: Ensure this value is greater than or equal to 3.",
    ),
    "a percentage with too many digits": (
        lambda r: r.update(declined_share_pct="1000.00"),
        "rules.declined_share_pct: Declined qualifier's share (%): "
        "Ensure that there are no more than 5 digits in total.",
    ),
    "an unknown rule": (
        lambda r: r.update(late_fees="40.00"),
        "rules.late_fees: is not a season rule",
    ),
    "a payout row twice": (
        lambda r: r["payout_table"].append({"member_count": 10, "amounts": ["200.00", "105.00", "65.00"]}),
        "rules.payout_table: The Event payouts (§6.2) table has a payout row for 10 twice.",
    ),
    "rules not an object": (lambda r: r.clear() or r.update(bad=True), "rules.bad: is not a season rule"),
}


@pytest.mark.parametrize("kind", sorted(BAD_RULES))
def test_a_bad_rules_object_is_refused_naming_the_problem_and_nothing_is_written(kind):
    how, message = BAD_RULES[kind]
    data = club_season_file()
    data["rules"] = _exported_club_rules()
    how(data["rules"])
    before = _rows()
    with pytest.raises(SeasonFileError) as exc:
        season_import(data=data)
    assert message in exc.value.problems
    assert _rows() == before


def test_rules_that_are_not_an_object_are_refused_by_the_command(tmp_path):
    data = season_file(10)
    data["rules"] = ["points_table", 25]
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as exc:
        call_command("import_season", str(path))
    assert "Nothing was imported; 1 problem(s)" in str(exc.value)
    assert "rules: must be an object" in str(exc.value)
    assert not Season.objects.exists()


def test_every_problem_of_the_rules_is_listed_at_once():
    data = club_season_file()
    data["rules"] = {
        "late_fee": "-1.00",
        "points_table": ["25"],
        "event_start_time": "7pm",
        "max_members": -3,
    }
    with pytest.raises(SeasonFileError) as exc:
        season_import(data=data)
    assert exc.value.problems == [
        "rules.event_start_time: '7pm' is not a time like 19:00",
        "rules.max_members: -3 is not between 0 and 32767",
        "rules.late_fee: -1.00 must be zero or more",
        "rules.points_table[0]: '25' is not a whole number",
    ]


def test_a_season_of_no_events_is_refused_not_a_crash():
    data = club_season_file()
    data["rules"] = {**_exported_club_rules(), "events_per_season": 0}
    with pytest.raises(SeasonFileError) as exc:
        season_import(data=data)
    assert "rules.events_per_season: A season has at least one event." in exc.value.problems


def _rule_paths(data, prefix=("rules",)):
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from _rule_paths(value, (*prefix, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield (*prefix, i)
            yield from _rule_paths(value, (*prefix, i))


RULE_PATHS = sorted(_rule_paths(_exported_club_rules()), key=str)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    mutations=st.lists(
        st.tuples(
            st.sampled_from(RULE_PATHS),
            st.one_of(
                st.sampled_from(["", "-1", "1e400", "NaN", "12.345", "99999999999999.00", "7pm", "a" * 500]),
                st.none(),
                st.booleans(),
                st.integers(min_value=-(2**40), max_value=2**40),
                st.lists(st.integers(min_value=-5, max_value=40), max_size=3),
                st.just({}),
            ),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_mutated_rules_object_is_an_error_or_a_season_never_a_crash(mutations):
    data = club_season_file()
    data["rules"] = _exported_club_rules()
    for path, value in mutations:
        target = data
        try:
            for step in path[:-1]:
                target = target[step]
            target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation replaced a container on this path
    before = _rows()
    try:
        season = season_import(data=data)
    except NcpcError:
        assert _rows() == before
    else:
        season_purge(season=season)  # the next example starts from an empty club again


def test_the_rules_page_command_refuses_a_season_of_no_events_too():
    season = season_create(start_year=2026)
    with pytest.raises(RulesError, match="A season has at least one event."):
        season_rules_save(
            season=season, changes={"events_per_season": 0}, actor=None, reason="General meeting, July 2026"
        )
    assert Season.objects.get(pk=season.pk).events_per_season == 10
