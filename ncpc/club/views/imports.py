"""Officers bring members and payments in from CSV files: upload → preview with errors per line, and the
officer's choices (tidy names, the club's declaration that every member is of age, a row that is a different
person, how to book an unknown payment method, rows to skip, payments recorded already) → confirm."""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.timezone import localtime

from events.models import Season
from events.selectors import current_season, season_rules
from ncpc.club.services import spreadsheet
from ncpc.core.errors import NcpcError
from ncpc.core.feedback import command_run
from ncpc.core.forms import form_field
from ncpc.core.permissions import Action, user_can

KINDS = {
    "members": (Action.MANAGE_MEMBERS, spreadsheet.members_sheet_read, spreadsheet.members_sheet_write),
    "payments": (Action.RECORD_PAYMENTS, spreadsheet.payments_sheet_read, spreadsheet.payments_sheet_write),
}
PREVIEW_OK_ROWS = 100  # a preview lists every row with a problem or a flag, and the first rows without one


class UploadForm(forms.Form):
    kind = forms.ChoiceField(choices=(("members", "Members"), ("payments", "Payments")))
    season = forms.ModelChoiceField(queryset=Season.objects.all(), to_field_name="name", empty_label=None)
    file = forms.FileField(
        help_text="A CSV file (UTF-8) or an Excel workbook (.xlsx, its first sheet) with a header row.",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )
    tidy = forms.BooleanField(
        required=False,
        label="Tidy names",
        help_text="Members: capitalise names typed all in lower or upper case ('MIKE SMITH' → 'Mike Smith').",
    )
    adult = forms.BooleanField(
        required=False,
        label="Every member in this file is 21 or over",
        help_text="Members: the club's declaration for the bylaws' age rule (§2.1), so no date of birth is "
        "needed; a date of birth given is still checked.",
    )

    def __init__(self, *args, minimum_age: int = 21, **kwargs):
        super().__init__(*args, **kwargs)
        form_field(
            self, "adult", forms.BooleanField
        ).label = f"Every member in this file is {minimum_age} or over"


def _allowed_kinds(user) -> list[str]:
    return [kind for kind, (action, _read, _write) in KINDS.items() if user_can(user, action)]


def _lines(post, name: str) -> list[int]:
    return [int(n) for n in post.getlist(name) if n.isascii() and n.isdigit() and len(n) < 9]


def _options(post) -> spreadsheet.SheetOptions:
    """The preview's choices as the form sends them: ``tidy``, ``adult``, ``method:<word>`` = cash/check/skip,
    and the lines ticked in ``record``, ``different`` and ``skip``."""
    return spreadsheet.sheet_options(
        tidy=bool(post.get("tidy")),
        adult=bool(post.get("adult")),
        methods={k.removeprefix("method:"): v for k, v in post.items() if k.startswith("method:")},
        record=_lines(post, "record"),
        different=_lines(post, "different"),
        skip=_lines(post, "skip"),
    )


def _minimum_age(season) -> int:
    return season_rules(season).minimum_age if season else 21


def imports(request):
    allowed = _allowed_kinds(request.user)
    if not allowed:
        raise PermissionDenied("Spreadsheet import is for the Vice President and the Treasurer.")
    season_now = current_season()
    form = UploadForm(
        request.POST or None,
        request.FILES or None,
        initial={"season": season_now, "kind": allowed[0]},
        minimum_age=_minimum_age(season_now),
    )
    form_field(form, "kind", forms.ChoiceField).choices = [(k, k.title()) for k in allowed]
    step = request.POST.get("step") if request.method == "POST" else None
    if step == "confirm":
        options = _options(request.POST)
        # A confirmation without the field (an older page) made no choices.
        if options.fingerprint == request.POST.get("previewed", spreadsheet.SheetOptions().fingerprint):
            return _confirm(request, allowed, options)
        messages.warning(request, "Your choices changed since the preview: check it again, then confirm.")
        step = "preview"
    if step == "preview":
        kept_upload = command_run(
            request, spreadsheet.sheet_upload_kept, token=request.POST.get("token", ""), kinds=allowed
        )
        if kept_upload is None:
            return redirect("imports")
        upload, season = kept_upload
        kept = KINDS[upload.kind][1](text=upload.text, season=season, options=_options(request.POST))
        return _preview(
            request,
            UploadForm(initial={"season": season, "kind": upload.kind}, minimum_age=_minimum_age(season)),
            kept,
            upload.token,
        )
    sheet = upload_token = None
    if request.method == "POST" and form.is_valid():
        kind, season = form.cleaned_data["kind"], form.cleaned_data["season"]
        upload = form.cleaned_data["file"]
        raw = upload.read(spreadsheet.MAX_BYTES + 1)
        try:
            text = spreadsheet.upload_text(name=upload.name or "", raw=raw)
        except NcpcError as exc:
            messages.error(request, str(exc))
            return redirect("imports")
        sheet = KINDS[kind][1](
            text=text,
            season=season,
            options=spreadsheet.sheet_options(
                tidy=form.cleaned_data["tidy"], adult=form.cleaned_data["adult"]
            ),
        )
        if sheet.readable:  # kept for the confirmation, or for the officer's answers first
            upload_token = spreadsheet.sheet_upload_keep(
                kind=kind, season=season, text=text, actor=request.user
            ).token
    return _preview(request, form, sheet, upload_token)


def _preview(request, form, sheet, upload_token):
    allowed = _allowed_kinds(request.user)
    form_field(form, "kind", forms.ChoiceField).choices = [(k, k.title()) for k in allowed]
    shown = []
    if sheet is not None:
        notable = [
            row
            for row in sheet.rows
            if row.errors or row.refused or row.warnings or row.recorded or row.ask or row.skipped
        ]
        plain = [
            row
            for row in sheet.rows
            if not (row.errors or row.refused or row.warnings or row.recorded or row.ask or row.skipped)
        ]
        keep = {id(row) for row in notable + plain[:PREVIEW_OK_ROWS]}
        shown = [row for row in sheet.rows if id(row) in keep]
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


def _confirm(request, allowed, options):
    done = command_run(
        request,
        spreadsheet.sheet_confirm,
        token=request.POST.get("token", ""),
        kinds=allowed,
        options=options,
    )
    if done is None:
        return redirect("imports")
    upload = done.upload
    result = f"Imported {upload.rows} {upload.kind} row(s) into {upload.season_name}"
    if done.already:
        messages.info(
            request, f"{result} at {localtime(upload.imported_at):%H:%M}: this file was confirmed already."
        )
    elif done.recorded or done.skipped:
        left_out = []
        if done.recorded:
            left_out.append(
                f"{done.recorded} row(s) were not booked: their payment is recorded already "
                "(the same file imported before, or the same payment entered by hand)."
            )
        if done.skipped:
            left_out.append(
                f"{len(done.skipped)} row(s) skipped (line {', '.join(map(str, done.skipped))}): "
                "nothing was booked for them."
            )
        messages.warning(request, f"{result}. " + " ".join(left_out))
    else:
        messages.success(request, f"{result}.")
    return redirect("imports")
