"""The plain-JavaScript client at the top of docs/frontend.md ("Play over one socket") works
as printed: Node.js runs the page's first ``js`` block, one copy per seat, against the
production web tier, and the two copies play a whole Hansa match to its end. Only the
address and the caller's own pieces (the match id, the token, ``draw``, ``choose``) are
supplied; a listener added after the block reports what arrived."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.matches.models import Match, Move
from tests.games.graphql.support import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE_URL = '"wss://play.example.com/play/"'

HARNESS_BEFORE = """
const matchId = process.env.MATCH_ID, token = process.env.TOKEN;
const draw = () => {};
const choose = (moves) => moves[0];
"""
HARNESS_AFTER = """
const seen = {}, codes = [];
socket.addEventListener("message", ({ data }) => {
  const message = JSON.parse(data);
  seen[message.op] = (seen[message.op] || 0) + 1;
  if (message.error) codes.push(message.error.code);
  if ((message.op === "sync" || message.op === "update") && message.status === "finished") {
    socket.close(1000);
  }
});
socket.addEventListener("close", () => {
  const ply = latest.get(matchId)?.ply, status = latest.get(matchId)?.status;
  console.log(JSON.stringify({ ply, status, seen, codes, lastEventId }));
  process.exit(0);
});
setTimeout(() => { console.log(JSON.stringify({ timeout: true, seen, codes })); process.exit(1); },
           120000);
"""


def example_code() -> str:
    text = (ROOT / "docs" / "frontend.md").read_text()
    section = text[text.index("## Play over one socket"):text.index("## REST and GraphQL")]
    blocks = re.findall(r"```js\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "one JavaScript example in the section"
    return blocks[0]


def node_command() -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    native = subprocess.run([node, "-e", "process.exit(typeof WebSocket === 'function' ? 0 : 1)"],
                            capture_output=True).returncode == 0
    return [node] if native else [node, "--experimental-websocket"]  # Node.js 20 and 21


def test_the_example_plays_a_whole_match_from_both_seats(web_tier, players, tmp_path):
    code = example_code()
    assert EXAMPLE_URL in code
    match_id = start_match("hansa", players[:2])
    script = tmp_path / "example.js"
    script.write_text(HARNESS_BEFORE + code.replace(EXAMPLE_URL, json.dumps(f"ws://{web_tier}/play/"))
                      + HARNESS_AFTER)
    runs = [subprocess.Popen([*node_command(), str(script)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env={"PATH": "/usr/bin:/bin", "MATCH_ID": str(match_id),
                                  "TOKEN": player.token})
            for player in players[:2]]
    reports = []
    for run in runs:
        out, err = run.communicate(timeout=150)
        assert run.returncode == 0, (out, err)
        reports.append(json.loads(out.strip().splitlines()[-1]))

    match = Match.objects.get(pk=match_id)
    assert match.status == "finished"
    assert list(Move.objects.filter(match_id=match_id).order_by("ply")
                .values_list("ply", flat=True)) == list(range(match.ply))
    for report in reports:
        assert report["status"] == "finished" and report["ply"] == match.ply, report
        assert report["seen"]["welcome"] == 1 and report["seen"]["sync"] == 1
        assert report["seen"]["ack"] >= 10 and report["seen"].get("feed_event", 0) >= 2
        assert report["lastEventId"] > 0
        # a copy may answer a push the other seat's move made stale (a choice twice in a
        # simultaneous phase, a move after the last one): refused, never logged
        assert set(report["codes"]) <= {"stale_ply", "not_your_turn", "match_not_active"}, \
            report
