"""Accessibility in the browser (issue 35, parts 2 and 7): axe-core finds no WCAG 2.1 A/AA violation on the main
pages of each role, at a phone's width and a desktop's, and the wide tables fit a phone without sideways
scrolling.

axe-core is vendored under static/vendor/axe-core/ (no page links it: only these tests inject it, from the live
server itself, so the pages' Content-Security-Policy allows it). The data is the demo club (``load_demo`` under
the frozen clock): ann is a member, tom the Treasurer, rick the President, vera the Vice President.
"""

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

AXE = "/static/vendor/axe-core/axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

VISITOR, MEMBER, TREASURER, PRESIDENT, VICE_PRESIDENT = None, "ann", "tom", "rick", "vera"

# (who, URL name, kwargs from the demo's objects). Each role's main pages; a page is listed once, by the role
# that sees the most of it (an officer sees the member's pages with more on them).
Url = tuple[str | None, str, Callable[[dict], dict]]
NONE: Callable[[dict], dict] = lambda o: {}  # noqa: E731
SEASON: Callable[[dict], dict] = lambda o: {"season": o["season"]}  # noqa: E731
EVENT: Callable[[dict], dict] = lambda o: {"season": o["season"], "number": 4}  # noqa: E731
MONTH: Callable[[dict], dict] = lambda o: {"year": 2026, "month": 11}  # noqa: E731
PAGES: list[Url] = [
    (VISITOR, "login", NONE),
    (VISITOR, "password_reset", NONE),
    (MEMBER, "home", NONE),
    (MEMBER, "events:schedule", SEASON),
    (MEMBER, "events:event", EVENT),
    (MEMBER, "standings:season", SEASON),
    (MEMBER, "standings:history", NONE),
    (MEMBER, "standings:career", lambda o: {"key": "ann"}),
    (MEMBER, "standings:points_report", lambda o: {"season": o["season"], "year": 2026, "month": 11}),
    (MEMBER, "members:profile", lambda o: {"key": "ann"}),
    (MEMBER, "members:directory", NONE),
    (MEMBER, "members:governance", NONE),
    (MEMBER, "members:ballot", lambda o: {"pk": o["election"]}),
    (MEMBER, "members:rule_changes", NONE),
    (MEMBER, "members:who_rules", NONE),
    (MEMBER, "members:rulings", NONE),
    (MEMBER, "events:rules", SEASON),
    (MEMBER, "finance:me", NONE),
    (MEMBER, "finance:wsop", NONE),
    (MEMBER, "finance:report", MONTH),
    (MEMBER, "reports", NONE),
    (MEMBER, "about", NONE),
    (MEMBER, "password_change", NONE),
    (TREASURER, "home", NONE),
    (TREASURER, "finance:index", NONE),
    (TREASURER, "finance:statement", lambda o: {"membership_id": o["ann_membership"]}),
    (TREASURER, "finance:receipt", lambda o: {"pk": o["ann_payment"]}),
    (TREASURER, "finance:payments", NONE),
    (TREASURER, "finance:ledger", NONE),
    (TREASURER, "finance:transaction", lambda o: {"pk": o["transaction"]}),
    (TREASURER, "finance:transfer", NONE),
    (TREASURER, "finance:opening_balances", NONE),
    (TREASURER, "finance:payouts", NONE),
    (TREASURER, "finance:wsop", NONE),
    (TREASURER, "finance:checks", NONE),
    (TREASURER, "finance:reminders", NONE),
    (TREASURER, "finance:door_list", EVENT),
    (TREASURER, "finance:report", MONTH),
    (TREASURER, "imports", NONE),
    (TREASURER, "setup", NONE),
    (TREASURER, "audit", NONE),
    (TREASURER, "mail_deliveries", NONE),
    (PRESIDENT, "home", NONE),
    (PRESIDENT, "members:removals", NONE),
    (PRESIDENT, "members:manage", NONE),
    (PRESIDENT, "members:admit", NONE),
    (PRESIDENT, "members:person_edit", lambda o: {"key": "ann"}),
    (PRESIDENT, "members:waiting_list", NONE),
    (PRESIDENT, "members:transfers", NONE),
    (PRESIDENT, "members:suspensions", NONE),
    (PRESIDENT, "members:signatures", NONE),
    (PRESIDENT, "members:officer_terms", NONE),
    (PRESIDENT, "members:invitations", NONE),
    (PRESIDENT, "members:vote_record", NONE),
    (PRESIDENT, "members:governance", NONE),
    (PRESIDENT, "members:ballot", lambda o: {"pk": o["election"]}),
    (PRESIDENT, "members:rule_changes", NONE),
    (PRESIDENT, "members:person_new", NONE),
    (PRESIDENT, "members:ruling_new", NONE),
    (PRESIDENT, "events:rules", SEASON),
    (PRESIDENT, "club_identity", NONE),
    (PRESIDENT, "events:venues", NONE),
    (PRESIDENT, "standings:tie_breaks", SEASON),
    (PRESIDENT, "standings:declines", SEASON),
    (VICE_PRESIDENT, "home", NONE),
    (VICE_PRESIDENT, "events:schedule", SEASON),
    (VICE_PRESIDENT, "events:event", EVENT),
    (VICE_PRESIDENT, "events:attendance", EVENT),
    (VICE_PRESIDENT, "events:results", EVENT),
    (VICE_PRESIDENT, "events:console", EVENT),
    (VICE_PRESIDENT, "events:night", EVENT),
    (VICE_PRESIDENT, "events:clock", EVENT),
    (VICE_PRESIDENT, "setup", NONE),
]


