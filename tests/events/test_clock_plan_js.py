"""The clock computed on the device (static/js/clock_plan.js, issue 20) agrees with the server's
(events/services/clock.py) through levels, a pause, skips, the breaks and the chip-removal notice. Runs the
script in Node, every case of a test in one process (clock_plan_run.js beside this file); skipped when Node is
missing."""

import datetime as dt
import json
import shutil
import subprocess  # nosec B404 - runs the project's own script in node
from pathlib import Path

import pytest

from events import selectors
from events.models import Attendance
from events.services import night_clock
from tests.events.factories import night_make

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed"),
]

RUNNER = Path(__file__).resolve().with_name("clock_plan_run.js")
T0 = dt.datetime(2026, 12, 12, 19, 0, tzinfo=dt.UTC)
FIELDS = (
    "started",
    "running",
    "paused",
    "index",
    "kind",
    "level_number",
    "small_blind",
    "big_blind",
    "ante",
    "seconds_left",
    "seconds_to_next_break",
    "late_arrival_due",
)


def node_run(cases: dict) -> dict:
    """The device's answers to every case at once (see clock_plan_run.js): one Node process, not one a case."""
    done = subprocess.run(  # noqa: S603  # nosec B603
        ["node", str(RUNNER)],  # noqa: S607  # nosec B607
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(done.stdout)


def test_the_device_computes_the_same_clock_as_the_server(season):
    event, seats = night_make(season=season, players=6)
    seats["a"].status = Attendance.Status.ABSENT
    seats["a"].save()
    structure = selectors.season_rules(season).blind_structure
    assert any(level.kind == "break" for level in structure)  # the bylaws' structure has breaks

    def at(seconds: int) -> dt.datetime:
        return T0 + dt.timedelta(seconds=seconds)

    version = 0
    for action, when in (("start", 0), ("pause", 600), ("resume", 900), ("skip", 1000)):
        night_clock.clock_command(event=event, action=action, version=version, actor=None, now=at(when))
        version += 1
    plan = night_clock.clock_plan(event=event, now=at(1000))
    last = night_clock.clock_payload(event=event, now=at(1000))  # what the screen last heard
    # From just after the skip to past the first break and the end of level 2 (chips off for the absent).
    instants = range(1001, 3 * 3600, 97)
    assert len(instants) == 102
    device = node_run({"compute": [[plan, last, int(at(s).timestamp() * 1000)] for s in instants]})["compute"]
    assert len(device) == len(instants)
    differ = []
    for seconds, state in zip(instants, device, strict=True):
        server = night_clock.clock_payload(event=event, now=at(seconds))
        if {f: state[f] for f in FIELDS} != {f: server[f] for f in FIELDS}:
            differ.append((seconds, {f: (state[f], server[f]) for f in FIELDS if state[f] != server[f]}))
    assert differ == []


def test_the_device_applies_clock_changes_as_the_server_does(season):
    """The console's clock changes queued offline (start, pause, resume, skip, back) move the device's plan as
    the server's clock_command moves the night."""
    event, _seats = night_make(season=season, players=6)

    def at(seconds: int) -> dt.datetime:
        return T0 + dt.timedelta(seconds=seconds)

    before = night_clock.clock_plan(event=event, now=at(0))
    last = night_clock.clock_payload(event=event, now=at(0))
    changes = (("start", 0), ("pause", 600), ("resume", 900), ("skip", 1000), ("back", 1700), ("skip", 2000))
    for version, (action, when) in enumerate(changes):
        night_clock.clock_command(event=event, action=action, version=version, actor=None, now=at(when))
    server = night_clock.clock_plan(event=event, now=at(2000))
    timed = [[a, int(at(w).timestamp() * 1000)] for a, w in changes]
    device = node_run({"change": [[before, last, timed]]})["change"][0]
    assert device["started_at"] == server["started_at"]
    assert device["paused_at"] == server["paused_at"]
    assert device["paused_seconds"] == pytest.approx(server["paused_seconds"])
    assert device["shift_seconds"] == pytest.approx(server["shift_seconds"])
