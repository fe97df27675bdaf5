from decimal import Decimal

import pytest
from django.utils.html import escape
from django.utils.text import capfirst

from events.bylaws import BYLAWS_RULES
from events.forms import FORMSETS, SeasonRulesForm
from events.models import PAYOUT_ROW, RULE_TABLES, WSOP_ROW, PayoutRow, Season
from events.rules import SeasonRules
from events.selectors import season_rules
from events.services.event_fund import WsopTableMissing, wsop_allocation
from events.services.rules_check import rules_problems
from events.services.rules_edit import season_rules_save
from events.services.seasons import season_create
from members.governance_forms import AcceptForm
from members.services.rule_changes import RULE_LABELS
from ncpc.core.errors import RulesError
from ncpc.core.models import AuditEntry

# Bylaws §8.1, row by row: members → (total fees, prizes, entries, expenses, monthly funds, per event).
WSOP_TABLE = [
    (10, "5000", 1, "1500", "700", "2800", "280"),
    (11, "5500", 1, "1500", "700", "3300", "330"),
    (12, "6000", 1, "1500", "700", "3800", "380"),
    (13, "6500", 1, "1500", "700", "4300", "430"),
    (14, "7000", 1, "1500", "700", "4800", "480"),
    (15, "7500", 2, "3000", "1400", "3100", "310"),
    (16, "8000", 2, "3000", "1400", "3600", "360"),
    (17, "8500", 2, "3000", "1400", "4100", "410"),
    (18, "9000", 3, "4500", "2100", "2400", "240"),
    (19, "9500", 3, "4500", "2100", "2900", "290"),
    (20, "10000", 3, "4500", "2100", "3400", "340"),
]

# Bylaws §6.2, row by row.
PAYOUT_TABLE = {
    10: ("140", "85", "55"),
    11: ("165", "100", "65"),
    12: ("190", "115", "75"),
    13: ("175", "105", "85", "65"),
    14: ("195", "120", "95", "70"),
    15: ("155", "90", "65"),
    16: ("145", "95", "70", "50"),
    17: ("165", "105", "80", "60"),
    18: ("120", "70", "50"),
    19: ("145", "85", "60"),
    20: ("135", "85", "70", "50"),
}


@pytest.mark.parametrize(
    ("members", "fees", "prizes", "entries", "expenses", "funds", "per_event"), WSOP_TABLE
)
def test_wsop_allocation_matches_every_row_of_the_bylaws(
    members, fees, prizes, entries, expenses, funds, per_event
):
    allocation = wsop_allocation(rules=BYLAWS_RULES, member_count=members)
    assert allocation.total_fees == Decimal(fees)
    assert allocation.prizes == prizes
    assert allocation.entries == Decimal(entries)
    assert allocation.expenses == Decimal(expenses)
    assert allocation.monthly_event_funds == Decimal(funds)
    assert allocation.per_event == Decimal(per_event)


@pytest.mark.parametrize(
    ("members", "fees", "prizes", "entries", "expenses", "funds", "per_event"), WSOP_TABLE
)
def test_each_payout_row_adds_up_to_the_per_event_fund(
    members, fees, prizes, entries, expenses, funds, per_event
):
    assert sum(Decimal(a) for a in PAYOUT_TABLE[members]) == Decimal(per_event)
    seeded = next(row for row in BYLAWS_RULES.payout_table if row.member_count == members)
    assert seeded.amounts == tuple(Decimal(a) for a in PAYOUT_TABLE[members])


def test_the_seeded_bylaws_rules_hold_together():
    assert rules_problems(rules=BYLAWS_RULES) == []


def test_a_member_count_outside_the_wsop_table_is_a_clear_error():
    with pytest.raises(WsopTableMissing, match="no row for 9 members"):
        wsop_allocation(rules=BYLAWS_RULES, member_count=9)


@pytest.mark.django_db
def test_the_first_season_gets_the_bylaws_rules(season):
    assert season_rules(season) == BYLAWS_RULES


