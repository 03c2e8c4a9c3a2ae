"""Every model of the games app, gathered for Django's app registry.

Django finds an app's models by importing ``games.models``; each capability keeps its own
in ``games/<capability>/models.py`` (written only by that capability's services), and
importing them here registers them with the app. Code imports a model from its
capability's module, not from here.
"""

from games.analysis.models import AnalysedDecision, Analysis  # noqa: F401
from games.chat.models import ChatMessage, ChatMute, ChatRoom  # noqa: F401
from games.chat.moderation.models import (  # noqa: F401
    ChatReport,
    ChatSanction,
    ModerationAction,
)
from games.feed.models import FeedEvent  # noqa: F401
from games.lobby.models import Invitation, PrivateMatch, Rematch  # noqa: F401
from games.mail.models import Mail, MailAddress  # noqa: F401
from games.matches.incidents import Incident  # noqa: F401, E402 - after Match: it refers to it
from games.matches.models import (  # noqa: F401
    ENDED_STATUSES,
    AppendOnlyError,
    Match,
    MatchStatus,
    Move,
    Result,
    Seat,
)
from games.notifications.models import Preference, PushSubscription, Reminder  # noqa: F401
from games.quickmatch.models import QuickMatchRequest  # noqa: F401
from games.ratings.models import Rating, RatingChange  # noqa: F401
from games.webhooks.models import Delivery, Endpoint  # noqa: F401
