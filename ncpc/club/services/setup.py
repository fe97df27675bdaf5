"""The set-up checklist (SPEC §16.8): the steps that take a club from ``manage.py start_club`` to its first
night, each a page of the app, each ticked off by the club's own data.

A step whose page is not part of this build (its URL name does not resolve) is left out. A step whose data
cannot tell that it is done (the rules may be right as the bylaws set them; the club's name may be this
club's) can be confirmed by an officer. Confirmations and hiding the checklist are audit rows
(``setup.confirm``, ``setup.hide``, ``setup.show``): what an officer said, with their name and the date.
"""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from events.models import Event, Season, Venue
from events.selectors import current_season
from events.services.rules_edit import season_frozen_by
from finance.selectors.ledger import opening_balances_done
from members.models import Membership, OfficerTerm, RulesSignature
from members.services.invitations import InvitationState, invitation_rows
from ncpc.core.audit import Actor, audit_record
from ncpc.core.clock import club_today
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry

# The audit actions of the club-identity page (built beside this checklist): any of them ticks the step.
IDENTITY_ACTIONS = ("club.identity",)

RULES_FREEZE = (
    "Check every number against your rule book before the first results are final: the rules freeze when the "
    "results of the season's first event are final (finished on the results page, or a night already played "
    "entered when starting mid-season). From then on only the blind structure (between nights), the "
    "who's-coming reminder and the results e-mail can change; a rule the club votes for later applies from "
    "the next season."
)

# Starting mid-season (issue 47): the order in which what happened before the app goes in.
MID_SEASON = (
    "Starting mid-season? Enter what happened before the app in this order: first the books' first day and "
    "the opening balances (the step above), then the payments members made since (Officers → Spreadsheet "
    "import, or Finance → Payments), then the results of each night already played, oldest first, on its "
    "results page. A member plays a past night only if the payments show them in good standing on its date, "
    "so results entered before the payments leave members out. Nights entered after the fact send no e-mail: "
    "the results e-mail goes out only for results made final on the night or the day after. A club that "
    "starts at the beginning of a season has no night to enter here."
)


@dataclass(frozen=True)
class Facts:
    """What the predicates read, once."""

    today: dt.date
    season: Season | None
    confirmed: frozenset[str]
    audit_actions: frozenset[str]


@dataclass(frozen=True)
class Step:
    slug: str
    title: str
    text: str
    who: str
    url: Callable[[Facts], str]
    done: Callable[[Facts], bool]
    confirmable: bool = False
    per_season: bool = False  # a confirmation holds for the season it was given in


def _confirmation_key(step: Step, season: Season | None) -> str | None:
    """What a confirmation of ``step`` records (None: nothing to confirm yet, a season's step before a season)."""
    if not step.per_season:
        return step.slug
    return f"{step.slug}:{season.pk}" if season is not None else None


@dataclass(frozen=True)
class StepState:
    slug: str
    title: str
    text: str
    who: str
    url: str
    done: bool
    confirmed: bool
    confirmable: bool


def _page(name: str) -> Callable[[Facts], str]:
    """The step's page by its URL name (NoReverseMatch while that page is not part of the build)."""
    return lambda facts: reverse(name)


def _identity_done(facts: Facts) -> bool:
    return any(a.startswith(IDENTITY_ACTIONS) for a in facts.audit_actions)


def _season_done(facts: Facts) -> bool:
    return facts.season is not None


def _venues_done(facts: Facts) -> bool:
    # Venues belong to the club, not to a season; a club that records none confirms the step instead.
    return Venue.objects.filter(active=True).exists()


def _past_nights(facts: Facts) -> QuerySet[Event]:
    """The season's nights dated before today whose results are not final yet (oldest first)."""
    return Event.objects.filter(season=facts.season, date__lt=facts.today).exclude(status=Event.Status.FINAL)


