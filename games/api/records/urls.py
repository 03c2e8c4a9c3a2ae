"""REST routes of game records (under /api/v1/)."""

from django.urls import path

from games.api.records import views

urlpatterns = [
    path("matches/<str:match_id>/record/", views.MatchRecordView.as_view(),
         name="match-record"),
    path("records/keys/", views.RecordSigningKeysView.as_view(), name="record-keys"),
    path("records/verify/", views.VerifyRecordView.as_view(), name="record-verify"),
    path("users/<str:username>/records/", views.UserRecordsView.as_view(),
         name="user-records"),
]
