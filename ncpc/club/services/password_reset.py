"""Password reset requests: limited per e-mail address and per client, and the message queued, never sent
during the request (SPEC: side effects leave the request)."""

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from ncpc.core.identity import club_identity
from ncpc.core.mail import Mail, mail_queue
from ncpc.core.models import MailDelivery, PasswordResetRequest

WINDOW = dt.timedelta(hours=1)


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, whose message goes through the mail queue (one delivery per account)."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        context = {**context, "club": club_identity()}
        subject = "".join(render_to_string(subject_template_name, context).splitlines())
        body = render_to_string(email_template_name, context)
        mail_queue(
            kind=MailDelivery.Kind.PASSWORD_RESET,
            messages=[Mail(to=to_email, subject=subject, body=body)],
            reference=f"user:{context['user'].pk}",
        )


@transaction.atomic
def password_reset_claim(*, email: str, client: str, now: dt.datetime | None = None) -> str | None:
    """Count one reset request, or say why it is refused: too many for this address, or from this client,
    within the hour. Counted whether or not the address belongs to a member (the answer must not tell)."""
    now = now or timezone.now()
    email = email.strip().lower()
    recent = PasswordResetRequest.objects.filter(at__gte=now - WINDOW)
    if recent.filter(client=client).count() >= settings.NCPC_RESET_PER_CLIENT:
        return "Too many password reset requests from this device. Try again in an hour."
    if recent.filter(email=email).count() >= settings.NCPC_RESET_PER_ADDRESS:
        return (
            "Too many password reset requests for this address. Check your mailbox, or try again in an hour."
        )
    PasswordResetRequest.objects.create(email=email[:254], client=client[:45])
    return None
