from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render

from events import hooks
from events.forms import FORMSETS, SeasonCreateForm, SeasonRulesForm, formset_rows
from events.models import Season
from events.rules import SeasonRules
from events.selectors import current_season, season_rules
from events.services.rules_check import rules_problems
from events.services.rules_edit import night_under_way, season_frozen_by, season_rules_save
from events.services.schedule import schedule_words
from events.templatetags import events_tags
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.identity import reference_rewrite
from ncpc.core.permissions import Action, require, user_can


@require(Action.VIEW_CLUB)
def rules_current(request):
    season = current_season()
    if season is None:
        if not user_can(request.user, Action.EDIT_RULES):
            return render(request, "events/rules_view.html", {"season": None})
        return render(request, "events/rules.html", {"season": None, "create_form": SeasonCreateForm()})
    return redirect("events:rules", season=season.name)


def _rule_value(name: str, value) -> str:
    if name == "schedule":
        return schedule_words(value)
    if name == "points_table":
        return ", ".join(str(p) for p in value)
    if name == "event_start_time":
        return value.strftime("%-I:%M %p")
    if name.endswith("_pct"):
        return events_tags.percent(value)
    if isinstance(value, Decimal):
        return events_tags.dollars(value)
    return events_tags.thousands(value) if isinstance(value, int) else str(value)


def _numbered_levels(structure) -> list[tuple[int | None, object]]:
    """Each row of the blind structure with its level number (breaks have none)."""
    out: list[tuple[int | None, object]] = []
    number = 0
    for level in structure:
        if level.kind == "break":
            out.append((None, level))
        else:
            number += 1
            out.append((number, level))
    return out


def rules_read_only(request, season):
    """Issue 15, item 11: every member may read the season's rules (the blind structure, the payout table, …)."""
    rules = season_rules(season)
    return render(
        request,
        "events/rules_view.html",
        {
            "season": season,
            "seasons": Season.objects.all(),
            "rules": rules,
            "numbers": [
                (
                    reference_rewrite(Season.rule_label(name)),
                    _rule_value(name, getattr(rules, name)),
                    reference_rewrite(Season.rule_help_text(name)),
                )
                for name in SeasonRules.SCALAR_FIELDS
            ],
            "titles": {name: reference_rewrite(Season.rule_label(name)) for name in SeasonRules.TABLE_FIELDS},
            "blinds": _numbered_levels(rules.blind_structure),
            "frozen_by": season_frozen_by(season=season),
        },
    )


@require(Action.VIEW_CLUB)
def rules(request, season):
    season = get_object_or_404(Season, name=season)
    if not user_can(request.user, Action.EDIT_RULES):
        if request.method != "GET":
            raise PermissionDenied("Only officers change the season's rules.")
        return rules_read_only(request, season)
    editing = request.method == "POST"
    form = SeasonRulesForm(request.POST if editing else None, instance=season)
    formsets = {
        prefix: cls(request.POST if editing else None, instance=season, prefix=prefix)
        for prefix, _table, cls in FORMSETS
    }
    confirmed = request.POST.get("confirm") == "on"
    if editing and not confirmed:
        messages.error(
            request, "Nothing was saved: tick the box to confirm the change of the rules (SPEC §15.10)."
        )
    elif editing and form.is_valid() and all(fs.is_valid() for fs in formsets.values()):
        refusals: list[NcpcError] = []
        changed = command_run(
            request,
            season_rules_save,
            refused=refusals.append,
            season=season,
            changes=form.cleaned_data,
            tables={
                table: formset_rows(table=table, formset=formsets[prefix]) for prefix, table, _cls in FORMSETS
            },
            reason=request.POST.get("reason", ""),
        )
        if refusals:
            messages.error(request, f"Nothing was saved. {refusals[0]}")
        else:
            if changed:
                messages.success(request, f"Saved the rules of {season}.")
            else:
                messages.info(request, "Nothing changed.")
            return redirect("events:rules", season=season.name)
    elif editing:
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    return render(
        request,
        "events/rules.html",
        {
            "season": season,
            "seasons": Season.objects.all(),
            "form": form,
            "formsets": [
                (prefix, reference_rewrite(Season.rule_label(table)), formsets[prefix])
                for prefix, table, _cls in FORMSETS
            ],
            "problems": rules_problems(
                rules=season_rules(season), seats_held=hooks.seats_held(season=season)
            ),
            "create_form": SeasonCreateForm(initial={"start_year": season.start.year + 1}),
            "can_edit": user_can(request.user, Action.EDIT_RULES),
            "frozen_by": season_frozen_by(season=season),
            "night": night_under_way(season=season),
        },
    )