def _past_nights_url(facts: Facts) -> str:
    """The results page of the oldest night still to enter; the schedule when there is none."""
    season = facts.season
    first = _past_nights(facts).order_by("date", "number").first() if season is not None else None
    if season is None or first is None:
        return reverse("events:schedule_current")
    return reverse("events:results", kwargs={"season": season.name, "number": first.number})


def _past_nights_done(facts: Facts) -> bool:
    return facts.season is not None and not _past_nights(facts).exists()


def _rules_url(facts: Facts) -> str:
    if facts.season is None:  # the season rules page, where the first season is created
        return reverse("events:rules_current")
    return reverse("events:rules", kwargs={"season": facts.season.name})


def _rules_done(facts: Facts) -> bool:
    if facts.season is None:
        return False
    edited = AuditEntry.objects.filter(
        action="season.rules", target_type="events.season", target_id=str(facts.season.pk)
    ).exists()
    return edited or season_frozen_by(season=facts.season) is not None


def _officers_done(facts: Facts) -> bool:
    held = set(
        OfficerTerm.objects.filter(start__lte=facts.today, end__gte=facts.today).values_list(
            "office", flat=True
        )
    )
    return held >= set(OfficerTerm.Office.values)


def _seats(facts: Facts) -> QuerySet[Membership]:
    return Membership.objects.filter(season=facts.season, left_after_event__isnull=True)


def _roster_done(facts: Facts) -> bool:
    return facts.season is not None and _seats(facts).exists()


def _signatures_done(facts: Facts) -> bool:
    if facts.season is None or not _seats(facts).exists():
        return False
    return not _seats(facts).exclude(pk__in=RulesSignature.objects.values("membership_id")).exists()


def _opening_done(facts: Facts) -> bool:
    # Every asset account's balance recorded (a zero balance is recorded and posts nothing).
    return opening_balances_done()


def _invitations_done(facts: Facts) -> bool:
    if not _roster_done(facts):
        return False
    rows = invitation_rows(season=facts.season, on=facts.today, now=timezone.now())
    return not any(row.can_invite and row.state != InvitationState.PENDING for row in rows)


STEPS: tuple[Step, ...] = (
    Step(
        "identity",
        "Club identity",
        "The club's name, short name, time zone and the name of its rule book: every page, e-mail and PDF uses them.",
        "President",
        _page("club_identity"),
        _identity_done,
        confirmable=True,
    ),
    Step(
        "season",
        "The first season",
        "Create the season (its dates and its events come from the schedule rule) on the season rules page.",
        "any officer",
        _page("events:rules_current"),
        _season_done,
    ),
    Step(
        "venues",
        "Venues and event dates",
        "Add the places you play; then announce each event at its venue, or move it to its date, from the schedule. "
        "A club that records no venue marks this step done.",
        "any officer",
        _page("events:venues"),
        _venues_done,
        confirmable=True,
    ),
    Step(
        "rules",
        "The season's rules",
        "Points, payouts, dues, fees, the WSOP table and the blind structure, as your club voted them. "
        + RULES_FREEZE,
        "any officer",
        _rules_url,
        _rules_done,
        confirmable=True,
        per_season=True,
    ),
    Step(
        "roster",
        "The roster",
        "Import the members from a spreadsheet, or record and admit them one by one (Officers → Manage members).",
        "Vice President",
        _page("imports"),
        _roster_done,
    ),
    Step(
        "officers",
        "Officers' terms",
        "Who is President, Vice President and Treasurer, from when to when: the holders get the officers' pages. "
        "The President's term is start_club's; name the Vice President and the Treasurer once the roster holds them.",
        "President",
        _page("members:officer_terms"),
        _officers_done,
    ),
    Step(
        "signatures",
        "Rules signatures",
        "Each member signs the season's rules document before playing (§2.4): tick everyone who signed at once.",
        "Vice President",
        _page("members:signatures"),
        _signatures_done,
    ),
    Step(
        "opening",
        "Opening balances",
        "The money the club has when its books start in the app: cash box, checking and WSOP escrow, from the "
        "bank statement.",
        "Treasurer",
        _page("finance:opening_balances"),
        _opening_done,
    ),
    Step(
        "past_nights",
        "Nights already played",
        MID_SEASON,
        "Treasurer, then Vice President",
        _past_nights_url,
        _past_nights_done,
    ),
    Step(
        "invitations",
        "Invitations",
        "E-mail the members a link to choose their login (valid 7 days, used once).",
        "Vice President",
        _page("members:invitations"),
        _invitations_done,
    ),
)
SLUGS = frozenset(step.slug for step in STEPS)


