"""Demo seasons and venues for `manage.py load_demo`."""

from events.models import Attendance, Event, Season, Venue
from events.services import attendance as attendance_services
from events.services import results as results_services
from events.services.event_edit import event_announce
from events.services.seasons import season_bounds, season_create
from ncpc.clock import club_today

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
    for event in season.events.order_by("number"):
        if event.announced_on is None and event.date - dt.timedelta(days=season.announce_days_ahead) <= today:
            ahead = season.announce_days_ahead + (
                7 if event.number != 3 else -4
            )  # event 3 was announced late
            event_announce(
                event=event,
                venue=venues[(event.number - 1) % len(venues)],
                actor=None,
                confirm_late=True,
                on=event.date - dt.timedelta(days=ahead),
            )
            event.refresh_from_db()
        if event.date >= today or event.status == Event.Status.FINAL or event.eliminations.exists():
            continue
        attendance_services.attendance_prepare(event=event)
        event.refresh_from_db()
        attendance_services.attendance_recheck(event=event, version=event.results_version, actor=None)
        event.refresh_from_db()
        rows = list(
            event.attendances.select_related("membership__person").order_by("membership__person__key")
        )
        by_key = {row.membership.person.key: row for row in rows}
        # One absent member whose chips were removed, one substitute (event 2), everyone else plays.
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
        playing = [r.pk for r in event.attendances.filter(status__in=Attendance.PLAYING).order_by("pk")]
        if len(playing) < 2:
            continue  # nobody eligible to play yet (no payments or signatures in the demo data): no results
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
