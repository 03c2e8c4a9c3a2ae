"""REST routes of the match chat (under /api/v1/)."""

from django.urls import path

from games.api.chat import views

urlpatterns = [
    path("matches/<str:match_id>/chat/<str:room>/", views.ChatRoomView.as_view(),
         name="match-chat"),
    path("matches/<str:match_id>/chat/<str:room>/<str:message_id>/",
         views.ChatMessageView.as_view(), name="match-chat-message"),
]

urlpatterns += [
    path("chat/mutes/", views.ChatMuteListView.as_view(), name="chat-mutes"),
    path("chat/mutes/<str:username>/", views.ChatMuteView.as_view(), name="chat-mute"),
]
