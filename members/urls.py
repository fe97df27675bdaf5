from django.urls import path

from members.views import governance, logins, people, seats, signatures

app_name = "members"

urlpatterns = [
    path("", people.directory, name="directory"),
    path("people/<slug:key>/", people.profile, name="profile"),
    path("people/<slug:key>/turned-pro/", people.turned_pro, name="turned_pro"),
    path("people/<slug:key>/edit/", people.person_edit, name="person_edit"),
    path("my-email/", people.own_email, name="own_email"),
    path("officers/", people.manage, name="manage"),
    path("officers/people/new/", people.person_new, name="person_new"),
    path("officers/admit/", seats.admit, name="admit"),
    path("officers/waiting-list/", seats.waiting_list_page, name="waiting_list"),
    path("officers/waiting-list/<int:pk>/move/", seats.waiting_list_reorder, name="waiting_list_move"),
    path("officers/waiting-list/<int:pk>/withdraw/", seats.waiting_list_remove, name="waiting_list_withdraw"),
    path("officers/transfers/", seats.transfers, name="transfers"),
    path("officers/removals/", seats.removals, name="removals"),
    path("officers/suspensions/", seats.suspensions, name="suspensions"),
    path("officers/suspensions/<int:pk>/end/", seats.suspension_end_view, name="suspension_end"),
    path("officers/signatures/", signatures.signatures, name="signatures"),
    path("officers/signatures/<int:pk>/withdraw/", signatures.signature_withdraw, name="signature_withdraw"),
    # A club without the Django admin (SPEC §16.8): officers' terms and invitations.
    path("officers/terms/", logins.officer_terms, name="officer_terms"),
    path("officers/terms/<int:pk>/end/", logins.officer_term_end_view, name="officer_term_end"),
    path("officers/invitations/", logins.invitations, name="invitations"),
    path("invitation/<str:token>/", logins.invitation_accept_view, name="invitation_accept"),
    # Governance (issue 10)
    path("votes/", governance.index, name="governance"),
    path("votes/ballots/<int:pk>/", governance.ballot_detail, name="ballot"),
    path("votes/ballots/<int:pk>/vote/", governance.ballot_vote, name="ballot_vote"),
    path("votes/ballots/<int:pk>/<str:step>/", governance.ballot_step, name="ballot_step"),
    path("votes/elections/new/", governance.election_new, name="election_new"),
    path("votes/elections/<int:pk>/nominate/", governance.nominate, name="nominate"),
    path(
        "votes/nominations/<int:pk>/withdraw/",
        governance.nomination_withdraw,
        name="nomination_withdraw",
    ),
    path("votes/questions/<int:pk>/tie/", governance.tie_resolve, name="tie_resolve"),
    path("votes/rule-changes/", governance.rule_changes, name="rule_changes"),
    path("votes/rule-changes/<int:pk>/accept/", governance.rule_change_accept, name="rule_change_accept"),
    path(
        "votes/rule-changes/<int:pk>/decline/",
        governance.rule_change_decline,
        name="rule_change_decline",
    ),
    path("votes/rule-changes/<int:pk>/apply/", governance.rule_change_apply, name="rule_change_apply"),
    path(
        "votes/rule-changes/<int:pk>/by-hand/",
        governance.rule_change_by_hand,
        name="rule_change_by_hand",
    ),
    path("votes/record/", governance.vote_record_view, name="vote_record"),
    path("disputes/who-rules/", governance.who_rules_view, name="who_rules"),
    path("disputes/", governance.rulings, name="rulings"),
    path("disputes/new/", governance.ruling_new, name="ruling_new"),
]
