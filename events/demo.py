"""Demo seasons and venues for `manage.py load_demo`."""

from typing import TypedDict

from events.models import Attendance, Event, Night, Rsvp, Season, Venue
from events.services import attendance as attendance_services
from events.services import console as console_services
from events.services import night_arrivals, night_clock, night_seating
from events.services import results as results_services
from events.services import rsvp as rsvp_services
from events.services.event_edit import event_announce
from events.services.seasons import season_bounds, season_create
from events.services.seating import needs_balancing
from ncpc.core.clock import club_today


class _RsvpExtra(TypedDict, total=False):
    """What an answer of the demo adds to ``rsvp_answer``'s arguments."""

    substitute_name: str
    prize_to: str
    not_professional: bool
    exemption: bool


DEMO_VENUES = (
    ("Hammond house", "4410 Galbraith Rd, Cincinnati, OH"),
    ("Okafor house", "2215 Ridge Ave, Cincinnati, OH"),
    ("Brennan basement", "780 Compton Rd, Cincinnati, OH"),
)


def demo_season_load() -> Season:
    """The season containing today (created with the bylaws' rules if missing) and the club's venues."""
    today = club_today()
    start_year = today.year if today.month >= 8 else today.year - 1
    start, _end = season_bounds(start_year)
    season = Season.objects.filter(start=start).first() or season_create(start_year=start_year)
    for name, address in DEMO_VENUES:
        Venue.objects.get_or_create(name=name, defaults={"address": address})
    return season


def demo_context_season(context: dict) -> None:
    context["season"] = demo_season_load()


DEMO_STEPS = [(10, demo_context_season)]


def demo_results_load(context: dict) -> None:
    """Venues and announcements for the demo season, and believable results for the events already played.

    Uses the real commands (so good standing and signatures are asked of finance and members). Events with
    results already are left alone, so running it again adds nothing.
    """
    import datetime as dt
    import random

    season = context["season"]
    today = club_today()
    venues = list(Venue.objects.filter(name__in=[name for name, _ in DEMO_VENUES]).order_by("name"))
    rng = random.Random(f"ncpc-demo-{season.name}")  # the same believable nights every time
    night = demo_current_night(season=season)
    current = night.pk if night is not None else None
    for event in season.events.order_by("number"):
        if event.announced_on is None and event.date - dt.timedelta(days=season.announce_days_ahead) <= today:
            _demo_event_announce(event=event, season=season, venues=venues)
        if event.date >= today or event.status == Event.Status.FINAL or event.pk == current:
            continue
        if event.eliminations.exists():
            # The night in progress of an earlier run of the demo, over now: the rest play it out.
            _night_play_out(event=event, rng=rng)
            continue
        _played_attendance_set(event=event)
        playing = [r.pk for r in event.attendances.filter(status__in=Attendance.PLAYING).order_by("pk")]
        if len(playing) < 2:
            continue  # nobody eligible to play yet (no payments or signatures in the demo data): no results
        _played_results_record(event=event, playing=playing, rng=rng)


def _demo_event_announce(*, event: Event, season: Season, venues: list[Venue]) -> None:
    """Announce a demo event at its venue, a week ahead of the notice (event 3 late, inside the notice)."""
    import datetime as dt

    ahead = season.announce_days_ahead + (7 if event.number != 3 else -4)  # event 3 was announced late
    event_announce(
        event=event,
        venue=venues[(event.number - 1) % len(venues)],
        actor=None,
        confirm_late=True,
        on=event.date - dt.timedelta(days=ahead),
    )
    event.refresh_from_db()


def _played_attendance_set(*, event: Event) -> None:
    """The attendance of a night played: one absent member whose chips were removed, one substitute
    (event 2), everyone else plays."""
    attendance_services.attendance_prepare(event=event)
    event.refresh_from_db()
    attendance_services.attendance_recheck(event=event, version=event.results_version, actor=None)
    event.refresh_from_db()
    rows = list(event.attendances.select_related("membership__person").order_by("membership__person__key"))
    by_key = {row.membership.person.key: row for row in rows}
    absent_key = ("ned", "lou", "kim", "max")[(event.number - 1) % 4]
    if absent_key in by_key and by_key[absent_key].status == Attendance.Status.EXPECTED:
        attendance_services.attendance_set(
            event=event,
            attendance_id=by_key[absent_key].pk,
            status=Attendance.Status.ABSENT,
            version=event.results_version,
            actor=None,
        )
        event.refresh_from_db()
    if event.number == 2 and "gus" in by_key and by_key["gus"].status == Attendance.Status.EXPECTED:
        attendance_services.substitute_set(
            event=event,
            attendance_id=by_key["gus"].pk,
            name="Carl Wendt",
            not_professional=True,
            prize_to=Attendance.PrizeTo.SUBSTITUTE,
            version=event.results_version,
            actor=None,
        )
        event.refresh_from_db()


