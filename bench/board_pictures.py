"""What drawing a board picture costs (GET board.svg / board.png, games/boards).

    .venv/bin/python bench/board_pictures.py [--runs 30]

Plays a 4-player Han and a 4-player Hansa game between random bots (the engine alone, no
database), then times on a mid-game position, median of ``--runs``:

- the SVG: ``engine.render_svg`` of a seat's view, the names put in, the title and the
  description added (games/boards: what board.svg adds to the database read of the match);
- the PNG: that SVG rasterised by CairoSVG (what board.png adds on top);
and prints each picture's size. No database: the match read is that of every polled GET.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()

import django  # noqa: E402

django.setup()

from games.boards import accessible  # noqa: E402
from games.boards.labels import label_seats  # noqa: E402
from games.boards.png import svg_to_png  # noqa: E402
from rules import get_engine  # noqa: E402
from rules.rng import SeededRng  # noqa: E402

clock = time.perf_counter


def mid_game(game: str, players: int, plies: int):
    engine = get_engine(game)
    state = engine.setup(players, {}, f"board-bench-{game}")
    rng = SeededRng(f"board-bench-moves-{game}")
    for _ in range(plies):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        moves = engine.legal_moves(state, seat)
        state, _events = engine.apply(state, seat, moves[rng.randbelow(len(moves))])
    return engine, state


def picture(engine, state) -> str:
    names = {seat: f"player-{seat}" for seat in range(4)}
    drawing = label_seats(engine.render_svg(engine.view(state, 0)), names)
    description = ". ".join(accessible.drawn_texts(drawing))
    return accessible.with_title(drawing, f"{engine.title} as player-0 sees it",
                                 description, "en")


def median_ms(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = clock()
        function()
        times.append((clock() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    print(f"{'game':6} {'svg ms':>8} {'svg KiB':>8} {'png ms':>8} {'png KiB':>8}")
    for game, plies in (("han", 60), ("hansa", 40)):
        engine, state = mid_game(game, 4, plies)
        svg = picture(engine, state)
        png = svg_to_png(svg)
        svg_ms = median_ms(lambda: picture(engine, state), args.runs)  # noqa: B023
        png_ms = median_ms(lambda: svg_to_png(svg), args.runs)  # noqa: B023
        print(f"{game:6} {svg_ms:8.2f} {len(svg.encode()) / 1024:8.1f} {png_ms:8.2f} "
              f"{len(png) / 1024:8.1f}")


if __name__ == "__main__":
    main()
