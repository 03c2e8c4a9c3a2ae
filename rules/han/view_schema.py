"""JSON Schema of a Han view (``rules/han/view.py``'s ``build_view``): Engine.view_schema."""

from __future__ import annotations

from rules.view_schema import (
    BOOLEAN,
    INTEGER,
    RESULT,
    STRING,
    array,
    mapping,
    nullable,
    record,
)

CARD = {"type": "string", "description": "A card's colour."}
SEAT = {"type": "integer", "minimum": 0}
PIECE = record({
    "kind": {"type": "string", "enum": ["house", "fortification", "market_place"]},
    "seat": SEAT,
})


def view_schema() -> dict:
    return record({
        "game": {"type": "string", "enum": ["han"]},
        "map": STRING,
        "variant": BOOLEAN,
        "players": INTEGER,
        "seat": nullable({**SEAT, "description": "The reader's seat; null for a spectator."}),
        "turn": nullable({**SEAT, "description": "The seat to play; null once over."}),
        "phase": nullable(STRING),
        "emperor": SEAT,
        "hand_sizes": array(INTEGER, "Cards in each seat's hand."),
        "pile_size": INTEGER,
        "display": array(CARD, "The face-up display."),
        "discard": array(CARD),
        "board": record({
            "spaces": mapping(nullable(PIECE), "Each space: null when empty, else the "
                              "piece on it."),
            "emissaries": mapping(array(INTEGER), "Each province: emissaries per seat."),
            "market_emissaries": mapping(array(INTEGER), "Each province: market-place "
                                         "emissaries per seat."),
            "scored": array(STRING, "Provinces scored so far."),
        }),
        "scores": array(INTEGER),
        "supply": array(record({"houses": INTEGER, "emissaries": INTEGER,
                                "markers": INTEGER}), "Each seat's pieces left."),
        "depletions": INTEGER,
        "final_round": BOOLEAN,
        "last_seat": nullable(SEAT),
        "game_over": BOOLEAN,
        "end_reason": nullable(STRING),
        "hand": array(CARD, "The reader's own hand (a seated reader only)."),
        "hands": array(array(CARD), "Every hand, once the game is over."),
        "pile": array(CARD, "The pile, once the game is over (its top is its last card)."),
        "knowledge": record({
            "in_hand": array(array(CARD), "Per seat, the cards everyone knows it holds "
                             "(taken from the display and not played since)."),
            "pile_may_hold": nullable(array(CARD, "After a reshuffle: the cards the pile "
                                            "may still hold (the old discard pile, less "
                                            "the cards laid out since); null before.")),
            "my_pile_draws": array(CARD, "The reader's own draws from the pile (a seated "
                                   "reader only)."),
            "reshuffle": nullable(record({
                "old_discard": array(CARD, "The old discard pile the new pile was made of."),
                "hands_union": array(CARD, "Every card in a hand at the reshuffle, all hands "
                               "together."),
                "hand_sizes": array(INTEGER, "Per seat, its hand size at the reshuffle."),
                "in_hand": array(array(CARD), "Per seat, the cards known in its hand "
                                 "at the reshuffle."),
                "since": array(array(STRING), "Per seat, in order since the reshuffle: "
                               "\"pile\" (a face-down draw), \"display:<card>\", "
                               "\"played:<card>\"."),
            }, description="The reshuffle's facts; null before it.")),
            "my_hand_at_reshuffle": array(CARD, "The reader's own hand at the reshuffle "
                                          "(a seated reader, after it)."),
        }, optional=("my_pile_draws", "reshuffle", "my_hand_at_reshuffle"),
           description="What every player knows from the "
           "history (rules/han/README.md, \"Public knowledge\")."),
        "result": nullable(RESULT),
    }, optional=("hand", "hands", "pile", "result"), title="HanView",
        description="What one seat (or a spectator) of a Han match sees.")
