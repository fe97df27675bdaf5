"""Results entry on tournament night: busts, same-hand busts, undo, abuse, finish, corrections, conflicts."""

import random

import pytest

from events.errors import ResultsError
from events.models import Attendance, Event
from events.selectors import event_field, event_placings
from events.services.results import abuse_remove, bust_record, bust_undo, results_finish, results_reopen
from events.signals import results_final
from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.models import AuditEntry
from tests.events.factories import night_make

pytestmark = pytest.mark.django_db


def bust(event, *seats, chips=None, rng=None):
    event.refresh_from_db()
    return bust_record(
        event=event,
        attendance_ids=[s.pk for s in seats],
        start_chips={s.pk: c for s, c in zip(seats, chips, strict=True)} if chips else None,
        version=event.results_version,
        actor=None,
        rng=rng,
    )


def finish(event):
    event.refresh_from_db()
    return results_finish(event=event, version=event.results_version, actor=None)


def places(event):
    event.refresh_from_db()
    return [(p.place, p.member_key) for p in event_placings(event=event)]


def test_a_whole_night_with_a_same_hand_double_bust_gives_places_one_to_n(
    season, today, django_capture_on_commit_callbacks
):
    event, s = night_make(season=season, players=10)
    for key in "jihgf":
        bust(event, s[key])
    bust(event, s["e"])
    bust(event, s["d"], s["c"], chips=[4000, 9000])  # c had more chips at the start of the hand
    bust(event, s["b"])
    received = []
    results_final.connect(lambda sender, event, **kw: received.append(event.pk), weak=False, dispatch_uid="t")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            finish(event)
    finally:
        results_final.disconnect(dispatch_uid="t")
    event.refresh_from_db()
    assert event.status == Event.Status.FINAL
    assert places(event) == [(i + 1, key) for i, key in enumerate("abcdefghij")]
    assert received == [event.pk]


def test_equal_chip_counts_on_the_same_hand_get_a_recorded_draw(season, today):
    event, s = night_make(season=season, players=4)
    made = bust(event, s["d"], s["c"], chips=[5000, 5000], rng=random.Random(1))
    draws = sorted(e.draw for e in made)
    assert draws == [1, 2]
    bust(event, s["b"])
    finish(event)
    by_draw = {e.attendance.membership.person.key: e.draw for e in made}
    better = min(by_draw, key=by_draw.get)
    assert dict((k, p) for p, k in places(event))[better] == 3


def test_undo_takes_back_the_whole_last_hand(season, today):
    event, s = night_make(season=season, players=5)
    bust(event, s["e"])
    bust(event, s["d"], s["c"], chips=[4000, 9000])
    event.refresh_from_db()
    done = bust_undo(event=event, hand=2, version=event.results_version, actor=None)
    assert sorted(done) == ["C Player back in", "D Player back in"]
    assert event_field(event=event).left == 4
    assert AuditEntry.objects.filter(action="results.undo").count() == 1


def test_undo_of_a_hand_nobody_went_out_on_is_refused(season, today):
    event, _s = night_make(season=season, players=3)
    with pytest.raises(ResultsError, match="That bust is not recorded"):
        bust_undo(event=event, hand=1, version=event.results_version, actor=None)


def test_a_player_entered_twice_is_refused(season, today):
    event, s = night_make(season=season, players=4)
    bust(event, s["d"])
    with pytest.raises(ResultsError, match="entered twice"):
        bust(event, s["d"])


def test_an_unknown_player_is_refused(season, today):
    event, _s = night_make(season=season, players=4)
    other, seats = night_make(season=season, number=3, players=0)
    stranger = Attendance.objects.filter(event__number=4).first()
    assert stranger is not None
    with pytest.raises(ResultsError, match="Unknown player"):
        bust_record(event=other, attendance_ids=[stranger.pk], version=other.results_version, actor=None)


def test_an_absent_member_cannot_be_entered_as_out(season, today):
    from events.services.attendance import attendance_set

    event, s = night_make(season=season, players=4)
    attendance_set(
        event=event, attendance_id=s["d"].pk, status="absent", version=event.results_version, actor=None
    )
    with pytest.raises(ResultsError, match="not playing tonight"):
        bust(event, s["d"])


def test_a_stale_version_gets_changed_meanwhile(season, today):
    event, s = night_make(season=season, players=4)
    seen = event.results_version
    bust(event, s["d"])  # another officer, first
    with pytest.raises(ConcurrentChange, match="changed meanwhile"):
        bust_record(event=event, attendance_ids=[s["c"].pk], version=seen, actor=None)
    assert event.eliminations.count() == 1


