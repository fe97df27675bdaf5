import pytest

from events.bylaws import BYLAWS_RULES
from ncpc.club.services.season_file import SeasonFileError, season_file_read
from tests.ncpc.season_files import changed, season_file


def problems(data) -> list[str]:
    with pytest.raises(SeasonFileError) as exc:
        season_file_read(data=data, rules=BYLAWS_RULES)
    return exc.value.problems


def test_a_complete_season_file_reads_without_problems():
    season = season_file(16)
    read = season_file_read(data=season, rules=BYLAWS_RULES)
    assert read.name == "2026-27"
    assert len(read.members) == 16
    assert [e.number for e in read.events] == list(range(1, 11))
    assert read.events[0].results[0].member == "m01" and read.events[0].results[0].place == 1


def test_a_wrong_format_is_refused_first():
    assert problems({"format": "csv"}) == ["format: must be 'ncpc-season/1' (got 'csv')"]


def test_a_place_given_twice_names_the_row():
    data = changed(season_file(10), lambda d: d["events"][3]["results"][5].update(place=4))
    found = problems(data)
    assert "events[3].results[5].place: place 4 given twice" in found
    assert "events[3].results: places must run 1..N without gaps; missing 6" in found


def test_a_missing_place_is_a_gap():
    data = changed(season_file(10), lambda d: d["events"][0]["results"][9].update(place=11))
    assert "events[0].results: places must run 1..N without gaps; missing 10" in problems(data)


def test_an_unknown_member_is_named():
    data = changed(season_file(10), lambda d: d["events"][2]["results"][0].update(member="zed"))
    assert "events[2].results[0].member: unknown member 'zed'" in problems(data)


def test_a_member_listed_twice_in_one_event_is_refused():
    data = changed(season_file(10), lambda d: d["events"][0]["results"][1].update(member="m01"))
    assert "events[0].results[1].member: 'm01' is listed twice in this event (also results[0])" in problems(
        data
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("date", "2026-13-01", "events[0].date: '2026-13-01' is not a real date"),
        ("date", "22/08/2026", "events[0].date: '22/08/2026' is not a date like 2026-08-22"),
        ("date", "2027-08-28", "events[0].date: 2027-08-28 is outside season 2026-27"),
    ],
)
def test_bad_dates_are_named(field, value, message):
    data = changed(season_file(10), lambda d: d["events"][0].update({field: value}))
    assert message in problems(data)


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        ("110", None),
        ("-5.00", "payments[0].amount: -5.00 must be more than zero"),
        ("1.005", "payments[0].amount: '1.005' is not an amount with at most two decimals"),
        (110.0, 'payments[0].amount: 110.0 must be a money string like "110.00"'),
        ("ten", "payments[0].amount: 'ten' is not an amount of money"),
    ],
)
def test_money_must_be_a_two_decimal_string(amount, message):
    data = changed(season_file(10), lambda d: d["payments"][0].update(amount=amount))
    if message is None:
        season_file_read(data=data, rules=BYLAWS_RULES)
    else:
        assert message in problems(data)


def test_more_members_than_the_season_allows_is_refused():
    assert "members: 21 members hold a seat at event 1; the club allows 20" in problems(season_file(21))


def test_a_member_under_the_minimum_age_is_refused():
    data = changed(season_file(10), lambda d: d["members"][4].update(date_of_birth="2005-09-01"))
    assert "members[4].date_of_birth: 'm05' is under 21 on 2026-08-22" in problems(data)


def test_a_fourth_substitute_is_refused():
    def subs(d):
        for i in range(4):
            row = next(r for r in d["events"][i]["results"] if r["member"] == "m01")
            row["substitute"] = "Carl Guest"

    found = problems(changed(season_file(10), subs))
    assert any("substitute for the 4th time; the season allows 3" in p for p in found)
    assert any(p.startswith("events[3].results[") for p in found)


def test_every_member_holding_a_seat_needs_a_result():
    data = changed(season_file(10), lambda d: d["events"][0]["results"].pop())
    assert "events[0].results: member 'm10' holds a seat at event 1 but has no result" in problems(data)


def test_place_or_status_but_not_both():
    data = changed(season_file(10), lambda d: d["events"][0]["results"][9].update(status="absent"))
    assert "events[0].results[9]: give either a place or a status" in problems(data)


def test_a_late_joiner_is_not_expected_before_the_first_event():
    def late(d):
        d["members"][9]["first_event"] = 4
        for e in d["events"][:3]:
            e["results"] = [r for r in e["results"] if r["member"] != "m10"]
            for place, r in enumerate(sorted(e["results"], key=lambda r: r["place"]), start=1):
                r["place"] = place

    read = season_file_read(data=changed(season_file(10), late), rules=BYLAWS_RULES)
    assert read.member_index["m10"].first_event == 4


def test_all_problems_are_reported_at_once():
    def many(d):
        d["members"][0]["key"] = "Bad Key"
        d["payments"][1]["method"] = "bitcoin"
        d["tie_breaks"] = [{"members": ["m01"], "order": ["m01"], "how": "agreement"}]

    found = problems(changed(season_file(10), many))
    assert "members[0].key: 'Bad Key' must be lower-case letters, digits, - or _" in found
    assert "payments[1].method: 'bitcoin' must be 'cash' or 'check'" in found
    assert "tie_breaks[0].order: must list the same two or more members as 'members', each once" in found
