// The example page's script: plain JavaScript over the built client (../dist/), as a
// third-party application would use it. The player signs in with OAuth 2 and PKCE: the page
// sends them to the service's consent page and gets back a scoped token; it never sees
// their password. (`?token=` takes a personal access token instead, for trying the page
// without registering an app.)
import {
  ApiError, connect, createPkceSignIn, createRestClient, OAuthError, PlayError, unwrap,
} from "../dist/index.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const FIELDS = ["api", "client_id", "scope", "match"];
// what the form held survives the trip to the consent page (sessionStorage: this tab only)
const SETTINGS = "example.settings";
const saved = JSON.parse(sessionStorage.getItem(SETTINGS) ?? "{}");
for (const name of FIELDS) {
  const value = params.get(name) ?? saved[name];
  if (value) $(name).value = value;
}

/** What the page did, for a person (the log) and for the browser test (window.example). */
const example = {
  acks: [], errors: [], refused: [], pushes: 0, ply: null, connected: false, chats: [],
  signedIn: false, scopes: [], authLost: false, closedWith: null,
};
window.example = example;

function log(line) {
  $("log").textContent += `${new Date().toISOString().slice(11, 19)} ${line}\n`;
}

function describe(error) {
  if (error instanceof PlayError || error instanceof ApiError || error instanceof OAuthError) {
    return `${error.code}${error.status ? ` (${error.status})` : ""}: ${error.message}`;
  }
  return String(error);
}

function settings() {
  const value = (name) => $(name).value.trim();
  return { api: value("api").replace(/\/+$/, ""), client_id: value("client_id"),
           scope: value("scope"), match: value("match") };
}

/** The PKCE helper for this app; the redirect URI is this very page (registered exactly). */
function signInFor({ api, client_id, scope }) {
  return createPkceSignIn({
    server: api,
    clientId: client_id,
    redirectUri: `${location.origin}${location.pathname}`,
    scopes: scope.split(/\s+/).filter(Boolean),
    persist: true,   // sessionStorage: a reload stays signed in; never localStorage
  });
}

let signIn = null;
let play_ = null;
let matchId = null;
let api = null;
let rest = null;

/** "Sign in and play": off to the service's consent page (signing in there first). */
async function startSignIn(event) {
  event.preventDefault();
  const current = settings();
  sessionStorage.setItem(SETTINGS, JSON.stringify(current));
  if (params.get("token")) return play(current, params.get("token"));
  try {
    await signInFor(current).start();
  } catch (error) {
    example.errors.push(describe(error));
    log(`could not start signing in: ${describe(error)}`);
  }
}

/** On load: back from the consent page (redeem the code), or still signed in. */
async function resume() {
  const current = settings();
  if (!current.api || !current.client_id) return false;
  signIn = signInFor(current);
  if (signIn.isCallback()) {
    try {
      await signIn.callback();
    } catch (error) {
      example.errors.push(describe(error));
      log(`sign-in failed: ${describe(error)}`);
      return true;
    } finally {
      history.replaceState(null, "", location.pathname);   // the code is used: drop it
    }
  }
  const token = await signIn.accessToken();   // refreshed (rotated) when about to expire
  if (!token) return false;
  example.signedIn = true;
  example.scopes = signIn.tokens.scopes;
  $("scopes").textContent = example.scopes.join(" ");
  $("signout").disabled = false;
  $("newmatch").disabled = false;
  await play(current, token);
  return true;
}