@pytest.mark.django_db
def test_a_new_season_copies_the_previous_seasons_rules(season):
    season.late_fee = Decimal("30.00")
    season.save()
    PayoutRow.objects.filter(season=season, member_count=16).update(
        first=Decimal("150.00"), second=Decimal("90.00")
    )

    next_season = season_create(start_year=2027)

    rules = season_rules(next_season)
    assert rules.late_fee == Decimal("30.00")
    row16 = next(row for row in rules.payout_table if row.member_count == 16)
    assert row16.amounts == (Decimal("150.00"), Decimal("90.00"), Decimal("70.00"), Decimal("50.00"))
    assert rules.blind_structure == BYLAWS_RULES.blind_structure
    assert next_season.events.count() == 10
    # The old season is untouched by the copy.
    assert Season.objects.get(name="2026-27").late_fee == Decimal("30.00")


@pytest.mark.django_db
def test_a_season_name_cannot_be_created_twice(season):
    from ncpc.core.errors import NcpcError

    with pytest.raises(NcpcError, match="exists already"):
        season_create(start_year=2026)


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


@pytest.mark.django_db
def test_officer_changes_a_rule_on_the_page_and_it_is_audited(officer_client, season):
    response = _rules_post(officer_client, season, late_fee="30.00", reason="April vote, item 2")
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.late_fee == Decimal("30.00")
    entry = AuditEntry.objects.get(action="season.rules")
    assert "late_fee" in entry.summary
    assert entry.reason == "April vote, item 2"


@pytest.mark.django_db
def test_rules_that_do_not_add_up_are_refused_and_nothing_is_saved(officer_client, season):
    # Raising dues per event without changing the payout table breaks "each row sums to the event fund".
    response = _rules_post(officer_client, season, dues_per_event="60.00", late_fee="30.00")
    assert response.status_code == 200
    assert "Nothing was saved" in response.content.decode()
    season.refresh_from_db()
    assert season.dues_per_event == Decimal("50.00")
    assert season.late_fee == Decimal("25.00")
    assert not AuditEntry.objects.filter(action="season.rules").exists()


@pytest.mark.django_db
def test_a_garbled_points_table_is_a_form_error_not_a_crash(officer_client, season):
    response = _rules_post(officer_client, season, points_table="10, nine, 8")
    assert response.status_code == 200
    assert "Enter whole numbers separated by commas" in response.content.decode()


@pytest.mark.django_db
def test_a_change_to_a_rule_table_on_the_page_is_saved_as_rows_and_audited(officer_client, season):
    # The first break (the 4th row) goes, and the first level gets 25 minutes.
    response = _rules_post(officer_client, season, **{"blinds-3-DELETE": "on", "blinds-0-minutes": "25"})
    assert response.status_code == 302
    structure = season_rules(season).blind_structure
    expected = [level for i, level in enumerate(BYLAWS_RULES.blind_structure) if i != 3]
    expected[0] = expected[0]._replace(minutes=25)
    assert list(structure) == expected
    assert list(season.blind_levels.values_list("position", flat=True)) == list(range(1, len(expected) + 1))
    assert "blind_structure" in AuditEntry.objects.get(action="season.rules").summary


# --- each rule defined once (issue 14) ---------------------------------------------------------------------


def test_every_season_rule_has_its_own_label_and_help_text_on_the_season():
    for name in SeasonRules.SCALAR_FIELDS:
        field = Season._meta.get_field(name)
        _name, _path, _args, written = field.deconstruct()
        assert written.get("verbose_name") and written.get("help_text"), f"{name} has no label or help text"
    for name in (*SeasonRules.TABLE_FIELDS, PAYOUT_ROW, WSOP_ROW):
        assert RULE_TABLES[name].label and RULE_TABLES[name].help_text


@pytest.mark.django_db  # the form shows the club's references to its rule book (SPEC §16.7)
def test_a_rule_is_labelled_the_same_on_the_rules_form_the_ballot_and_the_model():
    form = SeasonRulesForm()
    choices = dict(AcceptForm().fields["rule_field"].choices)
    for name in SeasonRules.SCALAR_FIELDS:
        field = Season._meta.get_field(name)
        label = capfirst(field.verbose_name)
        assert (
            form.fields[name].label == RULE_LABELS[name] == choices[name] == label == Season.rule_label(name)
        )
        assert form.fields[name].help_text == field.help_text == Season.rule_help_text(name)
    for name in (PAYOUT_ROW, WSOP_ROW):
        assert RULE_LABELS[name] == choices[name] == RULE_TABLES[name].label