def _played_results_record(*, event: Event, playing: list[int], rng) -> None:
    """The busts of a night played in a random order (a same-hand double bust mid-tournament), then its
    results finished: the last one left wins."""
    rng.shuffle(playing)
    order = playing[:-1]  # the last one left wins
    double_at = len(order) // 2  # a same-hand double bust mid-tournament
    i = 0
    while i < len(order):
        if i == double_at and i + 1 < len(order):
            pair = order[i : i + 2]
            chips = {pair[0]: rng.randrange(20, 60) * 500, pair[1]: rng.randrange(60, 120) * 500}
            results_services.bust_record(
                event=event,
                attendance_ids=pair,
                start_chips=chips,
                version=event.results_version,
                actor=None,
            )
            i += 2
        else:
            results_services.bust_record(
                event=event, attendance_ids=[order[i]], version=event.results_version, actor=None
            )
            i += 1
        event.refresh_from_db()
    if len(playing) >= 2:
        results_services.results_finish(event=event, version=event.results_version, actor=None)


DEMO_STEPS.append((30, demo_results_load))


# ---------------------------------------------------------------------------------------------------------
# A night in progress (issue 19): so a new user sees the night console at once


def demo_current_night(*, season: Season) -> Event | None:
    """The demo's night in progress: the season's event dated today, else the last one held before today
    (the demo leaves it running, not final), None before the season's first event. A night someone finished
    stays finished."""
    today = club_today()
    event = season.events.filter(date__lte=today).order_by("-date", "-number").first()
    if event is None or event.status == Event.Status.FINAL:
        return None
    return event


def _night_play_out(*, event: Event, rng) -> None:
    """Bust everyone still in but one, in a random order, and make the results final (chips of players who
    never came come off)."""
    event.refresh_from_db()
    still_in = list(
        event.attendances.filter(status__in=Attendance.PLAYING, elimination__isnull=True).order_by("pk")
    )
    rng.shuffle(still_in)
    for row in still_in[:-1]:
        results_services.bust_record(
            event=event, attendance_ids=[row.pk], version=event.results_version, actor=None
        )
        event.refresh_from_db()
    if event.eliminations.exists():
        results_services.results_finish(event=event, version=event.results_version, actor=None)


# Who does what on the demo night: one member does not come (the seat is posted and folded), one calls in
# late and uses the exemption (§5.2.4, §6.3), one sends a substitute (§5.3). All of them pay on time; the
# first with the exemption (or a substitute) left this season does it.
NIGHT_ABSENT, NIGHT_LATE_KEYS, NIGHT_SUBSTITUTE_KEYS = "lou", ("kim", "ivy", "ann"), ("cat", "eve", "ann")
NIGHT_SUBSTITUTE_NAME = "Dale Whitfield"
NIGHT_CLOCK_MINUTES = 40  # started this long ago: level 2 (25/50 and 50/100 are 30 minutes each)


def demo_night_load(context: dict) -> None:
    """The night in progress (``demo_current_night``), run through the same commands an officer uses: the
    members' answers (when the night is today), "Open the night", the seat draw, the clock started a while
    ago, a few busts that leave a table move to confirm. Added once: a night already opened is left as is."""
    import datetime as dt
    import random

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    season = context["season"]
    event = demo_current_night(season=season)
    if event is None or event.status != Event.Status.SCHEDULED or event.attendances.exists():
        return
    officer = get_user_model().objects.filter(username="vera").first()  # the Vice President runs the night
    rng = random.Random(f"ncpc-demo-night-{season.name}-{event.number}")
    now = timezone.now()
    started = now - dt.timedelta(minutes=NIGHT_CLOCK_MINUTES)
    roster = {
        m.person.key: m
        for m in event.season.memberships.select_related("person__user", "season").filter(
            person__key__in=(NIGHT_ABSENT, *NIGHT_LATE_KEYS, *NIGHT_SUBSTITUTE_KEYS)
        )
    }
    late_key, sub_key = _night_late_and_substitute(season=season, roster=roster)
    answered = event.date == club_today()  # answers are taken until the night is opened, on its day
    if answered:
        _night_answers_give(
            event=event,
            roster=roster,
            late_key=late_key,
            sub_key=sub_key,
            at=started - dt.timedelta(minutes=30),
        )
    rsvp_services.night_open(event=event, actor=officer)
    event.refresh_from_db()
    if not event.attendances.filter(status__in=Attendance.PLAYING).count() >= 4:
        return  # too few may play (nobody paid yet?): the night stays opened, without a clock
    rows = {r.membership.person.key: r for r in event.attendances.select_related("membership__person")}
    if not answered:
        _night_answers_entered(event=event, rows=rows, late_key=late_key, sub_key=sub_key, officer=officer)
    night_seating.seats_draw(event=event, version=0, actor=officer, rng=rng)
    night = Night.objects.get(event=event)
    night_clock.clock_command(
        event=event, action="start", version=night.clock_version, actor=officer, now=started
    )
    late = rows.get(late_key)
    if not answered and late is not None:
        late.refresh_from_db()
        if late.status == Attendance.Status.ABSENT:
            # The call came ten minutes into play; the exemption lets the member join in the second hour.
            night_arrivals.late_arrival_settle(
                event=event,
                attendance_id=late.pk,
                use_exemption=True,
                called_at=started + dt.timedelta(minutes=10),
                version=event.results_version,
                actor=officer,
            )
    _night_busts_record(event=event, rng=rng, officer=officer)


