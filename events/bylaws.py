"""The bylaws' numbers, used only to seed the club's first season (SPEC §1), and shown on the about page
before any season exists.

Every later season copies the previous season's rules; rule modules never read this file.
"""

import datetime as dt
from decimal import Decimal as D

from events.rules import BlindLevelData as L
from events.rules import PayoutRowData, SeasonRules, WsopRowData


def _break(minutes: int, note: str = "") -> L:
    return L(kind="break", minutes=minutes, note=note)


BYLAWS_RULES = SeasonRules(
    events_per_season=10,  # §4.4
    # §4.5: 4th Saturday, Nov and Dec on the 2nd; February's two on the 2nd and 4th (SPEC §3).
    schedule=((8, 4), (9, 4), (10, 4), (11, 2), (12, 2), (1, 4), (2, 2), (2, 4), (3, 4), (4, 4)),
    event_start_time=dt.time(19, 0),
    announce_days_ahead=14,  # §4.6
    max_members=20,  # §2.3
    minimum_age=21,  # §2.1
    dues_per_event=D("50.00"),  # §2.6
    admin_fee=D("10.00"),  # §2.7
    late_fee=D("25.00"),  # §2.10
    late_joiner_full_until_event=3,  # §2.5: "beginning before the third tournament" (SPEC §2)
    late_joiner_min_events=7,  # §2.5: "7 of 8 months"
    late_joiner_window_from_event=3,
    starting_stack=10_000,  # §4.3
    substitutes_per_season=3,  # §5.3.1
    late_arrival_levels=2,  # §6.3: chips removed after the second blind change
    table_size=9,  # §6.6
    final_table_size=10,  # §6.7
    points_table=(10, 9, 8, 7, 6, 5, 4, 3, 2, 1),  # §10.1
    wsop_entry=D("1500.00"),  # §8.1
    wsop_expenses=D("700.00"),
    winnings_threshold=D("2200.00"),  # §9.2
    representative_share_pct=D("60.00"),  # §9.2.1
    late_joiner_share_pct=D("1.00"),  # §2.5
    declined_share_pct=D("3.00"),  # §8.4
    dues_schedule=((1, D("110.00")), (2, D("100.00")), (3, D("100.00")), (4, D("100.00")), (5, D("100.00"))),
    payout_table=tuple(
        PayoutRowData(member_count=n, amounts=tuple(D(a) for a in amounts))
        for n, amounts in (
            (10, ("140", "85", "55")),
            (11, ("165", "100", "65")),
            (12, ("190", "115", "75")),
            (13, ("175", "105", "85", "65")),
            (14, ("195", "120", "95", "70")),
            (15, ("155", "90", "65")),
            (16, ("145", "95", "70", "50")),
            (17, ("165", "105", "80", "60")),
            (18, ("120", "70", "50")),
            (19, ("145", "85", "60")),
            (20, ("135", "85", "70", "50")),
        )
    ),
    wsop_table=(
        WsopRowData(min_members=10, max_members=14, prizes=1),
        WsopRowData(min_members=15, max_members=17, prizes=2),
        WsopRowData(min_members=18, max_members=20, prizes=3),
    ),
    blind_structure=(
        L("level", 25, 50, 0, 30),
        L("level", 50, 100, 0, 30),
        L("level", 100, 200, 0, 30),
        _break(10),
        L("level", 150, 300, 0, 30),
        L("level", 200, 400, 50, 20),
        L("level", 300, 600, 75, 20),
        _break(10, "Remove $25 chips"),
        L("level", 400, 800, 100, 20),
        L("level", 600, 1200, 200, 15),
        L("level", 800, 1600, 200, 15),
        L("level", 1000, 2000, 300, 15),
        L("level", 1200, 2400, 300, 15),
        L("level", 1500, 3000, 400, 15),
        _break(10, "Remove $100 chips"),
        L("level", 2000, 4000, 500, 15),
        L("level", 2500, 5000, 500, 15),
        L("level", 3000, 6000, 1000, 15),
        L("level", 4000, 8000, 1000, 15),
        _break(5),
        L("level", 5000, 10000, 1000, 15),
        L("level", 6000, 12000, 2000, 15),
        L("level", 8000, 16000, 2000, 15),
        L("level", 10000, 20000, 3000, None),
    ),
)
