// A socket driver for ../shared/peer-bench/bench.js (the contract at its top), built on the
// official TypeScript client (clients/ts; build it first: `make clients` then
// `cd clients/ts && npm run build`). Each seat of a two-player Han match holds one
// PlayClient subscribed to the match; a move is `subscription.move()`, acknowledged after
// the commit, and timed until the mover's own update of the new ply has arrived; the state
// with the legal moves of the seat to act is pushed to both clients, so a move costs one
// message and no second request.
//   OURS_WS_DRIVER=bench/peer_ws_driver.js python3 ../shared/peer-bench/peer_bench.py
const path = require('path');
const { pathToFileURL } = require('url');

let clientModule = null;
async function client() {
  if (!clientModule) {
    const entry = path.resolve(__dirname, '..', 'clients', 'ts', 'dist', 'socket.js');
    clientModule = await import(pathToFileURL(entry).href);
  }
  return clientModule;
}

// Wait until `pred()` holds, re-checked at every push the seat receives.
function until(seat, pred, ms = 10000) {
  return new Promise((resolve, reject) => {
    if (pred()) return resolve();
    const timer = setTimeout(() => reject(new Error('update timeout')), ms);
    const check = () => { if (pred()) { clearTimeout(timer); resolve(); } else seat.waiters.push(check); };
    seat.waiters.push(check);
  });
}

function wake(seat) {
  const waiting = seat.waiters;
  seat.waiters = [];
  for (const w of waiting) w();
}

async function openSeat(port, token, WebSocket, matchId) {
  const { connect } = await client();
  const seat = { waiters: [], sub: null, play: null };
  seat.play = await connect({ url: `ws://127.0.0.1:${port}/play/`, token, WebSocket, reconnect: false });
  seat.sub = await seat.play.subscribe(matchId, { onSync: () => wake(seat), onUpdate: () => wake(seat) });
  return seat;
}

async function newMatch({ port, tokens, WebSocket, req }) {
  const c = await req(port, 'POST', '/api/v1/matches/', tokens[0], { game: 'han', players: 2, take_seat: true });
  if (c.status !== 201) throw new Error(`create ${c.status}`);
  const j = await req(port, 'POST', `/api/v1/matches/${c.json.id}/join/`, tokens[1], {});
  if (j.status !== 200 && j.status !== 201) throw new Error(`join ${j.status}`);
  const id = String(c.json.id);
  // both seats connect at once, as two players' browsers would
  const seats = await Promise.all([openSeat(port, tokens[0], WebSocket, id), openSeat(port, tokens[1], WebSocket, id)]);
  for (const s of seats) await until(s, () => s.sub.ply !== null && s.sub.ply >= j.json.ply);
  return { id, seats };
}

const ply = (s) => (s.sub.ply === null ? -1 : s.sub.ply);

// Both clients hold the latest ply; the seat to act got its legal moves with it.
async function sync(m) {
  const latest = Math.max(ply(m.seats[0]), ply(m.seats[1]));
  for (const s of m.seats) await until(s, () => ply(s) >= latest);
}

const over = (m) => { const last = m.seats[0].sub.last; return !!last && last.status !== 'active'; };

function legalMoves(m) {
  const seat = m.seats[0].sub.last.to_act[0];
  return { seat, moves: m.seats[seat].sub.legalMoves };
}

// The contract's `acked` is the mover's socket holding the new state: the `ack` frame
// comes just before the mover's own `update` of that ply, so wait for the update too
// (resolving on the ack alone timed a move a frame short of what boardgame.io's is timed to).
function move(m, seat, mv) {
  const mover = m.seats[seat];
  const before = ply(mover);
  const acked = mover.sub.move(mv, { expectedPly: before })
    .then((ack) => until(mover, () => ply(mover) >= ack.ply).then(() => ack));
  const other = until(m.seats[1 - seat], () => ply(m.seats[1 - seat]) > before);
  return { acked, other };
}

function stop(m) { for (const s of m.seats) { try { s.play.close(); } catch (e) { /* closed */ } } }

module.exports = { newMatch, sync, over, legalMoves, move, stop };
