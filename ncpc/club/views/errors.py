"""The error pages (the URL map's handler403, handler404 and handler500)."""

from django.db import DatabaseError
from django.http import HttpResponseServerError
from django.shortcuts import render
from django.template import loader

from ncpc.core.identity import club_identity


def error_403(request, exception=None):
    return render(request, "errors/403.html", {"message": str(exception or "")}, status=403)


def error_404(request, exception=None):
    return render(request, "errors/404.html", status=404)


def error_500(request):
    # No context processors here: the error may be the database itself (then the page names no club).
    try:
        club = club_identity()
    except DatabaseError:
        club = None
    return HttpResponseServerError(loader.get_template("errors/500.html").render({"club": club}))
