from django.urls import NoReverseMatch, reverse

from ncpc.core.permissions import Action, user_can

# (label, url name, action needed — or a tuple: any of them). Entries whose page does not exist yet are left out.
NAVIGATION = (
    ("Home", "home", None),
    ("Schedule", "events:schedule_current", Action.VIEW_CLUB),
    ("Standings", "standings:current", Action.VIEW_CLUB),
    ("Rules", "events:rules_current", Action.VIEW_CLUB),
    ("Members", "members:directory", Action.VIEW_CLUB),
    ("Club votes", "members:governance", Action.VIEW_CLUB),
    ("Finance", "finance:index", Action.VIEW_CLUB),
    ("Reports", "reports", Action.VIEW_CLUB),
)
OFFICER_NAVIGATION = (
    ("Set-up", "setup", Action.EDIT_RULES),
    ("Season rules", "events:rules_current", Action.EDIT_RULES),
    ("Manage members", "members:manage", Action.MANAGE_MEMBERS),
    ("Invitations", "members:invitations", Action.MANAGE_MEMBERS),
    ("Officers' terms", "members:officer_terms", Action.MANAGE_ELECTIONS),
    ("Spreadsheet import", "imports", (Action.MANAGE_MEMBERS, Action.RECORD_PAYMENTS)),
    ("Audit trail", "audit", Action.VIEW_AUDIT),
    ("Mail deliveries", "mail_deliveries", Action.VIEW_AUDIT),
    ("Club identity", "club_identity", Action.EDIT_CLUB_IDENTITY),
)


def _links(user, entries, path):
    links = []
    for label, name, action in entries:
        actions = action if isinstance(action, tuple) else (action,)
        if action is not None and not any(user_can(user, a) for a in actions):
            continue
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        active = path == url if url == "/" else path.startswith(url)
        links.append({"label": label, "url": url, "active": active})
    return links


def navigation(request):
    user = request.user
    if not user.is_authenticated:
        return {"nav_links": [], "officer_links": []}
    return {
        "nav_links": _links(user, NAVIGATION, request.path),
        "officer_links": _links(user, OFFICER_NAVIGATION, request.path),
    }
