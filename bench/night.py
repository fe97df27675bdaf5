"""A tournament night's load on a running server, and the verdict on the speed goal (bench/run starts the server).

For SECONDS (default 60), with the Python standard library only (threads and http.client, a new connection per
request, as gunicorn's sync workers close each one):

- 20 phones poll once a second, as the app's pages do: 17 members watch the night's clock
  (``clock/state/?since=<the state's "since">``, what events/static/events/clock.js asks every second,
  ``Accept: application/json``: 204 while only the time moved, the whole state one poll in 15) and
  the three officers have the console open (``console/state/?since=<version>``, which answers 204 while
  nothing changed, and without ``since`` every 10 s followed by the offline conflicts' list, as console.js
  does; the Treasurer's console also reads the door list whenever the version moves);
- 3 officers act (the Vice President on two devices and the President), each on a console of their own that
  polls as above: every few seconds a bust of a player still in, then the undo of that bust (naming its
  hand), posted as console.js posts them (``console/act/``, ``Accept: application/json``, the CSRF token in
  ``X-CSRFToken``, the version the console showed; a conflict's answer carries the night as it is, and the
  officer tries again with it);
- 5 members browse the main pages (home, standings, schedule, the night's event page, a final event's page,
  their dues, the monthly report, the JSON report) with a pause after each page; one of them is the Treasurer.

Every device logs in first, through the login form. Then it prints, per page or endpoint, the requests, errors,
p50, p95 and the slowest; how long a change (a bust or an undo) took to show on every other phone, from the
officer's answer to each other phone's first answer that shows it (a console's version, a clock's "since"),
p95 and the slowest; the CPU time the server's processes (``--pids``) and
this generator used during the load, which other work on the machine does not inflate as it does a time; their
resident memory (VmRSS in /proc) after the load; and a verdict per target (``--verdict`` adds one shown as given:
bench/run's on the query counts). Exit status 0 whatever the verdict; 1 when the load could not run.
"""

import argparse
import http.client
import json
import math
import os
import random
import re
import threading
import time
import urllib.parse
from collections import defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

PASSWORD = "ncpc-demo-2026"  # noqa: S105  (the demo's logins: members/demo.py)
POLL_SECONDS = 1.0  # data-poll-ms of the clock and the console pages
FULL_POLL_SECONDS = 10.0  # console.js asks for the whole state this often
CLOCK_FULL_EVERY = 15  # clock.js asks for the whole state once in this many polls (FULL_EVERY)
ACT_SECONDS = 6.0  # an officer acts this often (a bust, then its undo)
BROWSE_PAUSE_SECONDS = 1.0  # a browsing member reads a page this long before the next
QUIET_SECONDS = 3.0  # the officers stop this long before the end, so that every change can be seen
TARGET_P95_MS = 100.0
TARGET_SEEN_S = 1.5
TARGET_RSS_MB = 400.0

CLOCK_WATCHERS = ("ann", "bob", "cat", "dan", "eve", "gus", "hal", "ivy", "joe", "kim", "lou", "max", "ned")
BROWSERS = ("ann", "bob", "cat", "dan", "tom")


@dataclass
class Sample:
    label: str
    ms: float
    ok: bool


@dataclass
class Poll:
    sent: float
    received: float
    results: int  # the results version the answer showed (a console's version, a clock's "since")


@dataclass
class Change:
    by: "Device"
    answered: float
    results: int


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.samples: list[Sample] = []
        self.changes: list[Change] = []
        self.conflicts = 0
        self.problems: list[str] = []

    def add(self, label: str, ms: float, ok: bool) -> None:
        with self.lock:
            self.samples.append(Sample(label, ms, ok))

    def problem(self, text: str) -> None:
        with self.lock:
            if len(self.problems) < 20:
                self.problems.append(text)


