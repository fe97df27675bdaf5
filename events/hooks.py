"""What events asks of the apps above it (members, finance), answered in their ``AppConfig.ready()``.

Events sits below members and finance (see ``ncpc.hooks``): a seat at an event belongs to a membership, and
whether it may play depends on dues and the rules signature, which those apps decide.
"""

from decimal import Decimal
from typing import Any

from ncpc.hooks import Hook

# members
event_roster: Hook[..., list[Any]] = Hook("event_roster(season, event_number)", "members")
rules_signed: Hook[..., bool] = Hook("rules_signed(membership)", "members")
people_named: Hook[..., list[Any]] = Hook("people_named(name)", "members")
person_banned: Hook[..., bool] = Hook("person_banned(person)", "members")
seats_held: Hook[..., int] = Hook("seats_held(season)", "members")
# Passed majority votes for two events in one month (§4.4.2) of a season, as (vote id, label).
month_votes: Hook[..., list[tuple[int, str]]] = Hook("month_votes(season)", "members")

# finance
good_standing: Hook[..., bool] = Hook("good_standing(membership, on)", "finance")
amount_owed: Hook[..., Decimal] = Hook("amount_owed(membership, on)", "finance")
event_payout_lines: Hook[..., list[Any]] = Hook("event_payout_lines(event)", "finance")
# The prizes for places 1, 2, … for this many members (finance.services.payouts.payout_amounts); raises an
# NcpcError when the season's payout table has no row for the count.
payout_amounts: Hook[..., tuple[Decimal, ...]] = Hook("payout_amounts(rules, member_count)", "finance")