def test_removal_for_abuse_keeps_the_place_and_needs_a_reason(season, today):
    event, s = night_make(season=season, players=4)
    with pytest.raises(NcpcError, match="reason"):
        abuse_remove(
            event=event, attendance_id=s["b"].pk, version=event.results_version, actor=None, reason=""
        )
    abuse_remove(
        event=event,
        attendance_id=s["b"].pk,
        version=event.results_version,
        actor=None,
        reason="threats, all three",
        agreed=["president", "vice_president", "treasurer"],
    )
    bust(event, s["d"])
    bust(event, s["c"])
    finish(event)
    event.refresh_from_db()
    placings = event_placings(event=event)
    bob = next(p for p in placings if p.member_key == "b")
    assert (bob.place, bob.removed_for_abuse) == (4, True)


def test_finishing_turns_absent_seats_into_chips_removed_without_a_place(season, today):
    from events.services.attendance import attendance_set

    event, s = night_make(season=season, players=4)
    attendance_set(
        event=event, attendance_id=s["d"].pk, status="absent", version=event.results_version, actor=None
    )
    bust(event, s["c"])
    bust(event, s["b"])
    finish(event)
    s["d"].refresh_from_db()
    assert s["d"].status == Attendance.Status.CHIPS_REMOVED and s["d"].place is None
    assert places(event) == [(1, "a"), (2, "b"), (3, "c")]


def test_a_correction_after_finishing_needs_a_reason_and_is_audited(season, today):
    event, s = night_make(season=season, players=3)
    bust(event, s["c"])
    bust(event, s["b"])
    finish(event)
    event.refresh_from_db()
    with pytest.raises(NcpcError, match="final"):
        bust_undo(event=event, hand=2, version=event.results_version, actor=None)
    with pytest.raises(NcpcError, match="reason"):
        results_reopen(event=event, version=event.results_version, actor=None, reason=" ")
    results_reopen(event=event, version=event.results_version, actor=None, reason="b and c were swapped")
    event.refresh_from_db()
    # SPEC §15.11: while the correction is open, the last final places still count.
    assert [(p.place, p.member_key) for p in event_placings(event=event)] == [(1, "a"), (2, "b"), (3, "c")]
    for hand in (2, 1):
        event.refresh_from_db()
        bust_undo(event=event, hand=hand, version=event.results_version, actor=None)
    bust(event, s["b"])
    bust(event, s["c"])
    finish(event)
    assert places(event) == [(1, "a"), (2, "c"), (3, "b")]
    entry = AuditEntry.objects.get(action="results.correct")
    assert entry.reason == "b and c were swapped"
    assert entry.data["places_before"] == {"a": 1, "b": 2, "c": 3}


def test_players_left_and_average_stack_for_the_clock(season, today):
    event, s = night_make(season=season, players=5)
    bust(event, s["e"])
    field = event_field(event=event)
    # 5 players × 10,000 chips (§4.3) over 4 players left.
    assert (field.started, field.left, field.average_stack) == (5, 4, 12500)


def test_spec_15_11_results_cannot_be_entered_or_finished_before_the_events_date(season, today):
    event, s = night_make(season=season, number=5, players=3)  # Dec 12, 2026; today is Nov 29
    with pytest.raises(ResultsError, match="Event 5 is on Dec 12, 2026: its results cannot be entered"):
        bust(event, s["c"])
    with pytest.raises(ResultsError, match="cannot be finished before that day"):
        finish(event)
    event.refresh_from_db()
    assert event.status == Event.Status.SCHEDULED and not event.eliminations.exists()


def test_spec_15_11_the_results_can_be_entered_on_the_events_day(season):
    import datetime as dt

    import time_machine

    with time_machine.travel(dt.datetime(2026, 12, 12, 23, 0, tzinfo=dt.UTC), tick=False):
        event, s = night_make(season=season, number=5, players=3)
        bust(event, s["c"])
        bust(event, s["b"])
        finish(event)
    assert places(event) == [(1, "a"), (2, "b"), (3, "c")]


def test_spec_15_11_while_reopened_the_standings_keep_the_last_final_results(season, today):
    from standings.selectors import season_standings

    event, s = night_make(season=season, players=3)
    bust(event, s["c"])
    bust(event, s["b"])
    finish(event)
    event.refresh_from_db()
    results_reopen(event=event, version=event.results_version, actor=None, reason="b and c were swapped")
    for hand in (2, 1):
        event.refresh_from_db()
        bust_undo(event=event, hand=hand, version=event.results_version, actor=None)
    event.refresh_from_db()
    assert event.status == Event.Status.SCHEDULED  # every bust undone
    points = {r.key: r.points for r in season_standings(season=season).rows}
    assert (points["a"], points["b"], points["c"]) == (10, 9, 8)  # §10.1: 1st 10, 2nd 9, 3rd 8
    bust(event, s["b"])
    points = {r.key: r.points for r in season_standings(season=season).rows}
    assert (points["a"], points["b"], points["c"]) == (10, 9, 8)  # still the last final results
    bust(event, s["c"])
    finish(event)
    points = {r.key: r.points for r in season_standings(season=season).rows}
    assert (points["a"], points["b"], points["c"]) == (10, 8, 9)  # the corrected results


