"""The permission matrix (SPEC §12): every URL of the project, for every role, answers as the table says.

Roles: anonymous, a plain member (``member``, who owns the objects in the addresses: her statement, her
receipt, her profile), another plain member looking at those same addresses (``other``), and each office.
The data is the demo club (``load_demo`` under the frozen clock): ann is the member, bob the other member,
rick the President, vera the Vice President, tom the Treasurer.

A URL name missing from PAGES fails ``test_every_url_of_the_project_is_in_the_matrix``: a new page must say
who may open it before it can be merged. Every page is also posted to with empty data: roles without the
right get 403 (anonymous: the login redirect), roles with it get anything but 403 or a 5xx.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

ANON, MEMBER, OTHER, PRES, VP, TREAS = "anon", "member", "other", "president", "vice_president", "treasurer"
ROLES = (ANON, MEMBER, OTHER, PRES, VP, TREAS)
LOGGED_IN = ROLES[1:]
MEMBERS = LOGGED_IN
OFFICERS = (PRES, VP, TREAS)
USERNAMES = {MEMBER: "ann", OTHER: "bob", PRES: "rick", VP: "vera", TREAS: "tom"}
OK = "ok"  # for posts: got past the permission check (anything but 403 and 5xx)


def only(*roles: str, ok: int = 200, denied: int = 403, anon: int = 302) -> dict[str, int]:
    """``roles`` get ``ok``; other logged-in users ``denied``; anonymous the login redirect."""
    return {ANON: (ok if ANON in roles else anon)} | {r: (ok if r in roles else denied) for r in LOGGED_IN}


def everyone(status: int = 200) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


@dataclass(frozen=True)
class Page:
    get: dict[str, int]
    kwargs: Callable[[dict], dict] = lambda o: {}
    # POST with empty data: None → derived from ``get`` (403 stays 403, anonymous 302, else OK).
    post: dict[str, int | str] | None = None
    # Texts a role must not see on the GET answer (no page leaks data).
    hidden: dict[str, list[Callable[[dict], str]]] = field(default_factory=dict)


def post_only(*roles: str) -> Page:
    """A POST-only action: GET answers 405 (after the login redirect); POST by ``roles`` passes the check."""
    return dict(get=only(ok=405, denied=405), post=only(*roles, ok=OK))


def club(ok: int = 200) -> dict[str, int]:
    """Schedule, results, standings: members (NCPC_PUBLIC_STANDINGS is off in tests)."""
    return only(*MEMBERS, ok=ok)


SEASON = lambda o: {"season": o["season"]}  # noqa: E731
EVENT = lambda o: {"season": o["season"], "number": 4}  # noqa: E731
STATEMENT = {ANON: 302, MEMBER: 200, OTHER: 403, PRES: 200, VP: 403, TREAS: 200}

PAGES: dict[str, Page] = {
    # --- ncpc ---
    "home": Page(club()),
    "healthz": Page(everyone(), post=everyone(405)),
    # The installable night (issue 20): the service worker and the manifest hold no club data.
    "pwa_service_worker": Page(everyone(), post=everyone(405)),
    "pwa_manifest": Page(everyone(), post=everyone(405)),
    "reports": Page(club()),
    "about": Page(club()),
    # The club's name, time zone and rule book references (SPEC §16.7): the President.
    "club_identity": Page(only(PRES)),
    "audit": Page(only(*OFFICERS)),
    "mail_deliveries": Page(only(*OFFICERS)),
    "mail_send_again": Page(**post_only(*OFFICERS), kwargs=lambda o: {"delivery_id": 1}),
    # Spreadsheet import: members for the Vice President, payments for the Treasurer (the President both).
    "imports": Page(only(*OFFICERS)),
    # Starting a club in the app (SPEC §16.8): the set-up checklist, for every officer.
    "setup": Page(only(*OFFICERS)),
    "setup_confirm": Page(**post_only(*OFFICERS)),
    "setup_home": Page(**post_only(*OFFICERS)),
    # A season as the file import_season reads (issue 47): it holds dates of birth, so any officer.
    "season_files": Page(only(*OFFICERS)),
    "season_file_download": Page(only(*OFFICERS), SEASON),
    "api_season_report": Page(
        only(*MEMBERS, anon=401), SEASON, post={ANON: 405} | dict.fromkeys(LOGGED_IN, 405)
    ),
    # --- django.contrib.auth ---
    "login": Page(everyone()),
    "logout": Page(only(ok=405, denied=405), post=only(*MEMBERS, ok=302)),
    "password_change": Page(club()),
    "password_change_done": Page(club()),
    "password_reset": Page(everyone()),
    "password_reset_done": Page(everyone()),
    "password_reset_confirm": Page(everyone(), lambda o: {"uidb64": "MQ", "token": "set-password"}),
    "password_reset_complete": Page(everyone()),
    # --- members ---
    "members:directory": Page(club()),
    "members:profile": Page(
        club(),
        lambda o: {"key": "ann"},
        hidden={OTHER: [lambda o: "Date of birth"]},
    ),
    "members:turned_pro": Page(**post_only(PRES, VP), kwargs=lambda o: {"key": "ann"}),
    "members:person_edit": Page(only(PRES, VP), lambda o: {"key": "ann"}),
    # A login's own e-mail (SPEC §17.6): its owner, and not an officer other than the President (theirs is the
    # President's to change).
    "members:own_email": Page(
        only(*LOGGED_IN), post={ANON: 302, MEMBER: OK, OTHER: OK, PRES: OK, VP: 403, TREAS: 403}
    ),
    "members:manage": Page(only(PRES, VP)),
    "members:person_new": Page(only(PRES, VP)),
    "members:admit": Page(only(PRES, VP)),
    "members:waiting_list": Page(only(PRES, VP)),
    "members:waiting_list_move": Page(**post_only(PRES, VP), kwargs=lambda o: {"pk": o["waiting"]}),
    "members:waiting_list_withdraw": Page(**post_only(PRES, VP), kwargs=lambda o: {"pk": o["waiting"]}),
    "members:transfers": Page(only(PRES, VP)),
    "members:removals": Page(only(PRES, VP)),
    "members:suspensions": Page(only(PRES, VP)),
    "members:suspension_end": Page(**post_only(PRES, VP), kwargs=lambda o: {"pk": o["suspension"]}),
    "members:signatures": Page(only(PRES, VP)),
    "members:signature_withdraw": Page(**post_only(PRES, VP), kwargs=lambda o: {"pk": o["signature"]}),
    # Officers' terms follow the elections: the President's (SPEC §12); invitations with the roster.
    "members:officer_terms": Page(only(PRES)),
    "members:officer_term_end": Page(**post_only(PRES), kwargs=lambda o: {"pk": 1}),
    "members:invitations": Page(only(PRES, VP)),
    # The link is the key: no login needed; an unknown link is a clear page (404) for everyone.
    "members:invitation_accept": Page(
        everyone(404), lambda o: {"token": "no-such-token"}, post=everyone(404)
    ),
    "members:governance": Page(club()),
    "members:ballot": Page(club(), lambda o: {"pk": o["election"]}),
    "members:ballot_vote": Page(**post_only(*MEMBERS), kwargs=lambda o: {"pk": o["election"]}),
    "members:ballot_step": Page(**post_only(PRES), kwargs=lambda o: {"pk": o["election"], "step": "close"}),
    "members:election_new": Page(**post_only(PRES)),
    "members:nominate": Page(**post_only(PRES), kwargs=lambda o: {"pk": o["election"]}),
    "members:nomination_withdraw": Page(**post_only(PRES), kwargs=lambda o: {"pk": o["nomination"]}),
    "members:tie_resolve": Page(**post_only(PRES), kwargs=lambda o: {"pk": o["question"]}),
    "members:rule_changes": Page(club()),
    "members:rule_change_accept": Page(only(PRES, VP), lambda o: {"pk": o["rule_change"]}),
    "members:rule_change_decline": Page(**post_only(PRES, VP), kwargs=lambda o: {"pk": o["rule_change"]}),
    "members:rule_change_apply": Page(**post_only(*OFFICERS), kwargs=lambda o: {"pk": o["rule_change"]}),
    "members:rule_change_by_hand": Page(**post_only(*OFFICERS), kwargs=lambda o: {"pk": o["rule_change"]}),
    "members:vote_record": Page(only(PRES)),
    "members:who_rules": Page(club()),
    "members:rulings": Page(club()),
    "members:ruling_new": Page(only(*OFFICERS)),
    # --- events ---
    # Members read the season's rules (issue 15, item 11); only officers change them.
    "events:rules_current": Page(club(302), post=only(*MEMBERS, ok=OK)),
    "events:rules": Page(club(), SEASON, post=only(*OFFICERS, ok=OK)),
    "season_new": Page(**post_only(*OFFICERS)),
    # Moving the events not yet played to a new schedule rule (issue 47): the rules' officers.
    "events:season_reschedule": Page(only(*OFFICERS), SEASON, post=only(*OFFICERS, ok=OK)),
    "events:schedule_current": Page(club(302)),
    "events:venues": Page(only(*OFFICERS)),
    "events:venue_edit": Page(only(*OFFICERS), lambda o: {"pk": o["venue"]}),
    "events:calendar_feed": Page(
        everyone(), lambda o: {"user_id": o["ann_user"], "token": o["ann_token"]}, post=everyone(405)
    ),
    "events:schedule": Page(club(), SEASON),
    "events:season_ics": Page(club(), SEASON, post=only(*MEMBERS, ok=405)),
    "events:event": Page(club(), EVENT),
    "events:event_move": Page(**post_only(*OFFICERS), kwargs=EVENT),
    "events:event_announce": Page(**post_only(*OFFICERS), kwargs=EVENT),
    # Who's coming (issue 19): every member answers for their own seat (nothing posted names another's).
    "events:rsvp": Page(**post_only(*MEMBERS), kwargs=EVENT),
    "events:rsvp_record": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:attendance": Page(only(PRES, VP), EVENT),
    # Opening the night is attendance: the Treasurer at the door may too (issue 34).
    "events:attendance_prepare": Page(**post_only(PRES, VP, TREAS), kwargs=EVENT),
    "events:attendance_set": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:attendance_recheck": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:substitute_set": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:results": Page(only(PRES, VP), EVENT),
    "events:results_bust": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:results_abuse": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:results_undo": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:results_finish": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:results_reopen": Page(**post_only(PRES, VP), kwargs=EVENT),
    # Tournament night: members watch the clock and the seats; results officers run them.
    "events:clock": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "events:clock_state": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "events:clock_action": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:clock_plan": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "events:night": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "events:night_seats": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "event_sheet": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "event_sheet_page": Page(club(), EVENT, post=only(*MEMBERS, ok=405)),
    "events:night_draw": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_move": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_button": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_final": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_late": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_arrived": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_seat_add": Page(**post_only(PRES, VP), kwargs=EVENT),
    # Offline changes (issue 20): only results officers send a device's queue and settle its conflicts.
    "events:night_sync": Page(**post_only(PRES, VP), kwargs=EVENT),
    "events:night_conflicts": Page(only(PRES, VP), EVENT, post=only(*MEMBERS, ok=405)),
    "events:night_conflict_resolve": Page(**post_only(PRES, VP), kwargs=lambda o: EVENT(o) | {"pk": 1}),
    # The night console (issue 19): the officers who run the night; the Treasurer for attendance and the door
    # (issue 34: each action checks its own right, so a bust from the Treasurer is refused by the action).
    "events:console": Page(only(PRES, VP, TREAS), EVENT, post=only(*MEMBERS, ok=405)),
    "events:console_state": Page(only(PRES, VP, TREAS), EVENT, post=only(*MEMBERS, ok=405)),
    "events:console_act": Page(**post_only(PRES, VP, TREAS), kwargs=EVENT),
    # --- finance ---
    # Members without the ledger land on their own statement.
    "finance:index": Page({ANON: 302, MEMBER: 302, OTHER: 302, PRES: 200, VP: 302, TREAS: 200}),
    "finance:me": Page(club()),
    "finance:statement": Page(STATEMENT, lambda o: {"membership_id": o["ann_membership"]}),
    # Only the treasurer waives a late fee (SPEC §7), not even the President.
    "finance:waive": Page(**post_only(TREAS), kwargs=lambda o: {"membership_id": o["ann_membership"]}),
    "finance:payments": Page(only(PRES, TREAS)),
    "finance:receipt": Page(STATEMENT, lambda o: {"pk": o["ann_payment"]}),
    "finance:payment_reverse": Page(only(PRES, TREAS), lambda o: {"pk": o["ann_payment"]}),
    "finance:ledger": Page(only(PRES, TREAS)),
    "finance:transaction": Page(only(PRES, TREAS), lambda o: {"pk": o["transaction"]}),
    "finance:transfer": Page(only(PRES, TREAS)),
    # Opening balances (SPEC §16.6): the Treasurer, and the President as for every money form.
    "finance:opening_balances": Page(only(PRES, TREAS)),
    "finance:opening_balance_correct": Page(only(PRES, TREAS), lambda o: {"pk": o["opening_balance"]}),
    "finance:payouts": Page(only(PRES, TREAS)),
    "finance:payout_post": Page(**post_only(PRES, TREAS), kwargs=lambda o: {"event_id": o["event_id"]}),
    "finance:wsop": Page(club()),
    "finance:wsop_escrow": Page(**post_only(PRES, TREAS)),
    "finance:wsop_result": Page(**post_only(PRES, TREAS)),
    # Every officer approves checks (§4.7); only the ledger keepers write them.
    "finance:checks": Page(only(*OFFICERS), post=only(PRES, TREAS, ok=OK)),
    "finance:check_approve": Page(**post_only(*OFFICERS), kwargs=lambda o: {"pk": o["check"]}),
    # Voiding a check not yet issued: those who write checks (the Treasurer, the President).
    "finance:check_void": Page(only(PRES, TREAS), kwargs=lambda o: {"pk": o["check"]}),
    # A closed month's event corrected (SPEC §17.2): every officer approves; those who write checks void.
    "finance:payout_corrections": Page(only(*OFFICERS)),
    "finance:payout_correction_approve": Page(**post_only(*OFFICERS), kwargs=lambda o: {"pk": 1}),
    "finance:payout_correction_void": Page(**post_only(PRES, TREAS), kwargs=lambda o: {"pk": 1}),
    "finance:reminders": Page(only(PRES, TREAS)),
    "finance:payment_outlook": Page(only(PRES, TREAS), lambda o: {"membership_id": o["ann_membership"]}),
    "finance:door_list": Page(only(PRES, TREAS), EVENT),
    "finance:report_current": Page(club(302)),
    "finance:report": Page(
        club(),
        lambda o: {"year": 2026, "month": 11},
        hidden={MEMBER: [lambda o: o["bob_name"]], OTHER: [lambda o: o["ann_name"]]},
    ),
    "finance:report_close": Page(**post_only(PRES, TREAS), kwargs=lambda o: {"year": 2026, "month": 10}),
    # Bank statements (SPEC §17.3): every member reads them, the Treasurer keeps them; the reconciliation
    # (SPEC §17.4) is the Treasurer's. The demo keeps no statement: its file is a 404 for every member.
    "finance:bank_statements": Page(club(), post=only(PRES, TREAS, ok=OK)),
    "finance:bank_month": Page(club(), lambda o: {"year": 2026, "month": 11}, post=only(ok=405, denied=405)),
    "finance:bank_statement_file": Page(
        only(*MEMBERS, ok=404), lambda o: {"pk": 999999}, post=only(ok=405, denied=405)
    ),
    "finance:reconcile": Page(
        only(PRES, TREAS),
        lambda o: {"code": "checking", "year": 2026, "month": 10},
        post=only(PRES, TREAS, ok=405),
    ),
    "finance:reconcile_import": Page(
        **post_only(PRES, TREAS), kwargs=lambda o: {"code": "checking", "year": 2026, "month": 10}
    ),
    "finance:reconcile_balance": Page(
        **post_only(PRES, TREAS), kwargs=lambda o: {"code": "checking", "year": 2026, "month": 10}
    ),
    "finance:reconcile_difference": Page(
        **post_only(PRES, TREAS), kwargs=lambda o: {"code": "checking", "year": 2026, "month": 10}
    ),
    "finance:bank_line_match": Page(**post_only(PRES, TREAS), kwargs=lambda o: {"pk": 999999}),
    "finance:bank_line_unmatch": Page(**post_only(PRES, TREAS), kwargs=lambda o: {"pk": 999999}),
    # --- standings ---
    "standings:current": Page(club(302)),
    "standings:points_report_current": Page(club(302)),
    "standings:history": Page(club()),
    "standings:career": Page(club(), lambda o: {"key": "ann"}),
    "standings:season": Page(club(), SEASON),
    "standings:points_report": Page(club(), lambda o: {"season": o["season"], "year": 2026, "month": 11}),
    "standings:tie_breaks": Page(only(PRES, VP), SEASON),
    "standings:declines": Page(only(PRES, VP), SEASON),
    "standings:decline_withdraw": Page(
        **post_only(PRES, VP), kwargs=lambda o: {"season": o["season"], "pk": o["decline"]}
    ),
}


def project_url_names() -> set[str]:
    """Every named URL pattern of the project, recursively, without the Django admin and static files."""
    names: set[str] = set()

    def walk(patterns, namespace: str | None):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.app_name == "admin" or p.namespace == "admin":
                    continue
                ns = p.namespace or namespace
                walk(p.url_patterns, ns if p.namespace is None else p.namespace)
            elif isinstance(p, URLPattern):
                if "static" in str(p.pattern) or not p.name:
                    continue
                names.add(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns, None)
    return names


def test_every_url_of_the_project_is_in_the_matrix():
    missing = sorted(project_url_names() - set(PAGES))
    assert not missing, (
        f"These URL names are not in the permission matrix: {missing}. Add each one to PAGES in "
        "tests/test_permission_matrix.py with the status every role should get (SPEC §12)."
    )


@pytest.fixture
def club_data(db, today):
    """The demo club, plus the few objects the demo does not make (a check, a WSOP decline)."""
    import datetime as dt
    from decimal import Decimal

    from events.ical import calendar_token
    from events.models import Season, Venue
    from finance.models import Account, OpeningBalance, Payment, Transaction
    from finance.services.checks import disbursement_create
    from members.models import (
        Ballot,
        BallotQuestion,
        Membership,
        Nomination,
        Person,
        RuleChange,
        RulesSignature,
        Suspension,
        WaitingListEntry,
    )
    from standings.selectors import season_standings
    from standings.services.tie_breaks import wsop_decline_record

    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    season = Season.objects.get(name="2026-27")
    ann = Membership.objects.select_related("person__user").get(season=season, person__key="ann")
    bob = Membership.objects.select_related("person").get(season=season, person__key="bob")
    tom = Membership.objects.get(season=season, person__key="tom").person.user
    check = disbursement_create(
        date=dt.date(2026, 11, 20),
        payee="Hammond house",
        amount=Decimal("40.00"),
        memo="cards and chips",
        from_code=_check_accounts()[0],
        to_code=_check_accounts()[1],
        check_number="1001",
        signers=(Person.objects.get(key="rick"), Person.objects.get(key="tom")),
        actor=tom,
    ).record
    # An opening balance of the escrow (zero: it posts nothing), dated the day the demo's books start.
    opening = OpeningBalance.objects.create(
        account=Account.objects.get(code=Account.ESCROW),
        date=Transaction.objects.order_by("date").values_list("date", flat=True).first(),
        amount=Decimal("0.00"),
        recorded_by=tom,
    )
    qualified = next(r for r in season_standings(season=season).rows if r.wsop == "qualified")
    decline = wsop_decline_record(season=season, membership=qualified.membership, actor=tom)
    return {
        "season": season.name,
        "ann_membership": ann.pk,
        "ann_user": ann.person.user.pk,
        "ann_token": calendar_token(user=ann.person.user),
        "ann_name": ann.person.full_name,
        "bob_name": bob.person.full_name,
        "ann_payment": Payment.objects.filter(membership=ann).order_by("pk").first().pk,
        "transaction": Transaction.objects.order_by("pk").first().pk,
        "venue": Venue.objects.order_by("pk").first().pk,
        "waiting": WaitingListEntry.objects.order_by("pk").first().pk,
        "suspension": Suspension.objects.order_by("pk").first().pk,
        "signature": RulesSignature.objects.order_by("pk").first().pk,
        "election": Ballot.objects.get(kind=Ballot.Kind.ELECTION).pk,
        "nomination": Nomination.objects.order_by("pk").first().pk,
        "question": BallotQuestion.objects.order_by("pk").first().pk,
        "rule_change": RuleChange.objects.order_by("pk").first().pk,
        "event_id": season.events.get(number=4).pk,
        "check": check.pk,
        "decline": decline.pk,
        "opening_balance": opening.pk,
    }


def _check_accounts() -> tuple[str, str]:
    from finance.services.checks import FROM_ACCOUNTS, TO_ACCOUNTS

    return sorted(FROM_ACCOUNTS)[0], sorted(TO_ACCOUNTS)[0]


def _clients() -> dict[str, Client]:
    from django.contrib.auth import get_user_model

    clients = {ANON: Client(raise_request_exception=False)}
    for role, username in USERNAMES.items():
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(get_user_model().objects.get(username=username))
    return clients


def _matches(expected, status: int) -> bool:
    if expected == OK:
        return status != 403 and status < 500
    return status == expected


def test_every_page_answers_every_role_as_spec_12_says_and_never_500(club_data):
    clients = _clients()
    wrong: list[str] = []
    names = sorted(project_url_names() & set(PAGES))
    for name in names:
        page = PAGES[name]
        url = reverse(name, kwargs=page.kwargs(club_data))
        for role in ROLES:
            response = clients[role].get(url)
            if not _matches(page.get[role], response.status_code):
                wrong.append(f"GET {name} {url} as {role}: {response.status_code}, expected {page.get[role]}")
            if response.status_code == 200 and hasattr(response, "content"):
                body = response.content.decode(errors="replace")
                for text in page.hidden.get(role, []):
                    if text(club_data) in body:
                        wrong.append(f"GET {name} as {role} shows {text(club_data)!r}")
    for name in names:
        page = PAGES[name]
        url = reverse(name, kwargs=page.kwargs(club_data))
        post = page.post or {
            role: (403 if status == 403 else 302 if role == ANON and status == 302 else OK)
            for role, status in page.get.items()
        }
        for role in ROLES:
            response = clients[role].post(url, {})
            if not _matches(post[role], response.status_code):
                wrong.append(f"POST {name} {url} as {role}: {response.status_code}, expected {post[role]}")
            if name == "logout" and role != ANON:
                clients[role] = _clients()[role]
    assert not wrong, "\n".join(wrong)


def test_item_13_every_page_refuses_a_nul_character_with_400_for_every_role(club_data):
    """Issue 15, item 13: a NUL in the query string or in posted data is refused at the door on every page
    (PostgreSQL cannot store or compare it; it once gave 500s on the admit page, the audit page and the API)."""
    clients = _clients()
    wrong: list[str] = []
    for name in sorted(project_url_names() & set(PAGES)):
        url = reverse(name, kwargs=PAGES[name].kwargs(club_data))
        for role in (ANON, MEMBER, PRES):
            got = clients[role].get(url, {"q": "a\x00b"}).status_code
            posted = clients[role].post(url, {"reason": "a\x00b"}).status_code
            if (got, posted) != (400, 400):
                wrong.append(f"{name} as {role}: GET {got}, POST {posted}")
    assert not wrong, "\n".join(wrong)


def test_the_json_report_gives_a_member_only_their_own_dues_row_and_officers_all_spec_15_12(club_data):
    """SPEC §15.12: a member sees their own dues and the club's totals; only officers see every member's."""
    clients = _clients()
    url = reverse("api_season_report", kwargs={"season": club_data["season"]})
    rows = {role: clients[role].get(url).json()["dues"] for role in (MEMBER, OTHER, PRES, VP, TREAS)}
    assert [row["member"] for row in rows[MEMBER]] == ["ann"]
    assert [row["member"] for row in rows[OTHER]] == ["bob"]
    for officer in OFFICERS:
        assert {"ann", "bob", "rick", "vera", "tom"} <= {row["member"] for row in rows[officer]}
