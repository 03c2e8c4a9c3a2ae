"""REST for a match's board as a picture (games/boards/): board.svg and board.png."""
