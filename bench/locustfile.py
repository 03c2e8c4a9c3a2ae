"""Locust users for bench/load_test.py: each one is a person playing two-seat matches
against a greedy bot, one match after another. This file's ``Player`` plays over REST;
with ``LOAD_MODE=socket`` (load_test.py --socket) the users are bench/socket_players.py's
``SocketPlayer`` instead, who play over the play socket.

A user creates a match (Han for even user numbers, Hansa for odd ones) with seat 1 given
to a greedy bot, then loops: poll the match once a second with If-None-Match (a 304 while
nothing changed), and when its seat is to act, think 5-10 s like a fast human, read its
legal moves and play one of them with expected_ply. When the match leaves "active" it
starts the next one, so the load stays. The bot's replies are the workers' job.

Configured by the environment (load_test.py sets it): LOAD_HOSTS (comma-separated base
URLs, users spread over them), LOAD_TOKENS (a JSON file of API tokens, one per user),
THINK_MIN_S / THINK_MAX_S, POLL_S, LOAD_SEED (choices are random but repeatable).

The users are FastHttpUsers (geventhttpclient), which locust documents as several times
cheaper per request than HttpUser (python-requests): on a small machine shared with the
server, the load client must not be what saturates first (load_test.py prints its CPU
share). The differences that matter here, each handled: a 4xx/5xx still carries its status and body
(and counts as a failure unless caught); a connection error is a response with status 0,
no headers and ``text`` None; each request gives up after ``network_timeout`` (60 s).
"""

from __future__ import annotations

import itertools
import json
import os
import random

import gevent
from locust import FastHttpUser, task
from locust_matches import create_bot_match, describe

HOSTS = [host for host in os.environ.get("LOAD_HOSTS", "http://127.0.0.1:8000").split(",")
         if host]
TOKENS = json.loads(open(os.environ["LOAD_TOKENS"]).read()) if "LOAD_TOKENS" in os.environ \
    else []
THINK = (float(os.environ.get("THINK_MIN_S", 5)), float(os.environ.get("THINK_MAX_S", 10)))
POLL_S = float(os.environ.get("POLL_S", 1.0))
SEED = int(os.environ.get("LOAD_SEED", 14))

_numbers = itertools.count()


class Player(FastHttpUser):
    host = HOSTS[0]
    # one request at a time per user: one kept-alive connection to its instance
    concurrency = 1

    def __init__(self, environment):
        self.number = next(_numbers)
        self.host = HOSTS[self.number % len(HOSTS)]  # spread over the instances
        super().__init__(environment)
        self.headers = {"Authorization": f"Token {TOKENS[self.number % len(TOKENS)]}"}
        self.game = ("han", "hansa")[self.number % 2]
        self.random = random.Random(SEED * 100003 + self.number)

    @task
    def play_matches(self):
        while True:
            self.play_one_match()

    def play_one_match(self) -> None:
        detail = create_bot_match(self.client, self.headers, self.game, pause_s=POLL_S)
        if detail is None:
            return
        match_id, seat, etag = detail["id"], detail["your_seat"], None
        url = f"/api/v1/matches/{match_id}/"
        while detail["status"] == "active":
            if seat not in detail["to_act"]:
                gevent.sleep(POLL_S)
                headers = {**self.headers, **({"If-None-Match": etag} if etag else {})}
                with self.client.get(url, name="poll match", headers=headers,
                                     catch_response=True) as response:
                    if response.status_code == 304:
                        response.success()
                    elif response.status_code == 200:
                        detail, etag = response.json(), response.headers.get("ETag")
                    else:
                        response.failure(describe(response))
                continue
            gevent.sleep(self.random.uniform(*THINK))
            legal = self.client.get(url + "legal-moves/", name="legal moves",
                                    headers=self.headers)
            if legal.status_code != 200 or not legal.json()["moves"]:
                detail = self.client.get(url, name="poll match", headers=self.headers).json()
                continue
            body = legal.json()
            move = self.random.choice(body["moves"])
            with self.client.post(url + "moves/", name="move", headers=self.headers,
                                  json={"move": move, "expected_ply": body["ply"]},
                                  catch_response=True) as response:
                if response.status_code == 201:
                    detail, etag = response.json()["match"], None
                else:
                    response.failure(describe(response))
                    detail = self.client.get(url, name="poll match",
                                             headers=self.headers).json()


# load_test.py --socket (LOAD_MODE=socket): people play over the play socket instead
# (bench/socket_players.py); this REST user then stays out of the run.
if os.environ.get("LOAD_MODE") == "socket":
    from socket_players import SocketPlayer  # noqa: E402,F401 - locust finds it here

    Player.abstract = True