def _facts() -> Facts:
    wanted = Q(action__startswith="setup.")
    for prefix in IDENTITY_ACTIONS:
        wanted |= Q(action__startswith=prefix)
    actions = AuditEntry.objects.filter(wanted)
    confirmed = set()
    seen = set()
    for action, data in actions.values_list("action", "data"):
        seen.add(action)
        if action == "setup.confirm" and isinstance(data, dict):
            confirmed.add(str(data.get("key", "")))
    return Facts(
        today=club_today(),
        season=current_season(),
        confirmed=frozenset(confirmed),
        audit_actions=frozenset(seen),
    )


def setup_steps() -> list[StepState]:
    """The checklist as it stands: each step whose page exists, with its link and whether it is done."""
    facts = _facts()
    states = []
    for step in STEPS:
        try:
            url = step.url(facts)
        except NoReverseMatch:
            continue
        key = _confirmation_key(step, facts.season)
        confirmed = key is not None and key in facts.confirmed
        states.append(
            StepState(
                slug=step.slug,
                title=step.title,
                text=step.text,
                who=step.who,
                url=url,
                done=confirmed or step.done(facts),
                confirmed=confirmed,
                confirmable=step.confirmable and key is not None,
            )
        )
    return states


@dataclass(frozen=True)
class Checklist:
    steps: list[StepState]
    done: int
    total: int

    @property
    def complete(self) -> bool:
        return self.done == self.total


def setup_checklist() -> Checklist:
    """The steps with how many are done, as the Set-up page and the home page's card show them."""
    steps = setup_steps()
    return Checklist(steps=steps, done=sum(1 for step in steps if step.done), total=len(steps))


def setup_hidden() -> bool:
    """An officer hid the checklist from the home page (and nobody showed it again since)."""
    last = (
        AuditEntry.objects.filter(action__in=("setup.hide", "setup.show"))
        .order_by("-at", "-pk")
        .values_list("action", flat=True)
        .first()
    )
    return last == "setup.hide"


def setup_checklist_for_home() -> Checklist | None:
    """The checklist for an officer's home page: while some step is to do, nobody hid it, and the club is
    in its first season (from the second season on, the Set-up page alone keeps it)."""
    if setup_hidden() or Season.objects.count() > 1:
        return None
    checklist = setup_checklist()
    return None if checklist.complete else checklist


@transaction.atomic
def setup_step_confirm(*, slug: str, actor: Actor) -> None:
    """An officer says a step is done as it is (the bylaws' rules are the club's; the name is right)."""
    step = next((s for s in STEPS if s.slug == slug), None)
    if step is None or not step.confirmable:
        raise NcpcError("That step cannot be confirmed by hand: its page ticks it off.")
    season = current_season()
    key = _confirmation_key(step, season)
    if key is None:
        raise NcpcError("Create the season first: its rules are confirmed once it exists.")
    audit_record(
        actor=actor,
        action="setup.confirm",
        summary=f"Set-up: confirmed '{step.title}'" + (f" of {season}" if step.per_season else ""),
        data={"step": slug, "key": key},
    )


@transaction.atomic
def setup_checklist_show(*, show: bool, actor: Actor) -> None:
    """Hide the checklist from the home page, or show it there again (the Set-up page stays)."""
    audit_record(
        actor=actor,
        action="setup.show" if show else "setup.hide",
        summary="Set-up checklist shown on the home page"
        if show
        else "Set-up checklist hidden from the home page",
    )
