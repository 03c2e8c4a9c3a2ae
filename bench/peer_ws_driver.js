// A socket driver for ../shared/peer-bench/bench.js (the contract at its top): each seat of
// a two-player Han match holds one play socket (docs/play.md), subscribed to the match; a
// move is one `move` message, acknowledged after the commit, and the state with the legal
// moves of the seat to act is pushed to both sockets (no second request).
//   OURS_WS_DRIVER=bench/peer_ws_driver.js python3 ../shared/peer-bench/peer_bench.py
let nextRef = 1;

function openSeat(port, token, WebSocket) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/play/`);
    const seat = { ws, ply: -1, status: null, toAct: [], legal: null, waiters: [], pending: new Map() };
    ws.on('open', () => ws.send(JSON.stringify({ op: 'hello', token })));
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw);
      if (msg.op === 'welcome') return resolve(seat);
      if (msg.op === 'sync' || msg.op === 'update') {
        if (msg.ply >= seat.ply) {
          seat.ply = msg.ply; seat.status = msg.status; seat.toAct = msg.to_act; seat.legal = msg.legal_moves;
        }
        const waiting = seat.waiters; seat.waiters = [];
        for (const w of waiting) w();
      } else if (msg.op === 'ack' || msg.op === 'refused' || msg.op === 'error') {
        const p = seat.pending.get(msg.ref);
        if (p) { seat.pending.delete(msg.ref); p(msg); }
      }
    });
    ws.on('error', reject);
    setTimeout(() => reject(new Error('socket timeout')), 10000);
  });
}

function until(seat, pred, ms = 10000) {
  return new Promise((resolve, reject) => {
    if (pred()) return resolve();
    const t = setTimeout(() => reject(new Error('update timeout')), ms);
    const check = () => { if (pred()) { clearTimeout(t); resolve(); } else seat.waiters.push(check); };
    seat.waiters.push(check);
  });
}

async function newMatch({ port, tokens, WebSocket, req }) {
  const c = await req(port, 'POST', '/api/v1/matches/', tokens[0], { game: 'han', players: 2, take_seat: true });
  if (c.status !== 201) throw new Error(`create ${c.status}`);
  const j = await req(port, 'POST', `/api/v1/matches/${c.json.id}/join/`, tokens[1], {});
  if (j.status !== 200 && j.status !== 201) throw new Error(`join ${j.status}`);
  const seats = [await openSeat(port, tokens[0], WebSocket), await openSeat(port, tokens[1], WebSocket)];
  const m = { id: String(c.json.id), seats };
  for (const s of seats) s.ws.send(JSON.stringify({ op: 'subscribe', match: m.id }));
  for (const s of seats) await until(s, () => s.ply >= j.json.ply);
  return m;
}

// Both sockets hold the latest ply; the seat to act got its legal moves with it.
async function sync(m) {
  const ply = Math.max(m.seats[0].ply, m.seats[1].ply);
  for (const s of m.seats) await until(s, () => s.ply >= ply);
}

const over = (m) => m.seats[0].status !== null && m.seats[0].status !== 'active';

function legalMoves(m) {
  const seat = m.seats[0].toAct[0];
  return { seat, moves: m.seats[seat].legal };
}

function move(m, seat, mv) {
  const s = m.seats[seat];
  const before = s.ply;
  const ref = nextRef++;
  const acked = new Promise((resolve, reject) => {
    s.pending.set(ref, (msg) => (msg.op === 'ack' ? resolve() : reject(new Error((msg.error && msg.error.code) || msg.op))));
  });
  s.ws.send(JSON.stringify({ op: 'move', ref, match: m.id, move: mv, expected_ply: before }));
  const other = until(m.seats[1 - seat], () => m.seats[1 - seat].ply > before);
  return { acked, other };
}

function stop(m) { for (const s of m.seats) { try { s.ws.close(); } catch (e) { /* closed */ } } }

module.exports = { newMatch, sync, over, legalMoves, move, stop };
