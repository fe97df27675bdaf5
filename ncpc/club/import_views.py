"""Officers bring members and payments in from CSV files: upload → preview with errors per line → confirm."""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.timezone import localtime

from events.models import Season
from events.selectors import current_season
from ncpc.club.services import spreadsheet
from ncpc.core.errors import NcpcError
from ncpc.core.forms import form_field
from ncpc.core.permissions import Action, user_can

KINDS = {
    "members": (Action.MANAGE_MEMBERS, spreadsheet.members_sheet_read, spreadsheet.members_sheet_write),
    "payments": (Action.RECORD_PAYMENTS, spreadsheet.payments_sheet_read, spreadsheet.payments_sheet_write),
}
PREVIEW_OK_ROWS = 100  # a preview lists every row with a problem, and the first rows without one


class UploadForm(forms.Form):
    kind = forms.ChoiceField(choices=(("members", "Members"), ("payments", "Payments")))
    season = forms.ModelChoiceField(queryset=Season.objects.all(), to_field_name="name", empty_label=None)
    file = forms.FileField(help_text="A CSV file with a header row (see the columns below).")


def _allowed_kinds(user) -> list[str]:
    return [kind for kind, (action, _read, _write) in KINDS.items() if user_can(user, action)]


def imports(request):
    allowed = _allowed_kinds(request.user)
    if not allowed:
        raise PermissionDenied("Spreadsheet import is for the Vice President and the Treasurer.")
    form = UploadForm(
        request.POST or None,
        request.FILES or None,
        initial={"season": current_season(), "kind": allowed[0]},
    )
    form_field(form, "kind", forms.ChoiceField).choices = [(k, k.title()) for k in allowed]
    sheet = upload_token = None
    if request.method == "POST" and request.POST.get("step") == "confirm":
        return _confirm(request, allowed)
    if request.method == "POST" and form.is_valid():
        kind, season = form.cleaned_data["kind"], form.cleaned_data["season"]
        raw = form.cleaned_data["file"].read(spreadsheet.MAX_BYTES + 1)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            messages.error(
                request, "The file is not UTF-8 text. Save it from your spreadsheet as 'CSV UTF-8'."
            )
            return redirect("imports")
        sheet = KINDS[kind][1](text=text, season=season)
        if sheet.ok:
            upload_token = spreadsheet.sheet_upload_keep(
                kind=kind, season=season, text=text, actor=request.user
            ).token
    shown = []
    if sheet is not None:
        clean = {id(row) for row in [row for row in sheet.rows if not row.errors][:PREVIEW_OK_ROWS]}
        shown = [row for row in sheet.rows if row.errors or id(row) in clean]
    return render(
        request,
        "imports.html",
        {
            "form": form,
            "sheet": sheet,
            "shown_rows": shown,
            "hidden_rows": len(sheet.rows) - len(shown) if sheet else 0,
            "upload_token": upload_token,
            "member_columns": spreadsheet.MEMBER_COLUMNS,
            "payment_columns": spreadsheet.PAYMENT_COLUMNS,
        },
    )


def _confirm(request, allowed):
    try:
        done = spreadsheet.sheet_confirm(
            token=request.POST.get("token", ""), kinds=allowed, actor=request.user
        )
    except NcpcError as exc:
        messages.error(request, str(exc))
        return redirect("imports")
    upload = done.upload
    result = f"Imported {upload.rows} {upload.kind} row(s) into {upload.season_name}"
    if done.already:
        messages.info(
            request, f"{result} at {localtime(upload.imported_at):%H:%M}: this file was confirmed already."
        )
    else:
        messages.success(request, f"{result}.")
    return redirect("imports")