@dataclass
class Device:
    """One phone, laptop or browser: a login of its own (cookies) on a connection of its own."""

    name: str
    host: str
    port: int
    stats: Stats
    cookies: dict[str, str] = field(default_factory=dict)
    polls: list[Poll] = field(default_factory=list)

    def request(
        self,
        method: str,
        path: str,
        *,
        label: str = "",
        body: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        expect: tuple[int, ...] = (200,),
    ) -> tuple[int, bytes]:
        """One request on a new connection; its time is recorded under ``label`` (none when empty)."""
        head = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if self.cookies:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body).encode()
            head["Content-Type"] = "application/x-www-form-urlencoded"
        start = time.perf_counter()
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request(method, path, body=data, headers=head)
            response = connection.getresponse()
            content = response.read()
            status = response.status
            for value in response.headers.get_all("Set-Cookie") or []:
                jar: SimpleCookie = SimpleCookie()
                jar.load(value)
                for key, morsel in jar.items():
                    self.cookies[key] = morsel.value
        except OSError as exc:
            status, content = 0, str(exc).encode()
        finally:
            connection.close()
        ms = (time.perf_counter() - start) * 1000
        ok = status in expect
        if label:
            self.stats.add(label, ms, ok)
        if not ok:
            self.stats.problem(f"{self.name}: {method} {path} answered {status}")
        return status, content

    def log_in(self, username: str) -> None:
        status, page = self.request("GET", "/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if status != 200 or token is None:
            raise SystemExit(f"bench: the login page answered {status}")
        base = f"http://{self.host}:{self.port}"
        self.request(
            "POST",
            "/accounts/login/",
            body={"csrfmiddlewaretoken": token.group(1).decode(), "username": username, "password": PASSWORD},
            headers={"Referer": f"{base}/accounts/login/"},
            expect=(302,),
        )
        if "sessionid" not in self.cookies:
            raise SystemExit(f"bench: {username} could not log in")


def ticks(stop: float, every: float, phase: float):
    """The times a page's setInterval fires (from ``phase``), skipping those that fall while a request is in
    flight, as the pages do (one poll at a time)."""
    start = time.monotonic() + phase
    while True:
        now = time.monotonic()
        due = start + every * max(0, math.ceil((now - start) / every))
        if due >= stop:
            return
        time.sleep(max(0.0, due - now))
        yield due


class Console:
    """An officer's night console: polls the state; the acting ones bust a player, then undo that bust."""

    def __init__(self, device: Device, night: str, *, door: bool, acts: bool) -> None:
        self.device, self.night, self.door, self.acts = device, night, door, acts
        self.version = ""
        self.state: dict = {}
        self.last_full = -1e9
        self.out: tuple[int, int] | None = None  # (player, hand) of this officer's bust not yet undone

    def take(self, state: dict) -> None:
        moved = state["version"] != self.version
        self.state, self.version = state, state["version"]
        if moved and self.door:
            season, number = self.night.strip("/").split("/")[-2:]
            self.device.request(
                "GET", f"/finance/door/{season}/{number}/?fragment=1", label="door list (Treasurer's console)"
            )

    def poll(self) -> None:
        full = time.monotonic() - self.last_full >= FULL_POLL_SECONDS or not self.version
        path = f"{self.night}console/state/" + ("" if full else f"?since={urllib.parse.quote(self.version)}")
        sent = time.monotonic()
        label = "console state, whole (poll)" if full else "console state, since (poll)"
        status, body = self.device.request(
            "GET", path, label=label, headers={"Accept": "application/json"}, expect=(200, 204)
        )
        received = time.monotonic()
        if status == 200:
            self.take(json.loads(body))
        if status in (200, 204):
            self.device.polls.append(Poll(sent, received, int(self.version.split(".")[0])))
        if full:
            self.last_full = sent
            self.device.request(
                "GET",
                f"{self.night}night/conflicts/",
                label="offline conflicts (full poll)",
                headers={"Accept": "application/json"},
                # console.js asks on every console; the Treasurer (no results right) is refused, as in a browser
                expect=(403,) if self.door else (200,),
            )

    def act(self, rng: random.Random, stop_acting: float) -> None:
        for _attempt in range(
            3
        ):  # a conflict: the console shows the night as it is, and the officer taps again
            if time.monotonic() >= stop_acting:
                return
            if self.out is None:
                still_in = sorted(
                    s["player"] for t in self.state["tables"] for s in t["seats"] if s["player"] is not None
                )
                if len(still_in) < 3:
                    return
                player = rng.choice(still_in)
                form = {"action": "bust", "player": str(player)}
            else:
                player, hand = self.out
                form = {"action": "undo", "hand": str(hand)}
            form["version"] = self.version
            form["csrfmiddlewaretoken"] = self.device.cookies.get("csrftoken", "")
            status, body = self.device.request(
                "POST",
                f"{self.night}console/act/",
                label=f"console act: {form['action']} (POST)",
                body=form,
                headers={
                    "Accept": "application/json",
                    "X-CSRFToken": self.device.cookies.get("csrftoken", ""),
                },
                expect=(200, 409),
            )
            answered = time.monotonic()
            if status not in (200, 409):
                self.out = None  # refused (counted as an error): start again with a bust
                return
            answer = json.loads(body)
            self.take(answer["state"])
            if status == 409:
                with self.device.stats.lock:
                    self.device.stats.conflicts += 1
                continue
            results = int(answer["state"]["versions"]["results"])
            with self.device.stats.lock:
                self.device.stats.changes.append(Change(self.device, answered, results))
            if self.out is None:
                hands = [
                    b["hand"]
                    for b in answer["state"]["busts"]
                    if any(p["id"] == player for p in b["players"])
                ]
                self.out = (player, hands[0]) if hands else None
            else:
                self.out = None
            return

    def run(self, stop: float, stop_acting: float, seed: int) -> None:
        rng = random.Random(seed)
        next_act = time.monotonic() + rng.uniform(1.0, ACT_SECONDS)
        for _due in ticks(stop, POLL_SECONDS, rng.uniform(0, POLL_SECONDS)):
            self.poll()
            if self.acts and time.monotonic() >= next_act and self.state:
                self.act(rng, stop_acting)
                next_act += ACT_SECONDS


def clock_watch(device: Device, night: str, stop: float, seed: int) -> None:
    """As clock.js: ``?since=`` the state shown (204 while nothing changed), the whole state every
    CLOCK_FULL_EVERY polls and whenever the answer is not a 200 or a 204."""
    rng = random.Random(seed)
    since = ""
    for count, _due in enumerate(ticks(stop, POLL_SECONDS, rng.uniform(0, POLL_SECONDS))):
        full = not since or count % CLOCK_FULL_EVERY == 0
        query = "" if full else "?" + urllib.parse.urlencode({"since": since})
        label = "clock state, whole (poll)" if full else "clock state, since (poll)"
        sent = time.monotonic()
        status, body = device.request(
            "GET",
            f"{night}clock/state/{query}",
            label=label,
            headers={"Accept": "application/json"},
            expect=(200, 204),
        )
        if status == 200:
            since = json.loads(body)["since"]
        elif status != 204:
            since = ""
            continue
        device.polls.append(Poll(sent, time.monotonic(), int(since.split(".")[0])))


def browse(device: Device, pages: list[tuple[str, str]], stop: float, seed: int) -> None:
    rng = random.Random(seed)
    time.sleep(rng.uniform(0, BROWSE_PAUSE_SECONDS))
    while time.monotonic() < stop:
        for path, label in rng.sample(pages, len(pages)):
            if time.monotonic() >= stop:
                return
            device.request("GET", path, label=label)
            time.sleep(BROWSE_PAUSE_SECONDS)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (the value below which ``share`` of them fall)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def seen_after(change: Change, device: Device) -> float | None:
    """Seconds from the change's answer until ``device`` showed it (its first answer with that results version
    or a later one, a 204 counting as the version it was asked "since"); None when it never did."""
    for poll in device.polls:
        if poll.results >= change.results:
            return max(0.0, poll.received - change.answered)
    return None


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of these processes so far (fields 14 and 15 of /proc/PID/stat, counted after
    the command's closing parenthesis)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def rss_mb(pids: list[int]) -> float:
    total_kb = 0
    for pid in pids:
        with open(f"/proc/{pid}/status") as status:
            total_kb += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return total_kb / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--season", required=True)
    parser.add_argument("--night", type=int, required=True, help="the number of the event in progress")
    parser.add_argument("--final", type=int, required=True, help="the number of a final event")
    parser.add_argument("--month", required=True, help="the monthly report's yyyy/m")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pids", default="", help="the server's processes whose memory is counted")
    parser.add_argument(
        "--verdict", action="append", default=[], help="a verdict line to show with the others"
    )
    args = parser.parse_args()

    stats = Stats()
    night = f"/events/{args.season}/{args.night}/"

    def device(name: str, username: str) -> Device:
        made = Device(f"{name} ({username})", args.host, args.port, stats)
        made.log_in(username)
        return made

    watchers = [device(f"clock {i + 1}", CLOCK_WATCHERS[i % len(CLOCK_WATCHERS)]) for i in range(17)]
    consoles = [
        Console(device(f"console {u}", u), night, door=u == "tom", acts=False)
        for u in ("rick", "vera", "tom")
    ]
    acting = [
        Console(device(f"acting {u}", u), night, door=False, acts=True) for u in ("vera", "vera", "rick")
    ]
    browsers = [device(f"browser {u}", u) for u in BROWSERS]
    pages = [
        ("/", "home"),
        (f"/standings/{args.season}/", "standings"),
        (f"/events/{args.season}/", "schedule"),
        (night, "event page (the night's)"),
        (f"/events/{args.season}/{args.final}/", "event page (a final one)"),
        ("/finance/me/", "my dues"),
        (f"/finance/reports/{args.month}/", "monthly report"),
        (f"/api/v1/seasons/{args.season}/report", "JSON report"),
    ]
    stats.samples.clear()
    stats.problems.clear()

    pids = [int(p) for p in args.pids.split()]
    server_cpu, own_cpu = cpu_seconds(pids), time.process_time()
    started = time.monotonic()
    stop = started + args.seconds
    stop_acting = stop - QUIET_SECONDS
    threads = [threading.Thread(target=clock_watch, args=(d, night, stop, i)) for i, d in enumerate(watchers)]
    threads += [
        threading.Thread(target=c.run, args=(stop, stop_acting, 100 + i))
        for i, c in enumerate(consoles + acting)
    ]
    threads += [
        threading.Thread(target=browse, args=(d, pages, stop, 200 + i)) for i, d in enumerate(browsers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - started
    server_cpu, own_cpu = cpu_seconds(pids) - server_cpu, time.process_time() - own_cpu
    memory = rss_mb(pids) if pids else None

    by_label: dict[str, list[Sample]] = defaultdict(list)
    for sample in stats.samples:
        by_label[sample.label].append(sample)
    print(f"{len(stats.samples)} requests in {took:.0f} s ({len(stats.samples) / took:.1f} a second)")
    print()
    print(f"{'page or endpoint':42} {'requests':>8} {'errors':>6} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7}")
    main_pages = {label for _path, label in pages}
    worst = {True: ("", 0.0), False: ("", 0.0)}  # a main page's, and the night endpoints'
    errors = {True: 0, False: 0}
    for label in sorted(by_label, key=lambda k: (k not in main_pages, k)):
        rows = by_label[label]
        times = [s.ms for s in rows]
        bad = sum(not s.ok for s in rows)
        main = label in main_pages
        errors[main] += bad
        p95 = percentile(times, 0.95)
        if p95 > worst[main][1]:
            worst[main] = (label, p95)
        print(
            f"{label:42} {len(rows):8d} {bad:6d} {percentile(times, 0.5):7.1f} {p95:7.1f} {max(times):7.1f}"
        )
    for text in stats.problems:
        print(f"  {text}")

    # Every change, and the slowest of the other phones to show it.
    pollers = [c.device for c in consoles + acting] + watchers
    lags: list[float] = []
    unseen = 0
    for change in stats.changes:
        seen = [seen_after(change, d) for d in pollers if d is not change.by]
        if any(s is None for s in seen):
            unseen += 1
            continue
        lags.append(max(s for s in seen if s is not None))
    print()
    if lags:
        print(
            f"a change (bust or undo) on every other phone ({len(pollers) - 1} phones): {len(lags)} changes, "
            f"p50 {percentile(lags, 0.5):.2f} s, p95 {percentile(lags, 0.95):.2f} s, slowest {max(lags):.2f} s"
            f"{f', {unseen} never seen by some' if unseen else ''}; {stats.conflicts} conflicts tried again"
        )
    else:
        print("no change was recorded: the officers could not act")
    if pids:
        print(
            f"CPU during the load: the server {server_cpu:.1f} s ({server_cpu / took:.2f} of a core; PostgreSQL's "
            f"own not counted), the load generator {own_cpu:.1f} s ({own_cpu / took:.2f} of a core)"
        )
    if memory is not None:
        print(
            f"resident memory after the load: {memory:.0f} MB ({len(pids)} processes: gunicorn and the mail worker)"
        )

    print()
    print("verdict")
    for main, what in ((True, "every main page's"), (False, "the night's endpoints' (polls, acts)")):
        label, p95 = worst[main]
        met = p95 <= TARGET_P95_MS and errors[main] == 0
        print(
            f"  {what} p95 <= {TARGET_P95_MS:.0f} ms: highest {p95:.1f} ms ({label}), {errors[main]} errors: "
            f"{'met' if met else 'NOT met'}"
        )
    seen_met = bool(lags) and not unseen and max(lags) <= TARGET_SEEN_S
    slowest = f"{max(lags):.2f} s" if lags else "none measured"
    print(
        f"  a bust on every other phone <= {TARGET_SEEN_S} s: slowest {slowest}: {'met' if seen_met else 'NOT met'}"
    )
    for line in args.verdict:
        print(f"  {line}")
    if memory is not None:
        memory_met = memory <= TARGET_RSS_MB
        print(
            f"  memory <= {TARGET_RSS_MB:.0f} MB resident: {memory:.0f} MB: {'met' if memory_met else 'NOT met'}"
        )
    print("  instructions per request: reported by bench/instructions, not a target")


if __name__ == "__main__":
    main()
