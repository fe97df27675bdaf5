"""The schedule's rows and an event's result rows as HTML, built in Python.

The schedule is a page every member opens, and its rows (one per event, each with links, dates and badges)
cost the template engine about 8,000 Python calls a request, these functions about 600; the results of a
night likewise. Text that comes from
the data goes through ``html.escape``; dates and numbers need none.
"""

import datetime as dt
import re
from html import escape

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from events.converters import SeasonConverter
from events.selectors import seasons_all
from ncpc.cache import computed


def _date(day: dt.date) -> str:  # the template's "D M j, Y"
    return f"{day:%a %b} {day.day}, {day.year}"


def _time(at: dt.time) -> str:  # the template's "g:i A"
    hour = at.hour % 12 or 12
    return f"{hour}:{at.minute:02d} {'PM' if at.hour >= 12 else 'AM'}"


def schedule_rows_html(*, season, events, next_event, today: dt.date, can_enter: bool) -> SafeString:
    """The ``<tr>`` rows of a season's schedule; the next event is highlighted."""
    # Every event page is /events/<season>/<number>/ (SPEC §14), under the season's schedule address.
    base = reverse("events:schedule", args=[season.name])
    rows = []
    for e in events:
        is_next = next_event is not None and e.pk == next_event.pk
        if e.venue_id and e.announced_on:
            venue = escape(str(e.venue))
            if e.announced_late:
                venue += ' <span class="badge text-bg-warning">announced late</span>'
        else:
            venue = '<span class="text-muted">to be announced</span>'
        if e.status == "final":
            status = '<span class="badge text-bg-success">results</span>'
        elif e.status == "in_progress":
            status = '<span class="badge text-bg-info">in progress</span>'
        elif e.date < today:
            status = '<span class="text-muted small">no results yet</span>'
        else:
            status = ""
        if can_enter and e.status != "final" and e.date <= today:
            status += f' <a class="small ms-1" href="{base}{e.number}/results/">enter results</a>'
        opening = '<tr class="table-primary">' if is_next else "<tr>"
        rows.append(
            f"{opening}<td>{e.number}</td>"
            f'<td><a href="{base}{e.number}/">{_date(e.date)}</a>'
            f'<span class="text-muted small d-block">{_time(e.starts_at)}{" · next" if is_next else ""}</span></td>'
            f"<td>{venue}</td>"
            f'<td class="d-none d-sm-table-cell">{status}</td></tr>'
        )
    return mark_safe("\n".join(rows))  # noqa: S308  # nosec B308 B703: data escaped above


def result_rows_html(lines) -> SafeString:
    """The ``<tr>`` rows of an event's results: place, player, points and prize (``ResultLine`` values)."""
    rows = []
    for line in lines:
        player = escape(line.name)
        if line.removed_for_abuse:
            player += ' <span class="badge text-bg-danger">removed for abuse</span>'
        prize = ""
        if line.payout:
            prize = f"${line.payout.amount}"
            if line.substitute_name:
                prize += f'<span class="small text-muted d-block">to the {escape(line.payout.paid_to)}</span>'
        rows.append(
            f'<tr><td>{line.place}</td><td>{player}</td><td class="text-end">{line.points}</td>'
            f'<td class="text-end">{prize}</td></tr>'
        )
    return mark_safe("\n".join(rows))  # noqa: S308  # nosec B308 B703: data escaped above


@computed(lambda *, url_name, seasons=None: url_name)
def season_menu(*, url_name: str, seasons=None) -> list[tuple[str, str]]:
    """(season name, its page's address) for every season, newest first: a page's season menu. ``seasons``:
    every season, when the page has read them."""
    # One reverse() for the menu: a season's address is the sample's with its name in place (a name is four
    # digits, a dash, two digits, as the URL converters require; reverse() costs ~100 calls a season).
    sample = "0000-00"
    pattern = reverse(url_name, args=[sample])
    links = []
    for season in seasons if seasons is not None else seasons_all():
        if _SEASON_NAME.fullmatch(season.name) and pattern.count(sample) == 1:
            links.append((season.name, pattern.replace(sample, season.name)))
        else:
            links.append((season.name, reverse(url_name, args=[season.name])))
    return links


_SEASON_NAME = re.compile(SeasonConverter.regex)
