// The example page's script: plain JavaScript over the built client (../dist/), as an
// application would use it.
import { ApiError, connect, createRestClient, PlayError, unwrap } from "../dist/index.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
for (const name of ["api", "token", "match"]) if (params.get(name)) $(name).value = params.get(name);

/** What the page did, for a person (the log) and for the browser test (window.example). */
const example = { acks: [], errors: [], pushes: 0, ply: null, connected: false };
window.example = example;

function log(line) {
  $("log").textContent += `${new Date().toISOString().slice(11, 19)} ${line}\n`;
}

function describe(error) {
  if (error instanceof PlayError || error instanceof ApiError) {
    return `${error.code}${error.status ? ` (${error.status})` : ""}: ${error.message}`;
  }
  return String(error);
}

let play = null;
let matchId = null;

async function start(event) {
  event.preventDefault();
  play?.close();
  const api = $("api").value.trim().replace(/\/+$/, "");
  const token = $("token").value.trim() || null;
  matchId = $("match").value.trim();
  try {
    // typed REST: the match's game and your seat
    const rest = createRestClient({ baseUrl: api, token });
    const match = unwrap(await rest.GET("/api/v1/matches/{match_id}/", {
      params: { path: { match_id: Number(matchId) } },
    }));
    $("game").textContent = `${match.game}, ${match.players} players, ${match.status}`;

    // the play socket: one connection, pushes with your view and legal moves
    play = await connect({
      url: api,
      token,
      onDisconnect: (info) => {
        $("status").textContent = info.willReconnect ? "reconnecting" : "disconnected";
        log(`connection lost (${info.code})${info.willReconnect ? `, retrying in ${info.delayMs} ms` : ""}`);
      },
      onReconnect: () => {
        $("status").textContent = "connected";
        log("reconnected: resyncing");
      },
      onAuthLost: () => log("the token was refused: sign in again"),
      onError: (error) => log(`error ${describe(error)}`),
    });
    example.connected = true;
    $("status").textContent = "connected";
    log(`signed in as ${play.user ? play.user.username : "a spectator"}`);
    await play.subscribe(matchId, {
      onSync: (sync, { resync }) => {
        log(`${resync ? "resync" : "sync"} at ply ${sync.ply}${sync.moves.length ? `, ${sync.moves.length} missed moves` : ""}`);
        show(sync);
      },
      onUpdate: (update) => {
        log(`update to ply ${update.ply}: ${update.moves.map((m) => `seat ${m.seat} ${m.move?.type ?? "?"}`).join(", ") || update.status}`);
        show(update);
      },
    });
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
  const current = play?.subscription(matchId);
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

$("signin").addEventListener("submit", start);
if (params.get("autostart")) $("connect").click();
