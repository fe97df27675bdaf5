"""SPEC §15.13: the annual club winner's cash (§3.6.5) and the four new decks (§3.6.9) are reminders on the
Treasurer's list — the decks for every event, the winner's cash for the season's last event."""

import pytest

from finance.services.night_list import event_reminders

pytestmark = pytest.mark.django_db

DECKS = "Buy cards: 4 new decks for this event (§3.6.9)"
WINNER = "Bring the cash for the annual club winner (§3.6.5)"


@pytest.mark.parametrize("number", range(1, 11))
def test_spec_15_13_every_event_reminds_of_four_new_decks_and_the_last_one_of_the_winners_cash(number):
    texts = [f"{r.text} (§{r.section})" for r in event_reminders(event_number=number, last_event_number=10)]
    assert texts == ([DECKS, WINNER] if number == 10 else [DECKS])


def test_spec_15_13_the_treasurers_payout_page_lists_the_reminders_per_event(client, treasurer, season):
    client.force_login(treasurer)
    page = client.get("/finance/payouts/").content.decode()
    cards = page.split('<h2 class="h6">Event ')[1:]
    assert len(cards) == 10
    for number, card in enumerate(cards, start=1):
        assert card.startswith(f"{number} ·")
        assert DECKS in card
        assert (WINNER in card) == (number == 10)