@pytest.mark.django_db
def test_the_rules_page_titles_its_tables_with_the_tables_labels(officer_client, season):
    page = officer_client.get(f"/events/rules/{season.name}/")
    titles = [title for _prefix, title, _formset in page.context["formsets"]]
    assert titles == [Season.rule_label(table) for _prefix, table, _cls in FORMSETS]
    content = page.content.decode()
    assert all(escape(title) in content for title in titles)
    assert Season.rule_help_text("late_fee") in content


# --- saving the rules from plain values --------------------------------------------------------------------


@pytest.mark.django_db
def test_saving_rules_takes_plain_values_writes_what_changed_and_records_the_reason(season, vice_president):
    structure = BYLAWS_RULES.blind_structure[:-1]
    changed = season_rules_save(
        season=season,
        changes={"late_fee": Decimal("30.00"), "max_members": 20, "results_email": False},
        tables={"blind_structure": structure, "dues_schedule": BYLAWS_RULES.dues_schedule},
        actor=vice_president,
        reason="April vote, item 2",
    )
    assert changed == ["late_fee", "results_email", "blind_structure"]
    season.refresh_from_db()
    assert (season.late_fee, season.results_email) == (Decimal("30.00"), False)
    assert season_rules(season).blind_structure == structure
    entry = AuditEntry.objects.get(action="season.rules")
    assert entry.reason == "April vote, item 2" and entry.actor == vice_president


@pytest.mark.django_db
def test_saving_rules_that_do_not_hold_together_writes_nothing(season, vice_president):
    with pytest.raises(RulesError, match="dues schedule adds up"):
        season_rules_save(
            season=season,
            changes={"dues_per_event": Decimal("60.00"), "late_fee": Decimal("30.00")},
            tables={"blind_structure": BYLAWS_RULES.blind_structure[:-1]},
            actor=vice_president,
            reason="April vote",
        )
    season.refresh_from_db()
    assert (season.dues_per_event, season.late_fee) == (Decimal("50.00"), Decimal("25.00"))
    assert season_rules(season).blind_structure == BYLAWS_RULES.blind_structure
    assert not AuditEntry.objects.filter(action="season.rules").exists()


@pytest.mark.django_db
def test_saving_rules_unchanged_writes_no_audit_row(season, vice_president):
    tables = {name: getattr(BYLAWS_RULES, name) for name in SeasonRules.TABLE_FIELDS}
    assert (
        season_rules_save(season=season, changes={"late_fee": Decimal("25")}, tables=tables, actor=None) == []
    )
    assert not AuditEntry.objects.filter(action="season.rules").exists()


@pytest.mark.django_db
def test_saving_a_dues_table_with_an_event_twice_or_an_unknown_rule_is_refused(season):
    twice = (*BYLAWS_RULES.dues_schedule, (5, Decimal("0.00")))
    with pytest.raises(RulesError, match="event 5 twice"):
        season_rules_save(season=season, changes={}, tables={"dues_schedule": twice}, actor=None)
    with pytest.raises(RulesError, match="not a season rule"):
        season_rules_save(season=season, changes={"name": "2099-00"}, actor=None)
    assert season_rules(season).dues_schedule == BYLAWS_RULES.dues_schedule


# --- frozen rules of a season under way (SPEC §15.10) ------------------------------------------------------


def _final(season, number):
    from events.models import Event

    Event.objects.filter(season=season, number=number).update(status=Event.Status.FINAL)


@pytest.mark.django_db
def test_spec_15_10_a_rules_change_needs_a_reason(season, vice_president):
    with pytest.raises(RulesError, match="Say why"):
        season_rules_save(
            season=season, changes={"late_fee": Decimal("30.00")}, actor=vice_president, reason=" "
        )
    season.refresh_from_db()
    assert season.late_fee == Decimal("25.00")


