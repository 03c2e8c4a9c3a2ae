"""The mutations' part of bench/graphql_field_costs.py: each mutation posted once per run
on fresh inputs made through the services beforehand (not timed), next to an empty
operation; the cost is the difference of the medians. Bot turns a mutation queues go to
the broker and are purged afterwards (no worker runs them: their work is a worker's).

register, login and deleteAccount include one password hash (PBKDF2, by design the slow part): their
time with it is printed on its own line, and their weight is the rest of their work,
measured again with a hasher that costs nothing (field_weights.PASSWORD_CHECKS).
"""

from __future__ import annotations

import itertools
import json
import secrets
import statistics
import time
from collections.abc import Callable

import graphql_cost_data as cost_data
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token

from config.celery import app as celery_app
from games.chat import services as chat_services
from games.clocks import services as clock_services
from games.lobby import services as lobby_services
from games.mail.models import MailAddress
from games.matches import selectors, services
from games.matches.models import Match
from games.quickmatch import services as quickmatch_services
from games.quickmatch.models import QuickMatchRequest

clock = time.perf_counter
#: fresh usernames, also after a run kept its data (--keep)
_names = (f"{secrets.token_hex(3)}{index}" for index in itertools.count())

#: mutations that hash a password: their weight is the rest of their work, measured with
#: a hasher that costs nothing (a stored PBKDF2 hash is still read, then rehashed)
HASHING = ("Mutation.register", "Mutation.login", "Mutation.deleteAccount")
FAST_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"
HASHERS_FAST_FIRST = [FAST_HASHER, "django.contrib.auth.hashers.PBKDF2PasswordHasher"]
#: the people deleteAccount erased, deleted with the bench's data
_leavers: list[int] = []
#: one run: (query, variables, token) made fresh
Setup = Callable[[], tuple[str, dict, str]]


def _post(client: Client, query: str, variables: dict, token: str | None) -> tuple[float, dict]:
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    started = clock()
    response = client.post("/graphql/", data=json.dumps({"query": query, "variables": variables}),
                           content_type="application/json", **headers)
    return (clock() - started) * 1000, response.json()


def _check(key: str, body: dict) -> None:
    payload = next(iter((body.get("data") or {}).values()), None)
    problems = body.get("errors") or (payload or {}).get("errors")
    if problems:
        raise RuntimeError(f"{key}: {problems}")