def _night_late_and_substitute(*, season: Season, roster: dict) -> tuple[str, str]:
    """The keys of the member who calls in late (exemption not taken yet) and of the one who sends a
    substitute (under the season's limit); "" when nobody may."""
    limit = season.substitutes_per_season
    late_key = next(
        (
            k
            for k in NIGHT_LATE_KEYS
            if k in roster and rsvp_services.exemption_taken(membership=roster[k]) is None
        ),
        "",
    )
    sub_key = next(
        (
            k
            for k in NIGHT_SUBSTITUTE_KEYS
            if k in roster
            and k != late_key
            and rsvp_services.substitutes_counted(membership=roster[k]) < limit
        ),
        "",
    )
    return late_key, sub_key


def _night_answers_give(*, event: Event, roster: dict, late_key: str, sub_key: str, at) -> None:
    """The members' answers, given before the night is opened: one not coming, one late, one a substitute."""
    answers: tuple[tuple[str, str, _RsvpExtra], ...] = (
        (NIGHT_ABSENT, Rsvp.Answer.NOT_COMING, {}),
        (late_key, Rsvp.Answer.LATE, {"exemption": True}),
        (
            sub_key,
            Rsvp.Answer.SUBSTITUTE,
            {
                "substitute_name": NIGHT_SUBSTITUTE_NAME,
                "not_professional": True,
                "prize_to": Attendance.PrizeTo.MEMBER,
            },
        ),
    )
    for key, answer, extra in answers:
        membership = roster.get(key)
        if membership is None:
            continue
        rsvp_services.rsvp_answer(
            event=event,
            membership=membership,
            answer=answer,
            actor=membership.person.user,
            now=at,
            **extra,
        )


def _night_answers_entered(*, event: Event, rows: dict, late_key: str, sub_key: str, officer) -> None:
    """The night is not today: what the answers would have done, entered on the night instead."""
    substitute = rows.get(sub_key)
    for away in (rows.get(NIGHT_ABSENT), rows.get(late_key)):  # the late member may still come
        if away is not None and away.status == Attendance.Status.EXPECTED:
            attendance_services.attendance_set(
                event=event,
                attendance_id=away.pk,
                status=Attendance.Status.ABSENT,
                version=event.results_version,
                actor=officer,
            )
            event.refresh_from_db()
    if substitute is not None and substitute.status == Attendance.Status.EXPECTED:
        attendance_services.substitute_set(
            event=event,
            attendance_id=substitute.pk,
            name=NIGHT_SUBSTITUTE_NAME,
            not_professional=True,
            prize_to=Attendance.PrizeTo.MEMBER,
            version=event.results_version,
            actor=officer,
        )
        event.refresh_from_db()


def _night_busts_record(*, event: Event, rng, officer) -> None:
    """Three busts: one at the bigger table (at the other when they are even), then two at the other, which
    leaves it two players short: the console shows the balancing move to confirm."""
    tables = sorted(night_seating.calculator_tables(event=event), key=lambda t: (-t.size, t.number))
    playing = set(
        str(pk) for pk in event.attendances.filter(status__in=Attendance.PLAYING).values_list("pk", flat=True)
    )
    out: list[str] = []
    if len(tables) >= 2:
        big, small = tables[0], tables[-1]
        first = big if big.size > small.size else small
        out.append(rng.choice(sorted(p for p in first.seats.values() if p in playing)))
        out.extend(rng.sample(sorted(p for p in small.seats.values() if p in playing and p not in out), 2))
    else:
        out.extend(rng.sample(sorted(playing), 2))
    for player in out:
        event.refresh_from_db()
        results_services.bust_record(
            event=event, attendance_ids=[int(player)], version=event.results_version, actor=officer
        )
    if len(tables) >= 2:
        _night_button_moved(
            event=event, table_number=small.number, seat_count=small.seat_count, officer=officer
        )


def _night_button_moved(*, event: Event, table_number: int, seat_count: int, officer) -> None:
    """The move needs a free seat outside the blinds at the short table: the dealer moves the button on until
    one is (as at the table, a hand later)."""
    for _ in range(seat_count):
        overview = console_services.night_overview(event=event)
        if overview.next_move is not None or not needs_balancing(
            tables=night_seating.calculator_tables(event=event)
        ):
            break
        table = next(t for t in overview.tables if t.number == table_number)
        night = Night.objects.get(event=event)
        night_seating.button_set(
            event=event,
            table_number=table_number,
            seat=(table.button or 0) % table.seat_count + 1,
            version=night.seats_version,
            actor=officer,
        )


DEMO_STEPS.append((35, demo_night_load))
