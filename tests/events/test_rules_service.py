"""Every rule in the service, not only in the form (issue 32 part 7): ``season_rules_save`` (and the command that
writes adopted rule changes) refuse what the rules form refuses, naming the field, when called directly."""

from dataclasses import replace
from decimal import Decimal

import pytest

from events.selectors import season_rules
from events.services.rules_check import rules_problems_named
from events.services.rules_edit import season_rules_save
from members.services.rule_changes import RuleEdit, season_rules_amend
from ncpc.core.errors import RulesError
from ncpc.core.models import AuditEntry
from tests.factories import season_make

pytestmark = pytest.mark.django_db


def save(season, **changes):
    return season_rules_save(season=season, changes=changes, actor=None, reason="club vote")


def test_season_rules_save_refuses_a_check_approved_by_two_officers_and_names_the_field(season):
    with pytest.raises(RulesError) as refused:
        save(season, check_approvals=2)
    assert refused.value.field == "check_approvals"
    assert str(refused.value).startswith("Officers approving a check: ")
    season.refresh_from_db()
    assert season.check_approvals == 3
    assert not AuditEntry.objects.filter(action="season.rules").exists()


def test_season_rules_save_still_takes_a_quorum_of_four(season):
    assert save(season, check_approvals=4) == ["check_approvals"]
    season.refresh_from_db()
    assert season.check_approvals == 4


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("money_limit", Decimal("0.00")),
        ("max_members", -1),
        ("check_approvals", "three"),
        ("representative_share_pct", Decimal("1000.00")),
        ("late_fee", Decimal("-5.00")),
    ],
)
def test_season_rules_save_refuses_a_value_the_form_would_refuse_and_names_its_field(season, field, value):
    before = getattr(season, field)
    with pytest.raises(RulesError) as refused:
        save(season, **{field: value})
    assert refused.value.field == field
    season.refresh_from_db()
    assert getattr(season, field) == before


def test_season_rules_save_names_the_rule_a_consistency_check_is_about(season):
    schedule = season.schedule[:-1]
    with pytest.raises(RulesError, match="The schedule lists 9 events but the season has 10") as refused:
        save(season, schedule=schedule)
    assert refused.value.field == "schedule"
    assert len(season_rules(season).schedule) == 10


def test_the_rules_check_names_the_quorum_and_the_money_limit():
    rules = season_rules(season_make(2026))
    broken = replace(rules, check_approvals=2, money_limit=Decimal("0.00"), late_fee=Decimal("-25.00"))
    assert {p.field for p in rules_problems_named(rules=broken)} == {
        "check_approvals",
        "money_limit",
        "late_fee",
    }


def test_an_adopted_rule_change_to_a_quorum_of_two_is_refused_by_the_command_that_writes_it():
    season = season_make(2027)  # not begun: adopted changes may still be written into it
    with pytest.raises(RulesError, match="Officers approving a check"):
        season_rules_amend(season=season, edits=[RuleEdit(field="check_approvals", value=2)])
    season.refresh_from_db()
    assert season.check_approvals == 3
