from django.urls import path

from members import views

app_name = "members"

urlpatterns = [
    path("", views.directory, name="directory"),
    path("people/<slug:key>/", views.profile, name="profile"),
    path("people/<slug:key>/turned-pro/", views.turned_pro, name="turned_pro"),
    path("officers/", views.manage, name="manage"),
    path("officers/people/new/", views.person_new, name="person_new"),
    path("officers/admit/", views.admit, name="admit"),
    path("officers/waiting-list/", views.waiting_list_page, name="waiting_list"),
    path("officers/waiting-list/<int:pk>/move/", views.waiting_list_reorder, name="waiting_list_move"),
    path("officers/waiting-list/<int:pk>/withdraw/", views.waiting_list_remove, name="waiting_list_withdraw"),
    path("officers/transfers/", views.transfers, name="transfers"),
    path("officers/removals/", views.removals, name="removals"),
    path("officers/suspensions/", views.suspensions, name="suspensions"),
    path("officers/signatures/", views.signatures, name="signatures"),
]