def _setups(data: cost_data.CostData) -> dict[str, Setup]:
    hero, friend = data.hero, data.friend
    token, friend_token = data.token, data.friend_token
    admin = get_user_model().objects.filter(username=f"{cost_data.PREFIX}admin").first() or \
        get_user_model().objects.create_superuser(f"{cost_data.PREFIX}admin", password="-")
    finished = iter(data.finished)
    duel = {"id": None}

    def open_match(owner, players: int = 3):
        return services.create_match(user=owner, game="hansa", players=players).pk

    def private(invite: list[str]):
        return lobby_services.create_private_match(user=friend, game="hansa", players=3,
                                                   invite=invite)

    def fresh_duel() -> int:
        match_id = services.create_match(user=hero, game="hansa", players=2).pk
        lobby_services.join_match(user=friend, match_id=match_id)
        return match_id

    def next_move():
        # hero and friend alternate in one Hansa match; a new one when it ends
        if duel["id"] is None or selectors.get_match(duel["id"]).status != "active":
            duel["id"] = fresh_duel()
        match = selectors.get_match(duel["id"])
        seat = selectors.to_act_of(match)[0]
        mover = hero if seat == 0 else friend
        move = selectors.legal_moves_for(match, mover)["moves"][0]
        return ("mutation($id: ID!, $m: JSON!, $p: Int) { submitMove(matchId: $id, move: $m, "
                "expectedPly: $p) { move { ply } errors { code } } }",
                {"id": duel["id"], "m": move, "p": match.ply},
                token if mover == hero else friend_token)

    def taken_over():
        match_id = services.create_match(user=hero, game="hansa", players=2).pk
        lobby_services.join_match(user=friend, match_id=match_id)
        clock_services.hand_seat_to_bot(user=admin, match_id=match_id, position=0,
                                        bot_kind="random")
        return match_id

    def reported_message():
        # a fresh message of the friend's in a fresh duel's players' room (one each: the
        # chat's rate limit), reported by the hero
        match_id = fresh_duel()
        said = chat_services.send_message(match_id, "players", friend, "a probe")
        return ("mutation($m: ID!, $id: ID!) { reportChatMessage(matchId: $m, "
                "room: \"players\", messageId: $id, reason: \"spam\") { created "
                "errors { code } } }", {"m": match_id, "id": said["id"]}, token)

    def no_waiting_request() -> None:
        QuickMatchRequest.objects.filter(user=hero, status="waiting").update(status="cancelled")

    def waiting_request() -> int:
        no_waiting_request()
        return quickmatch_services.request_quick_match(user=hero, game="hansa", players=4).pk

    def throwaway_token():
        user = get_user_model().objects.create_user(f"{cost_data.PREFIX}t{next(_names)}",
                                                    password="-")
        return Token.objects.create(user=user).key

    def leaver_token():
        # a person with a running match to leave (their seat goes to a bot)
        user = get_user_model().objects.create_user(f"{cost_data.PREFIX}l{next(_names)}",
                                                    password=cost_data.PASSWORD)
        running = services.create_match(user=user, game="hansa", players=2).pk
        lobby_services.join_match(user=friend, match_id=running)
        _leavers.append(user.pk)  # a tombstone afterwards: its name loses the prefix
        return Token.objects.create(user=user).key

    def unconfirmed_address() -> None:
        # the hero's address as a new one: its confirmation is queued (purged, not sent)
        MailAddress.objects.update_or_create(user=hero, defaults={
            "address": f"{next(_names)}@example.org", "verified_at": None,
            "confirmation_sent_at": None})

    match_out = "{ match { id } errors { code } }"
    mail_out = "{ settings { address } errors { code } }"
    return {
        "Mutation.register": lambda: (
            "mutation($u: String!) { register(username: $u, password: \"tulip-orbit-7329-canyon\") "
            "{ token errors { code } } }", {"u": f"{cost_data.PREFIX}r{next(_names)}"}, None),
        "Mutation.login": lambda: (
            "mutation($u: String!, $p: String!) { login(username: $u, password: $p) "
            "{ token errors { code } } }", {"u": cost_data.HERO, "p": cost_data.PASSWORD}, None),
        "Mutation.revokeToken": lambda: (
            "mutation { revokeToken { revoked errors { code } } }", {}, throwaway_token()),
        "Mutation.requestAnalysis": lambda: (  # joins the analysis graphql_cost_data made
            "mutation($id: ID!) { requestAnalysis(matchId: $id) { errors { code } } }",
            {"id": data.longest}, token),
        "Mutation.deleteAccount": lambda: (
            "mutation($p: String!) { deleteAccount(password: $p) { deleted errors { code } } }",
            {"p": cost_data.PASSWORD}, leaver_token()),
        "Mutation.createMatch": lambda: (
            f"mutation {{ createMatch(game: \"hansa\", players: 3) {match_out} }}", {}, token),
        "Mutation.joinMatch": lambda: (
            f"mutation($id: ID!) {{ joinMatch(matchId: $id) {match_out} }}",
            {"id": open_match(friend)}, token),
        "Mutation.leaveMatch": lambda: (
            f"mutation($id: ID!) {{ leaveMatch(matchId: $id) {match_out} }}",
            {"id": open_match(hero)}, token),
        "Mutation.startMatch": lambda: (
            f"mutation($id: ID!) {{ startMatch(matchId: $id, fillWith: \"random\") {match_out} }}",
            {"id": open_match(hero)}, token),
        "Mutation.abortMatch": lambda: (
            f"mutation($id: ID!) {{ abortMatch(matchId: $id) {match_out} }}",
            {"id": open_match(hero)}, token),
        "Mutation.resignMatch": lambda: (
            f"mutation($id: ID!) {{ resignMatch(matchId: $id) {match_out} }}",
            {"id": fresh_duel()}, token),
        "Mutation.reclaimSeat": lambda: (
            f"mutation($id: ID!) {{ reclaimSeat(matchId: $id) {match_out} }}",
            {"id": taken_over()}, token),
        "Mutation.submitMove": next_move,
        "Mutation.createPrivateMatch": lambda: (
            "mutation($f: [String!]) { createPrivateMatch(game: \"hansa\", players: 3, invite: $f) "
            "{ inviteCode errors { code } } }", {"f": [friend.username]}, token),
        "Mutation.inviteToMatch": lambda: (
            "mutation($id: ID!, $f: [String!]!) { inviteToMatch(matchId: $id, usernames: $f) "
            "{ invitations { id } errors { code } } }",
            {"id": open_match(hero), "f": [friend.username]}, token),
        "Mutation.acceptInvitation": lambda: (
            f"mutation($id: ID!) {{ acceptInvitation(invitationId: $id) {match_out} }}",
            {"id": private([hero.username])[0].invitations.get(invitee=hero).pk}, token),
        "Mutation.declineInvitation": lambda: (
            "mutation($id: ID!) { declineInvitation(invitationId: $id) { invitations { id } "
            "errors { code } } }",
            {"id": private([hero.username])[0].invitations.get(invitee=hero).pk}, token),
        "Mutation.joinByInviteCode": lambda: (
            f"mutation($c: String!) {{ joinByInviteCode(inviteCode: $c) {match_out} }}",
            {"c": private([])[1]}, token),
        "Mutation.proposeRematch": lambda: (
            f"mutation($id: ID!) {{ proposeRematch(matchId: $id) {match_out} }}",
            {"id": next(finished)}, token),
        "Mutation.requestQuickMatch": lambda: (
            "mutation { requestQuickMatch(game: \"hansa\", players: 4) { request { id } "
            "errors { code } } }", {}, token) if no_waiting_request() is None else None,
        "Mutation.reportChatMessage": reported_message,
        "Mutation.cancelQuickMatch": lambda: (
            "mutation($id: ID!) { cancelQuickMatch(requestId: $id) { request { id } "
            "errors { code } } }", {"id": waiting_request()}, token),
        "Mutation.setMailAddress": lambda: (
            f"mutation($a: String!) {{ setMailAddress(address: $a) {mail_out} }}",
            {"a": f"{next(_names)}@example.org"}, token),
        "Mutation.updateMailSettings": lambda: (
            f"mutation {{ updateMailSettings(dailyDigest: false) {mail_out} }}", {}, token)
        if unconfirmed_address() is None else None,
        "Mutation.resendMailConfirmation": lambda: (
            f"mutation {{ resendMailConfirmation {mail_out} }}", {}, token)
        if unconfirmed_address() is None else None,
    }