@pytest.mark.django_db
def test_spec_15_10_once_an_event_is_final_the_points_and_money_rules_are_frozen(season, vice_president):
    _final(season, 1)
    for changes, tables in [
        ({"points_table": (12, 10, 8, 7, 6, 5, 4, 3, 2, 1)}, {}),
        ({"late_fee": Decimal("30.00")}, {}),
        ({"max_members": 19}, {}),
        ({}, {"payout_table": BYLAWS_RULES.payout_table[:-1]}),
        ({}, {"wsop_table": BYLAWS_RULES.wsop_table[:-1]}),
    ]:
        with pytest.raises(RulesError, match="frozen: the results of event 1 are final.*next season"):
            season_rules_save(
                season=season, changes=changes, tables=tables, actor=vice_president, reason="President's wish"
            )
    season.refresh_from_db()
    assert season.points_table == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert season_rules(season).payout_table == BYLAWS_RULES.payout_table
    assert not AuditEntry.objects.filter(action="season.rules").exists()


@pytest.mark.django_db
def test_spec_15_10_the_blind_structure_stays_editable_between_nights_and_is_audited_with_who_and_why(
    season, vice_president
):
    _final(season, 1)
    structure = BYLAWS_RULES.blind_structure[:-1]
    changed = season_rules_save(
        season=season,
        changes={"results_email": False},
        tables={"blind_structure": structure},
        actor=vice_president,
        reason="Shorter nights, voted in September",
    )
    assert changed == ["results_email", "blind_structure"]
    entry = AuditEntry.objects.get(action="season.rules")
    assert (entry.actor, entry.reason) == (vice_president, "Shorter nights, voted in September")


@pytest.mark.django_db
def test_spec_15_10_the_blind_structure_cannot_change_while_a_night_is_under_way(season, vice_president):
    import datetime as dt

    from events.models import Night

    event = season.events.get(number=4)
    Night.objects.create(event=event, started_at=dt.datetime(2026, 11, 15, 0, 5, tzinfo=dt.UTC))
    with pytest.raises(RulesError, match="clock of event 4 is running"):
        season_rules_save(
            season=season,
            changes={},
            tables={"blind_structure": BYLAWS_RULES.blind_structure[:-1]},
            actor=vice_president,
            reason="Shorter nights",
        )
    assert season_rules(season).blind_structure == BYLAWS_RULES.blind_structure


@pytest.mark.django_db
def test_spec_15_10_the_rules_page_needs_the_confirmation_and_explains_a_frozen_season(
    officer_client, season
):
    response = _rules_post(officer_client, season, late_fee="30.00", confirm="")
    assert "tick the box to confirm" in response.content.decode()
    season.refresh_from_db()
    assert season.late_fee == Decimal("25.00")
    _final(season, 1)
    page = officer_client.get(f"/events/rules/{season.name}/").content.decode()
    assert "are <strong>frozen</strong>" in page
    response = _rules_post(officer_client, season, late_fee="30.00")
    assert "frozen" in response.content.decode()
    season.refresh_from_db()
    assert season.late_fee == Decimal("25.00")


# --- members read the rules (issue 15, item 11) -------------------------------------------------------------


@pytest.mark.django_db
def test_issue_15_item_11_a_member_reads_the_blind_structure_and_the_payout_table(member_client, season):
    assert member_client.get("/events/rules/").url == f"/events/rules/{season.name}/"
    response = member_client.get(f"/events/rules/{season.name}/")
    assert response.status_code == 200
    page = response.content.decode()
    # §6.1 level 5 and the last level; §6.2's row for 16 members.
    assert "200/400" in page and "10,000/20,000" in page and "Remove $25 chips" in page
    assert all(amount in page for amount in ("$145", "$95", "$70", "$50"))
    assert 'name="reason"' not in page  # read only
    assert member_client.post(f"/events/rules/{season.name}/", {"late_fee": "1"}).status_code == 403
    home = member_client.get("/").content.decode()
    assert 'href="/events/rules/"' in home
