"""Password reset (limited, queued) and the officers' page of mail that could not be delivered."""

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ncpc.club.services.password_reset import QueuedPasswordResetForm, password_reset_claim
from ncpc.core.client import client_address
from ncpc.core.mail import mail_send_again
from ncpc.core.models import MailDelivery
from ncpc.core.permissions import Action, require

UNSETTLED = (MailDelivery.Status.QUEUED, MailDelivery.Status.SENDING, MailDelivery.Status.RETRYING)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = QueuedPasswordResetForm

    def form_valid(self, form):
        refused = password_reset_claim(
            email=form.cleaned_data["email"], client=client_address(self.request) or "unknown"
        )
        if refused:
            form.add_error(None, refused)
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)


password_reset = PasswordResetView.as_view()


@require(Action.VIEW_AUDIT)
def deliveries(request):
    show = request.GET.get("show", "failed")
    if show not in ("failed", "waiting", "all"):
        show = "failed"
    rows = MailDelivery.objects.all()
    if show == "failed":
        rows = rows.filter(status=MailDelivery.Status.FAILED)
    elif show == "waiting":
        rows = rows.filter(status__in=UNSETTLED)
    page = Paginator(rows, 50).get_page(request.GET.get("page"))
    counts = {
        "failed": MailDelivery.objects.filter(status=MailDelivery.Status.FAILED).count(),
        "waiting": MailDelivery.objects.filter(status__in=UNSETTLED).count(),
    }
    return render(request, "mail_deliveries.html", {"page": page, "show": show, "counts": counts})


@require_POST
@require(Action.VIEW_AUDIT)
def delivery_send_again(request, delivery_id):
    delivery = get_object_or_404(MailDelivery, pk=delivery_id)
    if mail_send_again(delivery=delivery):
        messages.success(request, f"The message to {delivery.to} is queued again.")
    else:
        messages.error(
            request,
            "This message cannot be sent again (a password reset: the member asks for a new one; an address "
            "that is not valid: correct it on the member's page; or it was sent already).",
        )
    show = request.POST.get("show", "failed")
    return redirect(
        f"{reverse('mail_deliveries')}?show={show if show in ('failed', 'waiting', 'all') else 'failed'}"
    )
