"""``Match.lobby``: what the lobby knows of a match, REST's ``lobby`` object (the lobby
actions' answers and ``GET /matches/{id}/lobby/``), from games.lobby.selectors."""

from __future__ import annotations

import strawberry


@strawberry.type(description="Is the match private, its invite code (for its creator and "
                 "players), its rematch.")
class LobbyInfo:
    private: bool = strawberry.field(description="Unlisted: seats by invite code or "
                                     "invitation only.")
    invite_code: str | None = strawberry.field(description="For the creator and the "
                                               "players of a private match; null otherwise.")
    rematch: strawberry.ID | None = strawberry.field(description="This match's rematch, "
                                                     "once proposed.")
    rematch_of: strawberry.ID | None = strawberry.field(description="The match this one is "
                                                        "the rematch of.")

    @classmethod
    def from_row(cls, row: dict) -> LobbyInfo:
        def ident(value):
            return strawberry.ID(str(value)) if value is not None else None
        return cls(private=row["private"], invite_code=row["invite_code"],
                   rematch=ident(row["rematch"]), rematch_of=ident(row["rematch_of"]))
