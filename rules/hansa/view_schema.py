"""JSON Schema of a Hansa view (``rules/hansa/view.py``'s ``build_view``):
Engine.view_schema."""

from __future__ import annotations

from rules.view_schema import (
    BOOLEAN,
    INTEGER,
    MOVE_OBJECT,
    RESULT,
    SCORE_BREAKDOWN,
    STRING,
    array,
    mapping,
    nullable,
    record,
)

SEAT = {"type": "integer", "minimum": 0}
CARD = record({
    "id": STRING, "city": STRING,
    "kind": STRING,
    "trade_power": INTEGER, "luxury": BOOLEAN, "person": nullable(STRING),
})
BY_COLOUR = mapping(INTEGER, "Luxury pieces by colour.")
SEAT_VIEW = record({
    "seat": SEAT, "profit": INTEGER, "hand_size": INTEGER, "face_up": array(CARD),
    "face_down_count": INTEGER, "pieces": BY_COLOUR, "stored": BY_COLOUR,
    "face_up_ships": INTEGER,
    "hand": array(CARD, "The reader's own (everyone's once over)."),
    "face_down": array(CARD, "The reader's own (everyone's once over)."),
}, optional=("hand", "face_down"))


def view_schema() -> dict:
    return record({
        "game": {"type": "string", "enum": ["hansa"]},
        "viewer": nullable({**SEAT, "description": "The reader's seat; null for a "
                            "spectator."}),
        "players": INTEGER,
        "round": INTEGER,
        "rounds": INTEGER,
        "phase": STRING,
        "over": BOOLEAN,
        "to_act": array(SEAT),
        "start_player": SEAT,
        "current_seat": nullable(SEAT),
        "turns_taken": INTEGER,
        "turns_per_player": INTEGER,
        "chooser": nullable(SEAT),
        "prosperity": mapping(record({
            "index": INTEGER, "label": INTEGER, "first": INTEGER,
            "second_multiplier": INTEGER, "third_multiplier": INTEGER,
        }), "Each city's place on the prosperity track."),
        "prosperity_track_length": INTEGER,
        "prosperity_changes_this_round": INTEGER,
        "next_prosperity_change": nullable(INTEGER),
        "harbour_spaces": INTEGER,
        "spaces_per_city": INTEGER,
        "rows": mapping(array(record({"card": CARD, "piece": nullable(STRING)})),
                        "Each city's row of cards, with the luxury piece on each."),
        "decks": record({"normal": INTEGER, "luxury": INTEGER}),
        "bag": record({"count": INTEGER, "by_colour": BY_COLOUR}),
        "seats": array(SEAT_VIEW),
        "simultaneous": nullable(record({
            "choice": STRING, "chosen": array(SEAT), "waiting_for": array(SEAT)})),
        "breakdown": array(SCORE_BREAKDOWN, "Each seat's points so far, by category."),
        "my_choice": {**MOVE_OBJECT, "description": "Your pending secret choice, as the "
                      "move that made it."},
        "removed": array(CARD, "Cards out of the game, once over."),
        "deck_contents": record({"normal": array(STRING), "luxury": array(STRING)}),
        "knowledge": record({
            "seats": array(record({
                "in_hand": array(STRING, "Card ids everyone knows this seat holds."),
                "in_hand_or_face_down": array(STRING, "Card ids everyone knows are in "
                                              "this seat's hand or face-down pile."),
                "taken_before_face_down": array(array(STRING), "Per face-down card of "
                                                "this seat, in play order: the cards of "
                                                "in_hand_or_face_down taken after the one "
                                                "before it and before it."),
            }), "Per seat."),
            "returned_to_deck": array(STRING, "The reader's own returned starting cards "
                                      "still in the deck (a seated reader only)."),
        }, optional=("returned_to_deck",), description="What every player knows from the "
           "history (rules/hansa/README.md, \"Public knowledge\")."),
        "result": nullable(RESULT),
    }, optional=("my_choice", "removed", "deck_contents", "result"), title="HansaView",
        description="What one seat (or a spectator) of a Hansa match sees.")
