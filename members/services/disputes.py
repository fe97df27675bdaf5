"""Disputes at the table: who rules (SPEC §10; bylaws §4.8, §5.4.1) and the log of rulings per event."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from events.models import Event
from members.models import OfficerTerm, Ruling
from members.selectors import officer_holders
from ncpc.core.audit import Actor, actor_user, audit_record
from ncpc.core.errors import NcpcError

# The bylaws' order of the offices (§3.4.5, §3.5.2–3.5.3, §3.6.7–3.6.8): the first one present and not
# involved speaks for the deciding officers, and has the casting say when two of them split.
OFFICE_ORDER = (
    OfficerTerm.Office.PRESIDENT.value,
    OfficerTerm.Office.VICE_PRESIDENT.value,
    OfficerTerm.Office.TREASURER.value,
)


@dataclass(frozen=True)
class WhoRules:
    deciders: tuple[str, ...]  # offices, in the bylaws' order; empty → an independent player rules
    votes_needed: int  # a majority of the deciders (0 when none)
    casting: str  # the office with the casting say when the deciders split evenly ("" when they cannot)

    @property
    def independent_player(self) -> bool:
        return not self.deciders

    @property
    def answer(self) -> str:
        labels = dict(OfficerTerm.Office.choices)
        if not self.deciders:
            return (
                "No officer can rule: the players in the hand choose an independent player, "
                "who rules after reviewing the Rules."
            )
        if len(self.deciders) == 1:
            return f"The {labels[self.deciders[0]]} rules alone."
        names = " and ".join(labels[o] for o in self.deciders)
        text = f"The {names} decide by majority ({self.votes_needed} of {len(self.deciders)})"
        if self.casting:
            text += f"; if they split, the {labels[self.casting]} decides"
        return text + "."


def who_rules(*, present: Iterable[str], involved: Iterable[str]) -> WhoRules:
    """The officers present and not involved decide by majority; none → an independent player. Pure.

    ``present`` and ``involved`` are offices. An involved officer never takes part (§4.8), present or not.
    """
    unknown = (set(present) | set(involved)) - set(OFFICE_ORDER)
    if unknown:
        raise NcpcError(f"Unknown office: {', '.join(sorted(unknown))}.")
    deciders = tuple(o for o in OFFICE_ORDER if o in set(present) and o not in set(involved))
    if not deciders:
        return WhoRules(deciders=(), votes_needed=0, casting="")
    needed = len(deciders) // 2 + 1
    casting = deciders[0] if len(deciders) % 2 == 0 else ""
    return WhoRules(deciders=deciders, votes_needed=needed, casting=casting)


@transaction.atomic
def ruling_record(
    *,
    event: Event,
    hand: str,
    parties: str,
    dispute: str,
    ruling: str,
    present: Iterable[str],
    involved: Iterable[str],
    independent_player: str = "",
    actor: Actor = None,
) -> Ruling:
    """Log a ruling at an event; who ruled is worked out from the officers present and involved."""
    answer = who_rules(present=present, involved=involved)
    independent_player = independent_player.strip()
    if answer.independent_player and not independent_player:
        raise NcpcError(
            "No officer could rule, so name the independent player the players chose.",
            field="independent_player",
        )
    if not answer.independent_player and independent_player:
        raise NcpcError(
            "Officers present and not involved rule: an independent player rules only when none is.",
            field="independent_player",
        )
    if answer.independent_player:
        ruled_by = f"{independent_player} (independent player)"
    else:
        holders = officer_holders(on=event.date)
        labels = dict(OfficerTerm.Office.choices)
        ruled_by = ", ".join(
            f"{labels[o]} {holders[o].full_name}" if o in holders else labels[o] for o in answer.deciders
        )
    values = {
        "hand": hand,
        "parties": parties,
        "dispute": dispute,
        "ruling": ruling,
        "officers_present": [o for o in OFFICE_ORDER if o in set(present)],
        "officers_involved": [o for o in OFFICE_ORDER if o in set(involved)],
        "independent_player": independent_player,
    }
    # The same ruling logged again (a double click, a resent form) is the one already logged.
    Event.objects.select_for_update().filter(pk=event.pk).first()
    for logged in Ruling.objects.filter(event=event, hand=hand, parties=parties):
        if all(getattr(logged, name) == value for name, value in values.items()):
            return logged
    entry = Ruling.objects.create(
        event=event,
        ruled_by_offices=list(answer.deciders),
        ruled_by=ruled_by[:200],
        recorded_by=actor_user(actor),
        **values,
    )
    audit_record(actor=actor, action="ruling.record", target=entry, summary=f"{entry} — ruled by {ruled_by}")
    return entry
