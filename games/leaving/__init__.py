"""A player's right to leave (issue 25): what an erased account means for the games
(services.py) and everything held on a person, as one download (export.py).
The account's own part is accounts/erasure.py."""