def _median_cost(client: Client, key: str, setup: Setup, runs: int) -> float:
    with_field, without = [], []
    for _ in range(runs):
        query, variables, token = setup()
        elapsed, body = _post(client, query, variables, token)
        _check(key, body)
        with_field.append(elapsed)
        without.append(_post(client, "{ __typename }", {}, token)[0])
    return statistics.median(with_field) - statistics.median(without)


def mutation_costs(client: Client, data: cost_data.CostData, runs: int) -> dict[str, float]:
    """Median ms of each mutation over ``runs`` fresh calls, less an empty operation's."""
    costs = {}
    runs = min(runs, len(data.finished))  # proposeRematch takes a finished match per run
    setups = _setups(data)
    try:
        for key, setup in setups.items():
            costs[key] = _median_cost(client, key, setup, runs)
        for key in HASHING:
            # the rest of their work: the same calls with a hasher that costs nothing
            # (the hero's password is rehashed to it at the first login, and back later)
            costs[f"{key} with its hash"] = costs[key]
            with override_settings(PASSWORD_HASHERS=HASHERS_FAST_FIRST):
                costs[key] = _median_cost(client, key, setups[key], runs)
        data.hero.set_password(cost_data.PASSWORD)  # rehashed to the fast hasher: back
        data.hero.save(update_fields=["password"])
    finally:
        celery_app.control.purge()  # the bot turns queued by starts and moves
        # their matches first: a seat handed to a bot when they left is an incident
        # naming them, which protects the user row
        Match.objects.filter(incidents__user_id__in=_leavers).delete()
        get_user_model().objects.filter(pk__in=_leavers).delete()
    return costs
