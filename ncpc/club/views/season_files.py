"""The season file page (issue 47): each season as the JSON file ``manage.py import_season`` reads back, and
what such a file carries and what it does not (the database backup is the full copy)."""

import json

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from events.selectors import season_named, seasons_all
from ncpc.club.services.season_export import season_file_export
from ncpc.core.downloads import filename
from ncpc.core.permissions import Action, require

# Members' dates of birth and e-mail addresses are in the file: any officer, as for the members' personal data.
SEASON_FILES = Action.VIEW_PERSONAL_DATA


@require(SEASON_FILES)
@require_GET
def season_files(request):
    return render(request, "season_files.html", {"seasons": seasons_all()})


@require(SEASON_FILES)
@require_GET
def season_file_download(request, season):
    found = season_named(season)
    if found is None:
        raise Http404("No such season.")
    data = season_file_export(season=found)
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename("season", found.name)}.json"'
    return response
