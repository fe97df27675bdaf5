"""The home page's panels: club-wide wiring (the top layer), so each app only offers its selectors.

A panel is a dict: {"title": str, "template": "app/partials/x.html", "context": {...}, "order": int}, or None
when it has nothing to show this user.
"""

import datetime as dt

from django.template.loader import render_to_string

from events.models import Event
from events.selectors import first_event_from, next_event, night_under_way, season_events, season_rules
from events.services.rsvp import rsvp_card
from finance.selectors.checks import checks_awaiting
from finance.selectors.dues import account_outlook, dues_account, good_standing
from members.governance_selectors import ballots_waiting_for
from members.selectors import roster_for_event, season_memberships
from ncpc.core.clock import club_today
from ncpc.core.permissions import Action, user_can, user_person
from standings.selectors import season_standings

STANDINGS_TOP = 5


def open_ballots_panel(*, request, season, memberships) -> dict | None:
    """Open ballots the member has not finished voting on."""
    person = user_person(request.user)
    if person is None or season is None:
        return None
    seated = any(m.person_id == person.pk and m.left_after_event is None for m in memberships)
    waiting = ballots_waiting_for(person=person, season=season, seated=seated)
    if not waiting:
        return None
    return {
        "title": "Club votes",
        "template": "members/partials/home_ballots.html",
        "order": 5,
        "context": {"ballots": waiting},
    }


def checks_panel(*, request) -> dict | None:
    """An officer's checks awaiting their approval (§4.7: three officers approve every check)."""
    if not user_can(request.user, Action.APPROVE_CHECKS):
        return None
    waiting = checks_awaiting(person=user_person(request.user))
    if not waiting:
        return None
    return {
        "title": "Checks awaiting your approval",
        "template": "finance/partials/home_checks.html",
        "order": 4,
        "context": {"checks": waiting},
    }


def my_dues_panel(*, request, season, events, memberships, rules) -> dict | None:
    person = user_person(request.user)
    if person is None or season is None:
        return None
    membership = next((m for m in memberships if m.person_id == person.pk), None)
    if membership is None:
        return None
    on = min(club_today(), season.end)
    account = dues_account(membership=membership, rules=rules, events=events, memberships=memberships)
    return {
        "title": "My dues",
        "template": "finance/partials/home_dues.html",
        "order": 20,
        "context": {
            "status": account.status(on=on),
            "outlook": account_outlook(account=account, on=on, events=events, membership=membership),
            "good_standing": good_standing(membership=membership, on=on, account=account),
        },
    }


def standings_panel(*, request, season, events, memberships, rules) -> dict | None:
    """The top of the standings and the member's own rank."""
    if season is None or not user_can(request.user, Action.VIEW_CLUB):
        return None
    standings = season_standings(season=season, rules=rules, events=events, memberships=memberships)
    mine = standings.row_for_person(user_person(request.user))
    return {
        "title": f"Standings {season}",
        "template": "standings/partials/home_panel.html",
        "order": 20,
        "context": {
            "season": season,
            "rows": standings.rows[:STANDINGS_TOP],
            "mine": mine,
            "played": len(standings.events),
        },
    }


def home_page(*, request, season) -> dict:
    """The next event and the panels, rendered. The season's events, memberships and rules are read once,
    here, and handed to every part that needs them."""
    if season is None:
        return {"next_event": next_event(), "panels": []}
    events = season_events(season=season)
    memberships = season_memberships(season=season)
    rules = season_rules(season)
    seasonal = {"request": request, "season": season, "memberships": memberships}
    panels = [
        checks_panel(request=request),
        open_ballots_panel(**seasonal),
        my_dues_panel(**seasonal, events=events, rules=rules),
        standings_panel(**seasonal, events=events, rules=rules),
    ]
    shown = sorted((p for p in panels if p), key=lambda p: p.get("order", 50))
    for panel in shown:
        # Each panel from its own template (the home template loops over the HTML).
        panel["html"] = render_to_string(panel["template"], {"panel": panel["context"]})
    upcoming = next_night(season=season, events=events)
    card = _rsvp_card(request, upcoming, season=season, memberships=memberships, rules=rules)
    return {"next_event": upcoming, "panels": shown, "rsvp_card": card}


def next_night(*, season, events):
    """The next event still to play: tonight's once its results are final gives way to the one after it."""
    upcoming = next_event(season=season, events=events)
    if upcoming is None or upcoming.status != Event.Status.FINAL:
        return upcoming
    later = first_event_from((e for e in events if e.status != Event.Status.FINAL), on=upcoming.date)
    return later or next_event(on=max(upcoming.date, season.end) + dt.timedelta(days=1))


def _rsvp_card(request, event, *, season, memberships, rules):
    """Who's coming: the member's answer for the next event, on its card (issue 19). The next event of a later
    season has no card here (its roster is not the one read)."""
    person = user_person(request.user)
    if event is None or person is None or event.season_id != season.pk:
        return None
    roster = roster_for_event(season=season, event_number=event.number, memberships=memberships)
    membership = next((m for m in roster if m.person_id == person.pk), None)
    return rsvp_card(event=event, membership=membership, rules=rules)


def night_to_run(*, request, season, next_event):
    """The night whose console officers who run it get as "Run the night": the next event on its day, else a
    night of the season under way and not final (one that runs past midnight, results left to finish, the
    demo's night). None for everyone else."""
    if not user_can(request.user, Action.ENTER_RESULTS):
        return None
    if next_event is not None and next_event.date == club_today() and next_event.status != "final":
        return next_event
    return night_under_way(season=season) if season is not None else None
