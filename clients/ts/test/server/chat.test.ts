/**
 * The match chat through the client against the real server (docs/chat.md): a message
 * sent over the play socket resolves with the stored message after the commit, is pushed
 * to the other seat's `onChat` and listed by REST; a spectator is never pushed the
 * players' room; a refusal carries REST's code and status.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";

import { PlayError, unwrap, type ChatPushMessage } from "../../src/index.js";
import { closeAll, needsServer, play, rest, startMatch, until } from "./support.js";

after(closeAll);

describe("the match chat", needsServer, () => {
  it("sends over the socket, pushes to the readers of the room only, and lists over REST", async () => {
    const matchId = await startMatch("han");
    const heard: Record<string, ChatPushMessage[]> = { first: [], second: [], spectator: [] };
    const first = await play(0);
    const second = await play(1);
    const spectator = await play(null);
    await first.subscribe(matchId, { onChat: (message) => heard.first!.push(message) });
    await second.subscribe(matchId, { onChat: (message) => heard.second!.push(message) });
    await spectator.subscribe(matchId, { onChat: (message) => heard.spectator!.push(message) });

    const sent = await first.chat(matchId, "players", "  good luck  ");
    assert.equal(sent.text, "good luck");
    assert.equal(sent.room, "players");
    assert.equal(sent.author, first.user?.username);
    await second.chat(matchId, "spectators", "hello watchers");
    await until(() => heard.spectator!.length === 1 && heard.second!.length === 2,
      "the pushes");
    assert.deepEqual(heard.second!.map((message) => message.text), ["good luck", "hello watchers"]);
    assert.deepEqual(heard.spectator!.map((message) => message.text), ["hello watchers"]);
    assert.equal(heard.second![0]!.id, sent.id);

    const page = unwrap(await rest(1).GET("/api/v1/matches/{match_id}/chat/{room}/", {
      params: { path: { match_id: Number(matchId), room: "players" } },
    }));
    assert.deepEqual(page.results.map((message) => message.text), ["good luck"]);
  });

  it("rejects a refused message with REST's code and status, and an anonymous one", async () => {
    const matchId = await startMatch("han");
    const first = await play(0);
    const empty = await first.chat(matchId, "players", "   ")
      .then(() => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.equal(empty.kind, "refused");
    assert.equal(empty.code, "chat_text_empty");
    assert.equal(empty.status, 400);
    const spectator = await play(null);
    const anonymous = await spectator.chat(matchId, "spectators", "hi")
      .then(() => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.equal(anonymous.code, "authentication_required");
    const page = unwrap(await rest(0).GET("/api/v1/matches/{match_id}/chat/{room}/", {
      params: { path: { match_id: Number(matchId), room: "spectators" } },
    }));
    assert.equal(page.count, 0);
  });
});
