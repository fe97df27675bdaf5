"""SPEC §16.10: a person's details are edited in the app by the officers, audited; names tidied on request."""

import datetime as dt

import pytest

from members.models import Person
from members.services.names import name_compare_form, name_tidy, person_key_make
from members.services.people import person_update
from ncpc.core.errors import NcpcError
from ncpc.core.models import AuditEntry
from tests.factories import PersonFactory


@pytest.mark.parametrize(
    ("typed", "tidy"),
    [
        ("linda o'brien", "Linda O'Brien"),
        ("MIKE SMITH", "Mike Smith"),
        ("mike  smith", "Mike Smith"),
        ("mcdonald", "McDonald"),
        ("MACDONALD", "MacDonald"),
        ("mackenzie", "MacKenzie"),
        ("machado", "Machado"),
        ("mack", "Mack"),
        ("macy", "Macy"),
        ("smith-jones", "Smith-Jones"),
        ("d'angelo", "D'Angelo"),
        ("john smith iii", "John Smith III"),
        ("jr.", "Jr."),
        ("DeShawn", "DeShawn"),  # both cases: typed with care, left alone
        ("van Dyke", "van Dyke"),
        ("José", "José"),
        ("JOSÉ", "José"),
        ("", ""),
    ],
)
def test_name_tidy(typed, tidy):
    assert name_tidy(typed) == tidy


def test_names_compare_ignoring_case_spaces_accents_and_punctuation():
    assert name_compare_form("MIKE ", "SMITH") == name_compare_form("Mike", "Smith") == "mikesmith"
    assert name_compare_form("José", "O'Brien") == name_compare_form("jose", "obrien")


@pytest.mark.parametrize(
    ("first", "last", "taken", "key"),
    [
        ("Linda", "O'Brien", set(), "lindao"),
        ("Linda", "O'Brien", {"lindao"}, "lindaob"),
        ("Al", "Ray", {"alr", "alra", "alray"}, "alray2"),
        ("Al", "Ray", {"alr", "alra", "alray", "alray2"}, "alray3"),
        ("José", "Núñez", set(), "josen"),
        ("Cher", "", set(), "cher"),
        ("Cher", "", {"cher"}, "cher2"),
        ("", "Smith", set(), "smith"),
        ("李", "王", set(), "member"),
    ],
)
def test_a_handle_is_made_from_the_name(first, last, taken, key):
    assert person_key_make(first_name=first, last_name=last, taken=taken) == key


@pytest.mark.django_db
def test_person_update_changes_the_details_and_audits_old_and_new_values(vice_president):
    person = PersonFactory(key="lindao", first_name="linda", last_name="o'brien", email="old@example.org")
    changed = person_update(
        person=person,
        changes={
            "first_name": "Linda",
            "last_name": "O'Brien",
            "key": "Linda",
            "email": "linda@example.org",
            "date_of_birth": dt.date(1975, 11, 23),
        },
        actor=vice_president,
    )
    assert changed == ["first_name", "last_name", "key", "email", "date_of_birth"]
    person.refresh_from_db()
    assert (person.full_name, person.key, person.email) == ("Linda O'Brien", "linda", "linda@example.org")
    entry = AuditEntry.objects.get(action="member.person.update")
    assert entry.actor == vice_president
    assert entry.data["email"] == ["old@example.org", "linda@example.org"]
    assert entry.data["key"] == ["lindao", "linda"]
    assert entry.data["date_of_birth"] == ["1980-01-01", "1975-11-23"]
    assert person_update(person=person, changes={"first_name": "Linda"}, actor=vice_president) == []
    assert AuditEntry.objects.filter(action="member.person.update").count() == 1


@pytest.mark.django_db
def test_person_update_keeps_the_logins_email_in_step(member):
    person = member.person
    person_update(person=person, changes={"email": "new@example.org"}, actor=member)
    member.refresh_from_db()
    assert member.email == "new@example.org"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"key": "taken"}, "key", "The key 'taken' is taken; choose another."),
        ({"key": "two words"}, "key", "The key is lower-case letters, digits, - or _ (at most 40)."),
        ({"first_name": "  "}, "first_name", "A person has a first and a last name."),
        (
            {"date_of_birth": dt.date(2100, 1, 1)},
            "date_of_birth",
            "The date of birth 2100-01-01 is after today.",
        ),
    ],
)
def test_person_update_refuses_what_cannot_be_right(vice_president, changes, field, message):
    PersonFactory(key="taken")
    person = PersonFactory(key="zed")
    with pytest.raises(NcpcError) as refused:
        person_update(person=person, changes=changes, actor=vice_president)
    assert (refused.value.field, str(refused.value)) == (field, message)
    assert not AuditEntry.objects.filter(action="member.person.update").exists()


@pytest.mark.django_db
def test_the_vice_president_edits_a_member_from_the_member_page(client, vice_president, member):
    client.force_login(vice_president)
    page = client.get(f"/members/people/{member.person.key}/").content.decode()
    assert f'href="/members/people/{member.person.key}/edit/"' in page
    form = client.get(f"/members/people/{member.person.key}/edit/")
    assert form.status_code == 200
    assert form.context["form"].initial["key"] == member.person.key
    response = client.post(
        f"/members/people/{member.person.key}/edit/",
        {
            "first_name": "Mike",
            "last_name": "Smith",
            "key": "mikes",
            "email": "mike@example.org",
            "phone": "513",
        },
    )
    assert response.status_code == 302 and response.url == "/members/people/mikes/"
    person = Person.objects.get(pk=member.person.pk)
    assert (person.full_name, person.key, person.phone, person.date_of_birth) == (
        "Mike Smith",
        "mikes",
        "513",
        None,
    )
    assert AuditEntry.objects.filter(action="member.person.update", target_id=str(person.pk)).exists()


@pytest.mark.django_db
def test_a_taken_key_is_a_form_error_on_the_edit_page(client, vice_president, member):
    PersonFactory(key="taken")
    client.force_login(vice_president)
    response = client.post(
        f"/members/people/{member.person.key}/edit/", {"first_name": "A", "last_name": "B", "key": "taken"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["key"] == ["The key 'taken' is taken; choose another."]


@pytest.mark.django_db
def test_a_plain_member_cannot_edit_details_and_sees_no_link(client, member):
    client.force_login(member)
    assert client.get(f"/members/people/{member.person.key}/edit/").status_code == 403
    response = client.post(
        f"/members/people/{member.person.key}/edit/", {"first_name": "X", "last_name": "Y", "key": "x"}
    )
    assert response.status_code == 403
    assert "/edit/" not in client.get(f"/members/people/{member.person.key}/").content.decode()
    assert Person.objects.get(pk=member.person.pk).key == member.person.key
