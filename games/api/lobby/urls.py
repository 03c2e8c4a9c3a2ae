"""REST routes of the lobby (under /api/v1/)."""

from django.urls import path

from games.api.lobby import views

urlpatterns = [
    path("private-matches/", views.PrivateMatchListView.as_view(), name="private-matches"),
    path("private-matches/join/", views.JoinByCodeView.as_view(), name="private-match-join"),
    path("matches/<str:match_id>/lobby/", views.MatchLobbyView.as_view(), name="match-lobby"),
    path("matches/<str:match_id>/invitations/", views.MatchInvitationsView.as_view(),
         name="match-invitations"),
    path("matches/<str:match_id>/rematch/", views.RematchView.as_view(), name="match-rematch"),
    path("invitations/", views.MyInvitationsView.as_view(), name="my-invitations"),
    path("invitations/<str:invitation_id>/accept/", views.AcceptInvitationView.as_view(),
         name="invitation-accept"),
    path("invitations/<str:invitation_id>/decline/", views.DeclineInvitationView.as_view(),
         name="invitation-decline"),
]
