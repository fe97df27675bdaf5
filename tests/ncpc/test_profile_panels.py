import pytest

pytestmark = pytest.mark.django_db


def test_a_member_sees_their_own_dues_and_results_on_their_profile(member_client, member):
    html = member_client.get("/members/people/member1/").content.decode()
    assert "Results and points" in html
    assert "No results in 2026-27 yet." in html
    # Nothing paid: the $410 charged through the November event is owed (§2.8: 110 + 100 + 100 + 100).
    assert 'Balance <strong class="tabular">$410.00</strong>' in html


def test_another_members_dues_stay_private_but_the_treasurer_sees_them(
    client, member, vice_president, treasurer
):
    client.force_login(vice_president)
    html = client.get("/members/people/member1/").content.decode()
    assert "Results and points" in html
    assert "Balance" not in html
    client.force_login(treasurer)
    assert (
        'Balance <strong class="tabular">$410.00</strong>'
        in client.get("/members/people/member1/").content.decode()
    )