async function play(current, token) {
  play_?.close();
  matchId = current.match;
  api = current.api;
  rest = createRestClient({ baseUrl: api, token });
  try {
    // typed REST: the match's game and your seat
    const match = unwrap(await rest.GET("/api/v1/matches/{match_id}/", {
      params: { path: { match_id: Number(matchId) } },
    }));
    $("game").textContent = `${match.game}, ${match.players} players, ${match.status}`;

    // the play socket: one connection, pushes with your view and legal moves
    play_ = await connect({
      url: api,
      token,   // the scoped access token: the socket's ops check its scopes
      onDisconnect: (info) => {
        $("status").textContent = info.willReconnect ? "reconnecting" : "disconnected";
        log(`connection lost (${info.code})${info.willReconnect ? `, retrying in ${info.delayMs} ms` : ""}`);
      },
      onReconnect: () => {
        $("status").textContent = "connected";
        log("reconnected: resyncing");
      },
      onAuthLost: () => {
        example.authLost = true;
        $("status").textContent = "signed out";
        log("the token was refused or revoked: sign in again");
      },
      onClose: (info) => {
        example.closedWith = info.code;
        log(`connection closed (${info.code})`);
      },
      onError: (error) => log(`error ${describe(error)}`),
    });
    example.connected = true;
    $("status").textContent = "connected";
    log(`signed in as ${play_.user ? play_.user.username : "a spectator"}`);
    $("player").textContent = play_.user ? play_.user.username : "a spectator";
    await play_.subscribe(matchId, {
      onSync: (sync, { resync }) => {
        log(`${resync ? "resync" : "sync"} at ply ${sync.ply}${sync.moves.length ? `, ${sync.moves.length} missed moves` : ""}`);
        show(sync);
      },
      onUpdate: (update) => {
        log(`update to ply ${update.ply}: ${update.moves.map((m) => `seat ${m.seat} ${m.move?.type ?? "?"}`).join(", ") || update.status}`);
        show(update);
      },
      // the server sends only the rooms you may read, never a muted author's messages
      onChat: (message) => {
        example.chats.push({ room: message.room, author: message.author, text: message.text });
        $("chatlog").textContent += `[${message.room}] ${message.author ?? "?"}: ` +
          `${message.deleted ? "(deleted)" : message.text}\n`;
      },
    });
    $("chatsend").disabled = !play_.user;   // an anonymous socket reads only
  } catch (error) {
    example.errors.push(describe(error));
    $("status").textContent = "error";
    log(`could not start: ${describe(error)}`);
  }
}

function show(push) {
  example.pushes += 1;
  example.ply = push.ply;
  $("ply").textContent = String(push.ply);
  $("seat").textContent = push.seat === null ? "spectator" : String(push.seat);
  $("view").textContent = JSON.stringify(push.view, null, 2);
  const moves = $("moves");
  moves.replaceChildren();
  if (!push.legal_moves?.length) {
    moves.innerHTML = `<em>${push.status === "active" ? "not your turn" : push.status}</em>`;
    return;
  }
  for (const move of push.legal_moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = JSON.stringify(move);
    button.addEventListener("click", () => send(move));
    moves.append(button);
  }
}

async function send(move) {
  const current = play_?.subscription(matchId);
  if (!current) return;
  for (const button of document.querySelectorAll("#moves button")) button.disabled = true;
  try {
    // expected_ply defaults to the last ply this page was sent: no move on an old picture
    const ack = await current.move(move, { timeoutMs: 15000 });
    example.acks.push(ack.ply);
    log(`played ${move.type}: acknowledged at ply ${ack.ply}`);
  } catch (error) {
    example.errors.push(describe(error));
    log(`move refused: ${describe(error)}`);
    for (const button of document.querySelectorAll("#moves button")) button.disabled = false;
  }
}

/** Send a chat message over the play socket: resolved with it after the commit. */
async function say(event) {
  event.preventDefault();
  const text = $("chattext").value;
  try {
    await play_.chat(matchId, $("chatroom").value, text);
    $("chattext").value = "";
  } catch (error) {
    // refused with REST's code: chat_text_empty, chat_rate_limited, insufficient_scope...
    example.errors.push(describe(error));
    log(`message refused: ${describe(error)}`);
  }
}

/** Creating a match needs `match:write`: refused (403 insufficient_scope) unless granted. */
async function newMatch() {
  try {
    const match = unwrap(await rest.POST("/api/v1/matches/", {
      body: { game: "han", players: 2, bot_seats: { "1": "random" } },
    }));
    log(`created match ${match.id}`);
  } catch (error) {
    example.refused.push({ code: error.code, status: error.status, details: error.details });
    log(`could not create a match: ${describe(error)}`);
  }
}

async function signOut() {
  play_?.close();
  await signIn?.signOut();   // RFC 7009: both tokens revoked, then forgotten
  example.signedIn = false;
  $("player").textContent = "signed out";
  $("status").textContent = "not connected";
  $("signout").disabled = true;
  $("newmatch").disabled = true;
  log("signed out");
}

$("signin").addEventListener("submit", startSignIn);
$("signout").addEventListener("click", signOut);
$("newmatch").addEventListener("click", newMatch);
$("chat").addEventListener("submit", say);
const resumed = await resume();
if (!resumed && params.get("autostart")) $("connect").click();
