import pytest

from members.selectors import first_alternate, waiting_list
from members.services.waiting_list import waiting_list_add, waiting_list_move, waiting_list_withdraw
from ncpc.core.errors import NcpcError
from tests.factories import PersonFactory


@pytest.fixture
def three(db, today):
    return [waiting_list_add(person=PersonFactory(), on=today) for _ in range(3)]


def test_the_first_person_added_is_the_first_alternate(three):
    assert first_alternate() == three[0]
    assert waiting_list() == three


def test_moving_an_entry_up_and_down_reorders_the_list(three):
    waiting_list_move(entry=three[2], up=True)
    assert waiting_list() == [three[0], three[2], three[1]]
    waiting_list_move(entry=three[0], up=False)
    assert waiting_list() == [three[2], three[0], three[1]]
    assert first_alternate() == three[2]


def test_the_first_alternate_cannot_move_further_up(three):
    with pytest.raises(NcpcError, match="already first"):
        waiting_list_move(entry=three[0], up=True)


def test_nobody_is_on_the_list_twice(three):
    with pytest.raises(NcpcError, match="already"):
        waiting_list_add(person=three[0].person, on=three[0].added_on)


def test_a_first_alternate_who_declines_an_offered_seat_passes_it_to_the_next(three, today):
    three[0].offered_on = today
    three[0].save()
    waiting_list_withdraw(entry=three[0], on=today, reason="declined")
    assert first_alternate() == three[1]
    assert first_alternate().offered_on == today
