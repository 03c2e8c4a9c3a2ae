"""The close codes the documents give for revoked access are the code's (issue 41:
frontend.md and api.md said a revoked play socket closes with 4403; it closes with 4401,
and only GraphQL's websocket uses 4403).

Every paragraph of README.md and docs/*.md that names the GraphQL revocation code must
say it is GraphQL's, and every paragraph that tells a reader about revoked or refused
access on the play socket must give the play socket's code."""

from __future__ import annotations

import re

from accounts.revocation import ACCESS_REVOKED_CLOSE_CODE
from games.play.protocol import CLOSE_UNAUTHENTICATED
from tests.runnable_docs import documents


def _paragraphs():
    for path in documents():
        text = path.read_text(encoding="utf-8")
        # a list item or a blank-line-separated block is one paragraph
        for paragraph in re.split(r"\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )", text):
            yield path.name, " ".join(paragraph.split())


def test_the_codes_differ_as_documented():
    assert (CLOSE_UNAUTHENTICATED, ACCESS_REVOKED_CLOSE_CODE) == (4401, 4403)


def test_the_graphql_code_is_never_given_as_the_play_sockets():
    """Each mention of 4403 names GraphQL just before it (within a sentence's reach): a
    list item that merely mentions GraphQL elsewhere once hid a wrong play-socket code."""
    wrong = []
    for name, paragraph in _paragraphs():
        for found in re.finditer(str(ACCESS_REVOKED_CLOSE_CODE), paragraph):
            near = paragraph[max(0, found.start() - 90):found.end() + 15]
            if "GraphQL" not in near:
                wrong.append((name, near))
    assert not wrong, wrong


def test_revocation_on_the_play_socket_gives_its_own_code():
    missing = [(name, paragraph[:160]) for name, paragraph in _paragraphs()
               if "access_revoked" in paragraph and str(CLOSE_UNAUTHENTICATED) not in paragraph]
    assert not missing, missing
