from django.urls import path

from members import governance_views, login_views, views

app_name = "members"

urlpatterns = [
    path("", views.directory, name="directory"),
    path("people/<slug:key>/", views.profile, name="profile"),
    path("people/<slug:key>/turned-pro/", views.turned_pro, name="turned_pro"),
    path("people/<slug:key>/edit/", views.person_edit, name="person_edit"),
    path("my-email/", views.own_email, name="own_email"),
    path("officers/", views.manage, name="manage"),
    path("officers/people/new/", views.person_new, name="person_new"),
    path("officers/admit/", views.admit, name="admit"),
    path("officers/waiting-list/", views.waiting_list_page, name="waiting_list"),
    path("officers/waiting-list/<int:pk>/move/", views.waiting_list_reorder, name="waiting_list_move"),
    path("officers/waiting-list/<int:pk>/withdraw/", views.waiting_list_remove, name="waiting_list_withdraw"),
    path("officers/transfers/", views.transfers, name="transfers"),
    path("officers/removals/", views.removals, name="removals"),
    path("officers/suspensions/", views.suspensions, name="suspensions"),
    path("officers/suspensions/<int:pk>/end/", views.suspension_end_view, name="suspension_end"),
    path("officers/signatures/", views.signatures, name="signatures"),
    path("officers/signatures/<int:pk>/withdraw/", views.signature_withdraw, name="signature_withdraw"),
    # A club without the Django admin (SPEC §16.8): officers' terms and invitations.
    path("officers/terms/", login_views.officer_terms, name="officer_terms"),
    path("officers/terms/<int:pk>/end/", login_views.officer_term_end_view, name="officer_term_end"),
    path("officers/invitations/", login_views.invitations, name="invitations"),
    path("invitation/<str:token>/", login_views.invitation_accept_view, name="invitation_accept"),
    # Governance (issue 10)
    path("votes/", governance_views.index, name="governance"),
    path("votes/ballots/<int:pk>/", governance_views.ballot_detail, name="ballot"),
    path("votes/ballots/<int:pk>/vote/", governance_views.ballot_vote, name="ballot_vote"),
    path("votes/ballots/<int:pk>/<str:step>/", governance_views.ballot_step, name="ballot_step"),
    path("votes/elections/new/", governance_views.election_new, name="election_new"),
    path("votes/elections/<int:pk>/nominate/", governance_views.nominate, name="nominate"),
    path(
        "votes/nominations/<int:pk>/withdraw/",
        governance_views.nomination_withdraw,
        name="nomination_withdraw",
    ),
    path("votes/questions/<int:pk>/tie/", governance_views.tie_resolve, name="tie_resolve"),
    path("votes/rule-changes/", governance_views.rule_changes, name="rule_changes"),
    path(
        "votes/rule-changes/<int:pk>/accept/", governance_views.rule_change_accept, name="rule_change_accept"
    ),
    path(
        "votes/rule-changes/<int:pk>/decline/",
        governance_views.rule_change_decline,
        name="rule_change_decline",
    ),
    path("votes/rule-changes/<int:pk>/apply/", governance_views.rule_change_apply, name="rule_change_apply"),
    path(
        "votes/rule-changes/<int:pk>/by-hand/",
        governance_views.rule_change_by_hand,
        name="rule_change_by_hand",
    ),
    path("votes/record/", governance_views.vote_record_view, name="vote_record"),
    path("disputes/who-rules/", governance_views.who_rules_view, name="who_rules"),
    path("disputes/", governance_views.rulings, name="rulings"),
    path("disputes/new/", governance_views.ruling_new, name="ruling_new"),
]
