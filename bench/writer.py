"""The writer of bench/run's mixed mode: one change a second while members read, as on a tournament night.

Changes alternate between a payment ($1.00 in cash, recorded by the treasurer, members in turn) and a seat at
the next open event set to absent or back to playing. Both go through the app's commands, so each writes an
audit row and moves the data version, and the computed cache has to start again.

    python bench/writer.py prepare       list the seats of the next open event (once, before any measuring)
    python bench/writer.py run SECONDS   write until SECONDS have passed or SIGTERM; print how many changes
"""

import datetime as dt
import os
import signal
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ncpc.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from events.models import Attendance, Event  # noqa: E402
from events.selectors import current_season  # noqa: E402
from events.services.attendance import attendance_prepare, attendance_set  # noqa: E402
from finance.services.payments import payment_record  # noqa: E402
from members.models import Membership  # noqa: E402
from ncpc.core.clock import club_today  # noqa: E402

TREASURER = "tom"


def next_open_event(*, season) -> Event:
    event = season.events.exclude(status=Event.Status.FINAL).order_by("date", "number").first()
    if event is None:
        raise SystemExit("writer: the season has no open event")
    return event


def payment_make(*, memberships: list[Membership], turn: int, today: dt.date, actor) -> None:
    payment_record(
        membership=memberships[turn % len(memberships)],
        date=today,
        amount=Decimal("1.00"),
        method="cash",
        reference=f"bench-{turn}",
        actor=actor,
    )


def seat_toggle(*, event: Event, seat_id: int, actor) -> None:
    event.refresh_from_db()
    seat = Attendance.objects.get(pk=seat_id)
    status = (
        Attendance.Status.ABSENT if seat.status == Attendance.Status.EXPECTED else Attendance.Status.EXPECTED
    )
    attendance_set(
        event=event, attendance_id=seat_id, status=status, version=event.results_version, actor=actor
    )


def run(*, seconds: float) -> None:
    stop = False

    def on_term(signum, frame):
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)

    season = current_season()
    today = club_today()
    if not season.start <= today <= season.end:
        raise SystemExit(f"writer: the club's date {today} is outside {season}")
    actor = get_user_model().objects.get(username=TREASURER)
    memberships = list(
        Membership.objects.filter(season=season).select_related("person", "season").order_by("pk")
    )
    event = next_open_event(season=season)
    seat = (
        Attendance.objects.filter(event=event, status=Attendance.Status.EXPECTED, substitute_name="")
        .order_by("pk")
        .first()
    )
    if seat is None:
        raise SystemExit(f"writer: no playing seat at {event} (run `writer.py prepare` first)")

    started = time.monotonic()
    payments = seats = 0
    while not stop and time.monotonic() - started < seconds:
        if (payments + seats) % 2 == 0:
            payment_make(memberships=memberships, turn=payments, today=today, actor=actor)
            payments += 1
        else:
            seat_toggle(event=event, seat_id=seat.pk, actor=actor)
            seats += 1
        # One change a second, on the second: a slow change shortens the pause, it does not add up.
        pause = started + payments + seats - time.monotonic()
        if pause > 0:
            time.sleep(pause)
    took = time.monotonic() - started
    print(
        f"{payments + seats} changes in {took:.0f} s ({payments} payments, {seats} seat changes at {event})"
    )


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "prepare":
        event = next_open_event(season=current_season())
        added = attendance_prepare(event=event)
        print(f"{added} seats listed at {event}")
    elif command == "run" and len(sys.argv) == 3:
        run(seconds=float(sys.argv[2]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