# Known exceptions (none today): (URL name, axe rule) → why, each to be removed when its page is fixed.
KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {}
# Pages whose tables are still wider than a phone (none today): URL name → why.
KNOWN_WIDE: dict[str, str] = {}


@pytest.fixture
def demo(db, today):
    """The demo club, plus one removal (the demo has none before December) so the removals table has a row."""
    from events.models import Season
    from finance.models import Payment, Transaction
    from members.models import Ballot, Membership, Person, Removal
    from members.services.seats import member_remove

    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    season = Season.objects.get(name="2026-27")
    ann = Membership.objects.get(season=season, person__key="ann")
    member_remove(
        membership=Membership.objects.get(season=season, person__key="ned"),
        grounds=Removal.Grounds.ABUSE,
        held_on=today,
        yes=12,
        no=2,
        abstain=1,
        nominated_by=Person.objects.get(key="bob"),
        notes="Abuse of the dealer at the November event.",
    )
    return {
        "season": season.name,
        "ann_membership": ann.pk,
        "ann_payment": Payment.objects.filter(membership=ann).order_by("pk").first().pk,
        "transaction": Transaction.objects.order_by("pk").first().pk,
        "election": Ballot.objects.get(kind=Ballot.Kind.ELECTION).pk,
    }


def _log_in(context, live_server, username: str | None) -> None:
    """Log ``username`` in by handing the browser a session made on the server (no login form per role)."""
    context.clear_cookies()
    if username is None:
        return
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])


def _axe(page) -> list[dict]:
    page.add_script_tag(url=AXE)
    return page.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {runOnly: {type: "tag", values: tags}});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
            }));
        }""",
        WCAG,
    )


def _readable(url: str, role: str | None, violations: list[dict]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{url} as {role or 'visitor'}: {v['id']} ({v['impact']}) {v['help']}")
        for node in v["nodes"][:5]:
            summary = " ".join(node["summary"].split())[:300]
            lines.append(f"    {node['target']}: {summary}")
        if len(v["nodes"]) > 5:
            lines.append(f"    … and {len(v['nodes']) - 5} more")
    return "\n".join(lines)


class Visit(NamedTuple):
    name: str
    path: str


def _visits(browser, live_server, demo: dict, viewport: dict) -> Iterator[tuple[Visit, str | None, Any]]:
    """Open every page of PAGES as its role in one browser context of ``viewport``'s size."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        current: str | None = "nobody"
        for role, name, kwargs in PAGES:
            if role != current:
                _log_in(context, live_server, role)
                current = role
            path = reverse(name, kwargs=kwargs(demo))
            response = page.goto(f"{live_server.url}{path}")
            status = response.status if response is not None else None
            assert status == 200, f"{path} as {role or 'visitor'} answered {status}"
            yield Visit(name, path), role, page
    finally:
        context.close()


WIDER_THAN_THE_SCREEN = """() => {
    const limit = document.documentElement.clientWidth;
    const wide = [];
    // Inside a visually hidden box (1 px, overflow hidden: a stacked table's header row for screen readers).
    const hidden = (el) => {
        for (let a = el; a; a = a.parentElement) {
            if (getComputedStyle(a).overflow === "hidden" && a.getBoundingClientRect().width <= 1) return true;
        }
        return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.right > limit + 0.5 || box.left < -0.5) {
            const inScroller = el.parentElement && el.parentElement.closest('[role="region"][tabindex="0"]');
            if (inScroller || hidden(el)) continue;
            const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
                + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "");
            wide.push(`${name} (${Math.round(box.left)}–${Math.round(box.right)} px)`);
        }
    }
    return {scrollWidth: document.documentElement.scrollWidth, limit, wide};
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_no_wcag_2_1_aa_violation_on_the_main_pages_of_each_role(
    browser, live_server, demo, viewport
):
    found = []
    for url, role, page in _visits(browser, live_server, demo, viewport):
        violations = [v for v in _axe(page) if (url.name, v["id"]) not in KNOWN_VIOLATIONS]
        if violations:
            found.append(_readable(url.path, role, violations))
    assert not found, "axe-core (WCAG 2.1 A/AA) found violations:\n" + "\n".join(found)


def test_no_page_is_wider_than_a_phone(browser, live_server, demo):
    """At 390 px nothing sticks out past the screen's edge: wide tables stack their rows or drop columns, tab
    bars wrap. Only a focusable, labelled scroll region (role="region", tabindex="0") may hold wider content."""
    found = []
    for url, role, page in _visits(browser, live_server, demo, PHONE):
        if url.name in KNOWN_WIDE:
            continue
        result = page.evaluate(WIDER_THAN_THE_SCREEN)
        if result["wide"] or result["scrollWidth"] > result["limit"]:
            found.append(
                f"{url.path} as {role or 'visitor'}: page {result['scrollWidth']} px wide; "
                + "; ".join(result["wide"][:8])
            )
    assert not found, f"Wider than the {PHONE['width']} px screen:\n" + "\n".join(found)
