"""Saving officers' changes to a season's rules (command)."""

from django.db import transaction

from events.models import Season
from events.selectors import season_rules
from events.services.rules_check import rules_problems
from ncpc.audit import audit_record
from ncpc.errors import RulesError


@transaction.atomic
def season_rules_save(*, season: Season, form, formsets, actor, reason: str = "") -> list[str]:
    """Save the validated rules form and table formsets; refuse rules that do not hold together.

    Returns the names of what changed. Raises RulesError (and writes nothing) when the saved rules fail
    ``rules_problems``.
    """
    Season.objects.select_for_update().filter(pk=season.pk).first()
    changed = list(form.changed_data)
    form.save()
    for name, formset in formsets.items():
        if formset.has_changed():
            changed.append(name)
        formset.save()
    problems = rules_problems(rules=season_rules(season))
    if problems:
        raise RulesError(" ".join(problems))
    if changed:
        audit_record(
            actor=actor,
            action="season.rules",
            target=season,
            summary=f"Changed the rules of {season}: {', '.join(changed)}",
            reason=reason,
        )
    return changed