def test_the_places_standings_read_are_the_placings_places(season, today):
    """``season_places`` (the points' lighter read) gives each counted event's places as ``season_placings``
    does: a final event's, and while it is reopened its last final ones, not the busts of the correction."""
    from events.selectors import season_events, season_places, season_placings

    event, s = night_make(season=season, players=3)
    bust(event, s["c"])
    bust(event, s["b"])
    finish(event)

    def both():
        events = season_events(season=season)
        placings = season_placings(events=[e for e in events if e.counts])
        expected = {pk: {p.membership_id: p.place for p in ps} for pk, ps in placings.items()}
        return season_places(events=events), season_places(events=[e for e in events if e.counts]), expected

    first = {event.pk: {s["a"].membership_id: 1, s["b"].membership_id: 2, s["c"].membership_id: 3}}
    assert both() == (first, first, first)
    event.refresh_from_db()
    results_reopen(event=event, version=event.results_version, actor=None, reason="b and c were swapped")
    for hand in (2, 1):
        event.refresh_from_db()
        bust_undo(event=event, hand=hand, version=event.results_version, actor=None)
    bust(event, s["b"])  # b now has place 3 on the night being corrected
    assert both() == (first, first, first)
    bust(event, s["c"])
    finish(event)
    corrected = {event.pk: {s["a"].membership_id: 1, s["b"].membership_id: 3, s["c"].membership_id: 2}}
    assert both() == (corrected, corrected, corrected)


def test_the_seasons_events_carry_the_kept_places_of_a_final_and_of_a_reopened_event_in_one_query(
    season, today, django_assert_num_queries
):
    from events.selectors import season_events

    event, s = night_make(season=season, players=3)
    bust(event, s["c"])
    bust(event, s["b"])
    finish(event)
    kept = [
        {
            "place": n,
            "member_key": key,
            "membership_id": s[key].membership_id,
            "substitute_name": "",
            "prize_to": "member",
            "removed_for_abuse": False,
        }
        for n, key in ((1, "a"), (2, "b"), (3, "c"))
    ]
    with django_assert_num_queries(1):
        final = next(e for e in season_events(season=season) if e.pk == event.pk)
        assert final.counts and not final.under_correction
        assert final.final_placings == kept
    event.refresh_from_db()
    results_reopen(event=event, version=event.results_version, actor=None, reason="b and c were swapped")
    with django_assert_num_queries(1):
        reopened = next(e for e in season_events(season=season) if e.pk == event.pk)
        assert reopened.under_correction and reopened.counts
        assert reopened.final_placings == kept


def test_spec_15_8_removal_for_abuse_records_the_executive_committee_majority(season, today):
    event, s = night_make(season=season, players=4)
    for agreed in ([], ["president"], ["treasurer", "treasurer"]):
        with pytest.raises(NcpcError, match="majority of the executive committee"):
            abuse_remove(
                event=event,
                attendance_id=s["b"].pk,
                version=event.results_version,
                actor=None,
                reason="threats",
                agreed=agreed,
            )
    assert not event.eliminations.exists()
    abuse_remove(
        event=event,
        attendance_id=s["b"].pk,
        version=event.results_version,
        actor=None,
        reason="threats",
        agreed=["treasurer", "president"],
    )
    removal = event.eliminations.get()
    assert removal.removed_for_abuse and removal.abuse_agreed == ["president", "treasurer"]
    audit = AuditEntry.objects.get(action="results.abuse")
    assert audit.data["agreed"] == ["president", "treasurer"]


def test_spec_15_8_the_results_page_asks_which_officers_agreed(client, vice_president, season, today):
    event, s = night_make(season=season, players=4)
    client.force_login(vice_president)
    page = client.get(f"/events/{season.name}/{event.number}/results/").content.decode()
    assert 'name="agreed" value="treasurer"' in page
    url = f"/events/{season.name}/{event.number}/results/abuse/"
    data = {"player": s["c"].pk, "reason": "threats", "version": event.results_version}
    client.post(url, data | {"agreed": ["vice_president"]})
    assert not event.eliminations.exists()
    client.post(url, data | {"agreed": ["vice_president", "president"]})
    assert event.eliminations.get().abuse_agreed == ["president", "vice_president"]
