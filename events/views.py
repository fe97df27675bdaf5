from django.contrib import messages
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from events.forms import FORMSETS, SeasonCreateForm, SeasonRulesForm
from events.models import Season
from events.selectors import current_season, season_rules
from events.services.rules_check import rules_problems
from events.services.seasons import season_create
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
        name: cls(request.POST if editing else None, instance=season, prefix=name)
        for name, _title, cls in FORMSETS
    }
    if editing and form.is_valid() and all(fs.is_valid() for fs in formsets.values()):
        from events.services.rules_edit import season_rules_save

        try:
            changed = season_rules_save(
                season=season,
                form=form,
                formsets=formsets,
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
            "formsets": [(name, title, formsets[name]) for name, title, _cls in FORMSETS],
            "problems": rules_problems(rules=season_rules(season)),
            "create_form": SeasonCreateForm(initial={"start_year": season.start.year + 1}),
            "can_edit": user_can(request.user, Action.EDIT_RULES),
        },
    )


@require_POST
@require(Action.EDIT_RULES)
def season_new(request):
    form = SeasonCreateForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Enter the year the season starts, like 2027.")
        return redirect("events:rules_current")
    from members.services.roster import roster_carry_over

    try:
        with transaction.atomic():
            season = season_create(start_year=form.cleaned_data["start_year"], actor=request.user)
            carried = roster_carry_over(season=season, actor=request.user)
    except NcpcError as exc:
        messages.error(request, str(exc))
        return redirect("events:rules_current")
    messages.success(
        request,
        f"Created season {season} with its {season.events_per_season} events and the rules of the season before; "
        f"{len(carried)} members keep their seats (each signs the new rules document before playing).",
    )
    return redirect("events:rules", season=season.name)


def season_or_404(name: str) -> Season:
    season = Season.objects.filter(name=name).first()
    if season is None:
        raise Http404("No such season.")
    return season
