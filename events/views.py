from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render

from events import hooks
from events.forms import FORMSETS, SeasonCreateForm, SeasonRulesForm, formset_rows
from events.models import Season
from events.selectors import current_season, season_rules
from events.services.rules_check import rules_problems
from events.services.rules_edit import season_rules_save
from ncpc.errors import NcpcError
from ncpc.permissions import Action, require, user_can


@require(Action.EDIT_RULES)
def rules_current(request):
    season = current_season()
    if season is None:
        return render(request, "events/rules.html", {"season": None, "create_form": SeasonCreateForm()})
    return redirect("events:rules", season=season.name)


@require(Action.EDIT_RULES)
def rules(request, season):
    season = get_object_or_404(Season, name=season)
    editing = request.method == "POST"
    form = SeasonRulesForm(request.POST if editing else None, instance=season)
    formsets = {
        prefix: cls(request.POST if editing else None, instance=season, prefix=prefix)
        for prefix, _table, cls in FORMSETS
    }
    if editing and form.is_valid() and all(fs.is_valid() for fs in formsets.values()):
        try:
            changed = season_rules_save(
                season=season,
                changes=form.cleaned_data,
                tables={
                    table: formset_rows(table=table, formset=formsets[prefix])
                    for prefix, table, _cls in FORMSETS
                },
                actor=request.user,
                reason=request.POST.get("reason", ""),
            )
        except NcpcError as exc:
            messages.error(request, f"Nothing was saved. {exc}")
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
                (prefix, Season.rule_label(table), formsets[prefix]) for prefix, table, _cls in FORMSETS
            ],
            "problems": rules_problems(
                rules=season_rules(season), seats_held=hooks.seats_held(season=season)
            ),
            "create_form": SeasonCreateForm(initial={"start_year": season.start.year + 1}),
            "can_edit": user_can(request.user, Action.EDIT_RULES),
        },
    )
