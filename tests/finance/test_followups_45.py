"""Follow-ups of issues 45 and 47.

The schedule's texts (SPEC §16, issue 47): the day of the week is a season rule (``Season.schedule_weekday``),
so the season file, the rule-change ballot and its form count an nth day of the week, not an nth Saturday.
"""

import pytest

from members.governance_forms import AcceptForm
from members.services.rule_changes import rule_value_clean
from ncpc.club.services.season_file import _Reader, _rule_value_read
from ncpc.core.errors import NcpcError


def test_a_season_files_schedule_pair_is_explained_as_month_and_nth_day_of_the_week():
    reader = _Reader()
    _rule_value_read(reader, "rules.schedule", [[11, 2], [12]], kind="schedule")
    assert reader.problems == ["rules.schedule[1]: [12] must be [month, nth day of the week], like [11, 2]"]


def test_a_rule_change_to_the_schedule_refuses_a_sixth_week_without_naming_saturday():
    with pytest.raises(NcpcError) as refused:
        rule_value_clean(field="schedule", text="8-4, 9-6")
    assert "is not a month (1–12) and an nth day of the week (1–5)." in str(refused.value)
    assert "Saturday" not in str(refused.value)


def test_the_ballot_forms_help_counts_the_seasons_weekday():
    help_text = str(AcceptForm().fields["new_value"].help_text)
    assert "(month-nth day of the season's weekday)" in help_text
    assert "Saturday" not in help_text
