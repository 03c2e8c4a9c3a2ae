"""The engine contract every game implements (docs/architecture.md, "The engine contract").

The method names are fixed: the service, the bots, the benchmarks and outside checks call
exactly these. A game's state is whatever object its engine likes (engines pick a fast,
copyable representation); outside the engine it is opaque and crosses boundaries only
through ``to_json`` / ``from_json``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any


class IllegalMove(Exception):
    """A move the rules refuse, or one that is malformed.

    ``code`` is stable and machine-readable (clients switch on it); ``message`` names the
    problem for a person, in English; ``text`` is the same message as built with
    ``rules.text.tr`` (the service translates it); ``details`` is JSON-able context that
    reveals nothing hidden.
    """

    #: messages often quote the client's input; a client sending a huge value gets a
    #: message of bounded length back (and logs stay readable)
    MAX_MESSAGE_LENGTH = 300

    def __init__(self, code: str, message: str, details: dict | None = None) -> None:
        text = message
        if len(message) > self.MAX_MESSAGE_LENGTH:
            message = message[: self.MAX_MESSAGE_LENGTH - 3] + "..."
        super().__init__(message)
        self.code = code
        self.message = message
        self.text = text  # a rules.text.Text when built with tr(): translatable
        self.details = details or {}

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r})"


class InvalidOptions(ValueError):
    """Bad set-up: unknown option, wrong type, or a player count the game refuses."""

    def __init__(self, code: str, message: str, details: dict | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.text = message  # a rules.text.Text when built with tr(): translatable
        self.details = details or {}


class Engine(ABC):
    #: registry key, e.g. "han"
    name: str = ""
    #: display name, e.g. "Han"
    title: str = ""
    #: bumped whenever a rules change could make an old log replay differently
    rules_version: str = "1"

    # -- catalogue -------------------------------------------------------------------------
    @abstractmethod
    def describe(self) -> dict:
        """Catalogue entry: ``{"game", "title", "players": {"min", "max"},
        "options": <JSON schema of the options>, "rules_version"}``."""

    @abstractmethod
    def normalize_options(self, players: int, options: dict | None) -> dict:
        """Validate players and options; return the options with defaults filled in.
        Raises ``InvalidOptions`` naming the bad field."""

    # -- the game --------------------------------------------------------------------------
    @abstractmethod
    def setup(self, players: int, options: dict | None, seed: str) -> Any: ...

    @abstractmethod
    def to_act(self, state: Any) -> list[int]: ...

    @abstractmethod
    def legal_moves(self, state: Any, seat: int) -> list[dict]: ...

    @abstractmethod
    def apply(self, state: Any, seat: int, move: Any) -> tuple[Any, list[dict]]:
        """Return ``(new_state, events)``; the old state is left untouched. Events are
        JSON objects with a ``type``; one may carry what only one seat may know (a card it
        drew) as long as ``redact_event`` strips it for every other reader."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict: ...

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def result(self, state: Any) -> dict:
        """``{"scores": [..], "ranks": [..], "winners": [..], "breakdown": [..per seat..]}``"""

    @abstractmethod
    def to_json(self, state: Any) -> dict: ...

    @abstractmethod
    def from_json(self, data: dict) -> Any: ...

    # -- for clients --------------------------------------------------------------------------
    def move_schema(self) -> dict:
        """JSON Schema (draft 2020-12 subset that OpenAPI 3.1 and 3.0 tools read) of this
        game's moves: ``{"oneOf": [<one object schema per move type>], "discriminator":
        {"propertyName": "type"}}``, each branch with ``type`` as a one-value enum. The
        REST schema and the catalogue serve it; ``apply`` stays the judge of legality.
        The default accepts any object with a string ``type``."""
        return {
            "oneOf": [{
                "type": "object",
                "required": ["type"],
                "properties": {"type": {"type": "string"}},
            }],
            "discriminator": {"propertyName": "type"},
        }

    def view_schema(self) -> dict:
        """JSON Schema (2020-12, as OpenAPI 3.1 reads it) of what ``view`` returns, so a
        client generated from the REST schema types each game's view (issue 22): the
        components ``<Game>View``. The default says only that a view is an object with
        a ``game`` key."""
        return {"type": "object", "required": ["game"],
                "properties": {"game": {"type": "string"}}, "additionalProperties": True}

    def redact_event(self, event: dict, viewer: int | None) -> dict:
        """What ``viewer`` (a seat, or None for a spectator) may see of ``event`` while
        the game runs. The default shows everything; games whose events carry a seat's
        secret (a drawn card) override it and return a public stand-in ("drew a card").
        After the end the service shows every event whole."""
        return event

    def decision_age(self, state: Any, seat: int) -> int:
        """How many of the latest logged moves were made since ``seat``'s current decision
        became due without changing it (other seats' secret choices in a simultaneous
        phase). The service accepts an ``expected_ply`` anywhere in
        ``[ply - decision_age, ply]``. The default, 0, means every move changes every
        decision (turn-based games): only the current ply is accepted."""
        return 0

    # -- for the service and the bots --------------------------------------------------------
    def redact_move(self, move: dict, mover: int, viewer: int | None) -> dict:
        """What ``viewer`` may see of a logged move while the game runs. The default
        shows everything; games with secret moves override it. After the end the service
        shows the full log."""
        return move

    def move_value(self, view: dict, seat: int, move: dict) -> float:
        """Immediate points ``move`` would bring ``seat``, judged from that seat's view
        only. Used by the greedy bot; 0 where a game cannot tell."""
        return 0.0

    def move_values(self, view: dict, seat: int, moves: list[dict]) -> list[float]:
        """``move_value`` of each of ``moves``, in order, from one view: what the bots ask
        when they weigh every legal move. A game whose estimate starts from work that
        depends on the view only (Hansa) overrides it to do that work once."""
        return [self.move_value(view, seat, move) for move in moves]

    def sample_state(self, view: dict, seat: int, rng: Any) -> Any:
        """A determinization: a full state consistent with everything ``seat`` knows, drawn
        from ``rng`` (a ``SeededRng``) for what it cannot see (other hands, face-down cards,
        pile or deck order, other seats' pending simultaneous choices). ``view`` is
        ``self.view(state, seat)``; the sample's view for ``seat`` equals it. Pure: the
        same view and rng give the same state. Used by the search bots, which never get
        the true state. Games without hidden information may return any state of that view.
        """
        raise NotImplementedError(f"{self.name} cannot sample states")

    def playout_move(self, state: Any, seat: int, rng: Any) -> dict:
        """A legal move for ``seat`` (who is to act) drawn from ``rng``, for the search bots'
        rollouts: quick to draw, not a good move. The default is uniform over
        ``legal_moves``; a game may draw without listing every move, and weigh its kinds
        of move evenly where one kind has far more variants than the others."""
        moves = self.legal_moves(state, seat)
        return moves[rng.randbelow(len(moves))]

    def estimate_scores(self, state: Any) -> list[float]:
        """Each seat's final score as this position points to it, for search bots that stop
        a rollout early; on a finished game, the final scores. Each game says how it
        projects what is still to come (Han: the final scoring run on the board as it
        stands; Hansa: every round still to be scored paid at the current standings, then
        the final scoring). The default knows only finished games."""
        if self.is_over(state):
            return [float(score) for score in self.result(state)["scores"]]
        return [0.0] * len(self.view(state, None).get("scores", []))

    def full_view(self, state: Any) -> dict:
        """Everything of ``state`` in the shape of a view: every hand and face-down card,
        for pictures of a match that has ended (its replay at any ply is public then). The
        default is the spectator's view, which a game whose views hide nothing may keep.
        Never shown before the end: the service decides when (games/boards)."""
        return self.view(state, None)

    def render_svg(self, view: dict, translate: Callable[[str], str] | None = None) -> str | None:
        """An SVG picture of what ``view`` shows, for admins and debugging; ``None`` where
        a game draws nothing. Pure string building from the view alone (no I/O, no hidden
        state), with every text in it XML-escaped, so it is safe to embed in a page.
        ``translate`` maps each English label (a ``rules.text.tr`` template or a name from
        the game data) to another language; without it the labels are English."""
        return None

    def seat_colours(self) -> tuple[str, ...]:
        """The colour ``render_svg`` gives each seat (index = seat), so other pictures of a
        match (the admin's analysis graph) name seats in the board's colours. The default:
        none, a game whose board colours no seat."""
        return ()

    def drawing_legend(self) -> list[tuple[str, str]]:
        """The short labels of ``render_svg``'s drawing that need explaining, as ``(label,
        meaning)`` pairs shown under it (admin's replay page), so the service knows nothing
        of any game's picture. Texts for people are ``rules.text.tr`` texts (a label that
        is the same in every language may be a plain ``str``). The default: none, a drawing
        that explains itself."""
        return []
