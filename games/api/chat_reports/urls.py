"""REST route of chat reports (under /api/v1/)."""

from django.urls import path

from games.api.chat_reports import views

urlpatterns = [
    path("matches/<str:match_id>/chat/<str:room>/<str:message_id>/report/",
         views.ChatReportView.as_view(), name="chat-message-report"),
]
