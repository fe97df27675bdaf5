"""Schedule, event page, iCalendar feeds, venues, moving and announcing events (thin views)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import constant_time_compare
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET, require_POST

from events import selectors
from events.forms import EventAnnounceForm, EventMoveForm, VenueForm
from events.ical import calendar_text, calendar_token
from events.models import Attendance, Event, Season, Venue
from events.results_history import original_placings
from events.services.event_edit import announcement_is_late, event_announce, event_move, venue_save
from events.views.helpers import event_view
from events.views.rsvp import rsvp_page_context
from ncpc.core.clock import club_today
from ncpc.core.feedback import command_run
from ncpc.core.identity import club_file_prefix, club_identity
from ncpc.core.permissions import Action, club_page, require, user_can


def _season(name: str) -> Season:
    season = selectors.season_named(name)
    if season is None:
        raise Http404("No such season.")
    return season


@club_page
def schedule_current(request):
    season = selectors.current_season()
    if season is None:
        return render(request, "events/schedule.html", {"season": None})
    return redirect("events:schedule", season=season.name)


def _schedule_rows(*, season: Season, can_enter: bool) -> SafeString:
    """The season's rows (events/partials/schedule_rows.html)."""
    events = selectors.season_events(season=season)
    today = club_today()
    return render_to_string(
        "events/partials/schedule_rows.html",
        {
            "season": season,
            "events": events,
            "next_event": selectors.first_event_from(events, on=today),
            "today": today,
            "can_enter": can_enter,
        },
    )


@club_page
def schedule(request, season):
    seasons = selectors.seasons_all()  # and the season menu's
    found = next((s for s in seasons if s.name == season), None)
    if found is None:
        raise Http404("No such season.")
    season = found
    feed_url = webcal_url = None
    if request.user.is_authenticated:
        feed_url = request.build_absolute_uri(
            reverse(
                "events:calendar_feed",
                kwargs={"user_id": request.user.pk, "token": calendar_token(user=request.user)},
            )
        )
        # webcal:// opens the phone's calendar app on "subscribe" (the same address, fetched over https).
        webcal_url = "webcal://" + feed_url.split("://", 1)[1]
    return render(
        request,
        "events/schedule.html",
        {
            "season": season,
            "seasons": seasons,
            "rows_html": _schedule_rows(
                season=season, can_enter=user_can(request.user, Action.ENTER_RESULTS)
            ),
            "feed_url": feed_url,
            "webcal_url": webcal_url,
            "can_edit": user_can(request.user, Action.EDIT_RULES),
        },
    )


def _results_html(*, event: Event, show_reasons: bool) -> SafeString:
    """The event's results table and its seats without a place (events/partials/event_results.html); empty
    while nobody has a place."""
    lines = selectors.event_result_lines(event=event)
    placed = [line for line in lines if line.place]
    if not placed:
        return SafeString("")
    return render_to_string(
        "events/partials/event_results.html",
        {
            "placed": placed,
            "unplaced": [line for line in lines if not line.place],
            "show_reasons": show_reasons,
        },
    )


def _original_rows(*, event: Event) -> dict[str, object] | None:
    """SPEC §17.2: when results of an event in a closed month were corrected, its places as that month's report
    knew them (place, who), for the page to show beside the corrected ones; None otherwise."""
    original = original_placings(event=event)
    if original is None:
        return None
    names = {
        a.membership_id: a.membership.person.full_name
        for a in Attendance.objects.filter(event=event).select_related("membership__person")
    }
    rows = [
        (
            p.place,
            f"{p.substitute_name} (for {names.get(p.membership_id, p.member_key)})"
            if p.substitute_name
            else names.get(p.membership_id, p.member_key),
        )
        for p in original.placings
    ]
    return {"rows": rows, "closed_month": original.closed_month}


