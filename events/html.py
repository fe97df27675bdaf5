"""The schedule's rows and an event's result rows as HTML, built in Python.

The schedule is a page every member opens, and its rows (one per event, each with links, dates and badges)
cost the template engine about 8,000 Python calls a request, these functions about 600; the results of a
night likewise. Text that comes from
the data goes through ``html.escape``; dates and numbers need none.
"""

import datetime as dt
from html import escape

from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from events.addresses import address
from events.selectors import seasons_all
from ncpc.cache import computed
from ncpc.dates import date_text


def schedule_rows_html(*, season, events, next_event, today: dt.date, can_enter: bool) -> SafeString:
    """The ``<tr>`` rows of a season's schedule; the next event is highlighted."""
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
            status += f' <a class="small ms-1" href="{address("events:results", season.name, e.number)}">enter results</a>'
        opening = '<tr class="table-primary">' if is_next else "<tr>"
        rows.append(
            f"{opening}<td>{e.number}</td>"
            f'<td><a href="{address("events:event", season.name, e.number)}">{date_text(e.date, "D M j, Y")}</a>'
            f'<span class="text-muted small d-block">{date_text(e.starts_at, "g:i A")}{" · next" if is_next else ""}</span></td>'
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
    return [(s.name, address(url_name, s.name)) for s in (seasons if seasons is not None else seasons_all())]


def season_menu_html(*, url_name: str, seasons, label: str, menu_class: str = "dropdown") -> SafeString:
    """A page's season dropdown (``season_menu``'s links), or nothing when there is only one season."""
    links = season_menu(url_name=url_name, seasons=seasons)
    if len(links) <= 1:
        return SafeString("")
    items = "".join(
        f'<li><a class="dropdown-item" href="{escape(url)}">{escape(name)}</a></li>' for name, url in links
    )
    return mark_safe(  # noqa: S308  # nosec B308 B703: data escaped above
        f'<div class="{menu_class}">\n'
        f'<button class="btn btn-outline-secondary btn-sm dropdown-toggle" data-bs-toggle="dropdown">{label}</button>\n'
        f'<ul class="dropdown-menu dropdown-menu-end">\n{items}\n</ul>\n</div>'
    )


def rsvp_form_html(card, *, back: str, csrf_token: str) -> SafeString:
    """Who's coming: the member's own answer for an event (``events.services.rsvp.RsvpCard``), as plain POST
    forms (no script needed); ``back`` ("home" or "event") is where the answer returns to. On the home page
    every member sees it on every visit: as a template it cost a cold home page about 1,000 Python calls."""
    event = card.event
    answer = card.answer
    # What {% csrf_token %} gives.
    has_token = csrf_token and str(csrf_token) != "NOTPROVIDED"
    token = (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(str(csrf_token))}">'
        if has_token
        else ""
    )
    hidden_back = f'<input type="hidden" name="back" value="{escape(back)}">'
    html = ['<div class="rsvp mt-2" data-rsvp>']
    if answer:
        detail = ""
        if answer == "late":
            when = date_text(timezone.localtime(card.called_in_at), "M j, g:i a") if card.called_in_at else ""
            asked = " · exemption asked for" if card.exemption else ""
            detail += f'<span class="small text-muted d-block">Called in {when}{asked}</span>'
        if answer == "substitute":
            detail += (
                f'<span class="small text-muted d-block">{escape(card.substitute_name)} plays your seat · prize to '
                f"the {escape(card.prize_to)}</span>"
            )
        html.append(
            f'<p class="mb-2">Your answer: <strong data-rsvp-answer="{escape(answer)}">{escape(card.answer_label)}'
            f"</strong>\n{detail}\n</p>"
        )
    elif card.open:
        html.append('<p class="mb-2 fw-semibold">Are you coming?</p>')
    if card.open:
        url = escape(address("events:rsvp", event.season.name, event.number))
        back_id = escape(back)
        html.append(
            f'<form method="post" action="{url}" class="d-flex gap-2">{token}\n{hidden_back}\n'
            '<button class="btn btn-success flex-fill" name="answer" value="coming">Coming</button>\n'
            '<button class="btn btn-outline-secondary flex-fill" name="answer" value="not_coming">Not coming</button>\n'
            "</form>"
        )
        if card.exemption_free:
            checked = " checked" if card.exemption else ""
            exemption = (
                '<div class="form-check mb-2">\n'
                f'<input class="form-check-input" type="checkbox" name="exemption" value="on" '
                f'id="rsvp-exemption-{back_id}"{checked}>\n'
                f'<label class="form-check-label" for="rsvp-exemption-{back_id}">Use my late-arrival exemption (once a '
                "season): I may join during the second hour</label>\n</div>"
            )
        else:
            exemption = '<p class="small mb-2">Your exemption of the season is taken already.</p>'
        html.append(
            f'<details class="mt-2"{" open" if answer == "late" else ""}>\n<summary>Coming late</summary>\n'
            f'<form method="post" action="{url}" class="mt-2">{token}\n{hidden_back}\n'
            '<input type="hidden" name="answer" value="late">\n'
            '<p class="small text-muted mb-2">This is your call-in (§5.2.4): the time is recorded. Your seat is posted '
            "and folded until you arrive; without the exemption the chips come off at the end of the first hour.</p>\n"
            f"{exemption}\n"
            '<button class="btn btn-warning w-100" data-rsvp-late>I\'ll be late</button>\n</form>\n</details>'
        )
        if card.substitutes_left or answer == "substitute":
            member_checked = " checked" if card.prize_to != "substitute" else ""
            sub_checked = " checked" if card.prize_to == "substitute" else ""
            not_pro = " checked" if answer == "substitute" else ""
            left = card.substitutes_left
            substitute = (
                f'<form method="post" action="{url}" class="mt-2">{token}\n{hidden_back}\n'
                '<input type="hidden" name="answer" value="substitute">\n'
                f'<label class="form-label" for="rsvp-sub-{back_id}">Substitute\'s name</label>\n'
                f'<input class="form-control mb-2" type="text" name="substitute_name" id="rsvp-sub-{back_id}" '
                f'maxlength="120" value="{escape(card.substitute_name)}" autocomplete="off">\n'
                '<fieldset class="mb-2"><legend class="form-label fs-6 mb-1">The prize goes to (§5.3.4)</legend>\n'
                '<div class="form-check form-check-inline"><input class="form-check-input" type="radio" '
                f'name="prize_to" value="member" id="rsvp-prize-m-{back_id}"{member_checked}><label '
                f'class="form-check-label" for="rsvp-prize-m-{back_id}">me</label></div>\n'
                '<div class="form-check form-check-inline"><input class="form-check-input" type="radio" '
                f'name="prize_to" value="substitute" id="rsvp-prize-s-{back_id}"{sub_checked}><label '
                f'class="form-check-label" for="rsvp-prize-s-{back_id}">the substitute</label></div>\n'
                "</fieldset>\n"
                '<div class="form-check mb-2">\n'
                f'<input class="form-check-input" type="checkbox" name="not_professional" value="on" '
                f'id="rsvp-notpro-{back_id}"{not_pro}>\n'
                f'<label class="form-check-label" for="rsvp-notpro-{back_id}">Not a professional gambler (§5.3.1)</label>\n'
                "</div>\n"
                f'<p class="small text-muted mb-2">{int(left)} substitute{"" if left == 1 else "s"} left this season '
                "besides this night.</p>\n"
                '<button class="btn btn-outline-primary w-100" data-rsvp-substitute>Send this substitute</button>\n'
                "</form>"
            )
        else:
            substitute = (
                '<p class="small mt-2 mb-0">You have sent as many substitutes this season as the rules allow '
                "(§5.3.1).</p>"
            )
        html.append(
            f'<details class="mt-2"{" open" if answer == "substitute" else ""}>\n<summary>Sending a substitute</summary>\n'
            f"{substitute}\n</details>"
        )
    elif card.closed_reason:
        html.append(f'<p class="small text-muted mb-0">{escape(card.closed_reason)}</p>')
    html.append("</div>")
    return mark_safe("\n".join(html))  # noqa: S308  # nosec B308 B703: data escaped above
