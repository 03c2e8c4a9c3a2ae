"""A small play-socket client for the tests (docs/play.md), on the `websockets` library:
frames in order, with helpers to wait for the next frame of an op."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.client import connect


class PlayClient:
    def __init__(self, ws) -> None:
        self.ws = ws
        self.frames: list[dict] = []  # every frame received, in order
        self._unread: list[dict] = []

    @classmethod
    async def open(cls, address: str, token: str | None = None, *, hello: bool = True,
                   origin: str | None = None, headers: dict | None = None,
                   **options) -> PlayClient:
        headers = {**({"Origin": origin} if origin else {}), **(headers or {})} or None
        ws = await connect(f"ws://{address}/play/", additional_headers=headers,
                           open_timeout=10, **options)
        client = cls(ws)
        if hello:
            await client.send({"op": "hello", "token": token})
            welcome = await client.next("welcome", "error")
            assert welcome["op"] == "welcome", welcome
        return client

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def next(self, *ops: str, timeout: float = 10) -> dict:
        """The next unread frame whose op is one of ``ops`` (frames of other ops before it
        stay unread for later calls)."""
        for index, frame in enumerate(self._unread):
            if not ops or frame["op"] in ops:
                return self._unread.pop(index)
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            frame = json.loads(await asyncio.wait_for(self.ws.recv(), max(left, 0.01)))
            self.frames.append(frame)
            if not ops or frame["op"] in ops:
                return frame
            self._unread.append(frame)

    async def request(self, message: dict, *ops: str) -> dict:
        await self.send(message)
        return await self.next(*ops)

    async def subscribe(self, match_id, since: int | None = None) -> dict:
        message = {"op": "subscribe", "match": str(match_id)}
        if since is not None:
            message["since"] = since
        subscribed = await self.request(message, "subscribed", "error")
        assert subscribed["op"] == "subscribed", subscribed
        return await self.next("sync")

    async def move(self, match_id, move: dict, expected_ply: int | None = None,
                   ref: str = "m") -> dict:
        message = {"op": "move", "ref": ref, "match": str(match_id), "move": move}
        if expected_ply is not None:
            message["expected_ply"] = expected_ply
        return await self.request(message, "ack", "refused", "error")

    async def close(self) -> None:
        await self.ws.close()
