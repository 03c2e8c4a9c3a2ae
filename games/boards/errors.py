"""Refusals of the board pictures, with their stable codes (docs/api.md)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.matches.errors import GameServiceError


class NoBoardDrawing(GameServiceError):
    """The game's engine draws nothing (``render_svg`` gives None: a plugin game)."""

    status_code = 404
    default_code = "no_board_drawing"
    default_detail = _("This game has no board drawing.")


class PngUnavailable(GameServiceError):
    """This server cannot turn a drawing into PNG: cairosvg or Debian's libcairo2 is not
    installed (the ``images`` extra and scripts/cairo.sh install both)."""

    status_code = 501
    default_code = "png_unavailable"
    default_detail = _("This server cannot draw PNG pictures; ask for board.svg instead.")
