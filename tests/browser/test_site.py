import pytest

from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_member_logs_in_on_a_phone_and_opens_the_menu(phone, live_server, member):
    login(phone, live_server, "member1")
    assert phone.locator("h1").inner_text().startswith("Welcome, First")
    assert "Saturday, December 12" in phone.content()
    # The navigation collapses behind the toggler on a phone; opening it shows the log-out button.
    phone.click("button.navbar-toggler")
    phone.wait_for_selector("#main-nav.show")
    phone.get_by_role("button", name="member1").click()
    assert phone.get_by_role("button", name="Log out").is_visible()


def test_no_page_loads_anything_from_outside_the_site(page, live_server, member):
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None)
    login(page, live_server, "member1")
    page.goto(f"{live_server.url}/")
    assert outside == []