@club_page
@event_view
def event_detail(request, event):
    can_edit = user_can(request.user, Action.EDIT_RULES)
    show_reasons = user_can(request.user, Action.ENTER_RESULTS)
    context = {
        "event": event,
        "season": event.season,
        "results_html": _results_html(event=event, show_reasons=show_reasons),
        "original": _original_rows(event=event),
        "can_edit": can_edit,
        "can_enter": show_reasons,
        "today": club_today(),
        **rsvp_page_context(request, event),
    }
    if can_edit and event.status == Event.Status.SCHEDULED:
        context["move_form"] = EventMoveForm(initial={"date": event.date}, season=event.season)
        context["announce_form"] = EventAnnounceForm(initial={"venue": event.venue_id})
        context["event_past"] = event.date < context["today"]
        context["would_be_late"] = announcement_is_late(
            event_date=event.date,
            announced_on=club_today(),
            days_ahead=selectors.season_rules(event.season).announce_days_ahead,
        )
    return render(request, "events/event.html", context)


def _ics_response(request, *, events, name: str, filename: str) -> HttpResponse:
    text = calendar_text(
        events=events,
        name=name,
        url_for=lambda e: request.build_absolute_uri(
            reverse("events:event", kwargs={"season": e.season.name, "number": e.number})
        ),
    )
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@club_page
@require_GET
def season_ics(request, season):
    season = _season(season)
    return _ics_response(
        request,
        events=selectors.season_events(season=season),
        name=f"{club_identity().short_name} {season}",
        filename=f"{club_file_prefix()}-{season}.ics",
    )


@login_not_required
@require_GET
def calendar_feed(request, user_id, token):
    """A member's personal subscription (phones cannot log in): the current season and any later ones.

    The secret token stands in for the login; it stops working when the password changes or the user is no
    longer a member.
    """
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not constant_time_compare(token, calendar_token(user=user)):
        raise Http404("No such calendar.")
    if not user_can(user, Action.VIEW_CLUB):
        raise Http404("No such calendar.")
    current = selectors.current_season()
    events = (
        Event.objects.select_related("season", "venue")
        .filter(season__start__gte=current.start)
        .order_by("date", "pk")
        if current
        else Event.objects.none()
    )
    return _ics_response(
        request,
        events=events,
        name=f"{club_identity().short_name} events",
        filename=f"{club_file_prefix()}.ics",
    )


@require_POST
@require(Action.EDIT_RULES)
@event_view
def event_move_view(request, event):
    form = EventMoveForm(request.POST, season=event.season)
    if not form.is_valid():
        messages.error(
            request, "Enter the new date (and choose a recorded vote from the list, if one is needed)."
        )
    elif command_run(
        request,
        event_move,
        event=event,
        date=form.cleaned_data["date"],
        reason=form.cleaned_data["reason"],
        vote_id=form.cleaned_data["vote"],
    ):
        messages.success(
            request,
            f"Moved event {event.number} to {form.cleaned_data['date']:%A, %B %-d}. Announce it again.",
        )
    return redirect("events:event", season=event.season.name, number=event.number)


@require_POST
@require(Action.EDIT_RULES)
@event_view
def event_announce_view(request, event):
    form = EventAnnounceForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a venue in use.")
    elif announced := command_run(
        request,
        event_announce,
        event=event,
        venue=form.cleaned_data["venue"],
        confirm_late=form.cleaned_data["confirm_late"],
    ):
        late = " (late)" if announced.announced_late else ""
        messages.success(request, f"Announced event {announced.number} at {announced.venue}{late}.")
    return redirect("events:event", season=event.season.name, number=event.number)


@require(Action.EDIT_RULES)
def venues(request):
    form = VenueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        venue = command_run(request, venue_save, form=form, venue=None, **form.cleaned_data)
        if venue is not None:
            messages.success(request, f"Added {venue}.")
            return redirect("events:venues")
    return render(request, "events/venues.html", {"venues": Venue.objects.all(), "form": form})


@require(Action.EDIT_RULES)
def venue_edit(request, pk):
    venue = get_object_or_404(Venue, pk=pk)
    initial = {"name": venue.name, "address": venue.address, "active": venue.active}
    form = VenueForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        before = (venue.name, venue.address, venue.active)
        saved = command_run(request, venue_save, form=form, venue=venue, **form.cleaned_data)
        if saved is not None:
            if (saved.name, saved.address, saved.active) == before:
                messages.info(request, f"Nothing changed: {venue} is as it was.")
            else:
                messages.success(request, f"Saved {venue}.")
            return redirect("events:venues")
    return render(request, "events/venue_form.html", {"venue": venue, "form": form})
