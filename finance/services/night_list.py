"""The Treasurer's list for an event night (SPEC §15.13): what the Treasurer brings or pays besides the
prizes. Pure: the event's number and the season's last event number in, reminders out."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Reminder:
    text: str
    section: str  # the rule it comes from: a key of ncpc.core.identity.REFERENCES


# The bylaws' words, shown as they are: reminders, not amounts the app computes (the decks are bought and the
# winner's cash is set by the officers; neither is a number any rule module reads).
NEW_DECKS = Reminder(text="Buy cards: 4 new decks for this event", section="3.6.9")
ANNUAL_WINNER = Reminder(text="Bring the cash for the annual club winner", section="3.6.5")


def event_reminders(*, event_number: int, last_event_number: int) -> list[Reminder]:
    """New decks for every event; the annual winner's cash at the season's last event."""
    reminders = [NEW_DECKS]
    if event_number == last_event_number:
        reminders.append(ANNUAL_WINNER)
    return reminders
