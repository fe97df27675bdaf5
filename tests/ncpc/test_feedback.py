"""command_run: a refusal shown as a message, on a form's field, or as the page says (ncpc/core/feedback.py)."""

from django import forms
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory

from ncpc.core.errors import ConcurrentChange, NcpcError
from ncpc.core.feedback import command_run


class NameForm(forms.Form):
    name = forms.CharField()


def _request():
    request = RequestFactory().post("/")
    request.user = AnonymousUser()
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def _shown(request) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in get_messages(request)]


def _refuse(*, actor, error: NcpcError):
    raise error


def test_a_refusal_naming_a_field_of_the_form_goes_on_that_field():
    request = _request()
    form = NameForm({"name": "Ann"})
    assert form.is_valid()
    result = command_run(request, _refuse, form=form, error=NcpcError("Taken.", field="name"))
    assert result is None
    assert form.errors == {"name": ["Taken."]}
    assert _shown(request) == []


def test_a_refusal_naming_no_field_of_the_form_is_a_message():
    request = _request()
    form = NameForm({"name": "Ann"})
    assert form.is_valid()
    command_run(request, _refuse, form=form, error=NcpcError("Closed.", field="other"))
    assert form.errors == {}
    assert _shown(request) == [("error", "Closed.")]


def test_refused_is_called_with_the_error_instead_of_the_message():
    request = _request()
    seen = []
    command_run(request, _refuse, refused=seen.append, error=NcpcError("No seat."))
    assert [str(e) for e in seen] == ["No seat."]
    assert _shown(request) == []


def test_a_concurrent_change_is_a_warning_even_with_refused():
    request = _request()
    seen = []
    command_run(request, _refuse, refused=seen.append, error=ConcurrentChange("Reload the page."))
    assert seen == []
    assert _shown(request) == [("warning", "Reload the page.")]


def test_success_is_shown_with_the_result_and_the_result_returned():
    request = _request()
    result = command_run(request, lambda *, actor, n: n * 2, success="Made {result}.", n=21)
    assert result == 42
    assert _shown(request) == [("success", "Made 42.")]
