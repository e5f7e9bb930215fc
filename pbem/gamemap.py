"""Pictures of a game's position (SVG or PNG) for ``pbem map`` and for mail bodies.

The engine says what a side sees (``api.board``); ``scenarios.gameview`` draws it.
Hidden decisions (a sealed deployment before its reveal) never enter the state, so a
picture of the state shows nothing the side may not know.
"""

from __future__ import annotations

from typing import Literal

from engine import api
from pbem.errors import PbemError
from pbem.protocol import Game
from scenarios import gameview

Format = Literal["svg", "png"]


def window(board: api.Board, region: str | None = None, bbox: str | None = None) -> gameview.Window:
    """The hexes to draw: a named region, a box of hex names, or (neither given) the
    busiest front, the whole world when no units are in contact."""
    if region is not None and bbox is not None:
        raise PbemError("give --region or --bbox, not both", "usage")
    try:
        if bbox is not None:
            return gameview.parse_bbox(board.map.grid, bbox)
        if region is not None:
            return gameview.region_window(board.map.grid, region)
    except ValueError as exc:
        raise PbemError(str(exc), "usage") from None
    return gameview.front_window(board)


def render(game: Game, side: str, region: str | None = None, bbox: str | None = None, fmt: Format = "svg") -> bytes:
    """The position of ``game`` as ``side`` sees it, as SVG or PNG bytes."""
    if side not in ("axis", "allies"):
        raise PbemError(f"'{side[:20]}' is not a side; the sides are axis and allies", "usage")
    board = api.board(game.state, side)
    svg = gameview.render_svg(board, window(board, region, bbox))
    if fmt == "png":
        return gameview.render_png(svg)
    return svg.encode("utf-8")
