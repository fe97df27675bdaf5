"""What the members' pages share."""

from django.shortcuts import render


def no_season(request):
    """The page shown where a page needs the current season and there is none yet."""
    return render(request, "members/no_season.html")
