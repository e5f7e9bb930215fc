"""Pictures of a game's position (SVG or PNG) for ``pbem map`` and for turn mails.

The engine says what a side sees (``board``, through the seam); ``scenarios.gameview`` draws it.
Hidden decisions (a sealed deployment before its reveal) never enter the state, so a
picture of the state shows nothing the side may not know.
"""

from __future__ import annotations

from typing import Literal

from pbem.errors import PbemError
from pbem.play.turn import list_draft, my_turn
from pbem.protocol import engine_link
from pbem.protocol.machine import Game
from pbem.protocol.rules import Board, State
from pbem.store.localgame import LocalGame
from scenarios import gameview

Format = Literal["svg", "png"]
# The mail's picture: a window of 24 by 16 hexes (about 1400 by 1000 pixels) at least,
# around the events no more than 12 hexes apart; raster time grows with the pixels.
MAIL_COLS, MAIL_ROWS, MAIL_PAD, MAIL_NEAR = 24, 16, 3, 12


def window(board: Board, region: str | None = None, bbox: str | None = None) -> gameview.Window:
    """The hexes to draw: a named region, a box of hex names, or (neither given) the
    busiest front, the whole world when no units are in contact."""
    if region is not None and bbox is not None:
        raise PbemError("give --region or --bbox, not both", "usage")
    drawn = gameview.as_board(board)
    try:
        if bbox is not None:
            return gameview.parse_bbox(drawn.map.grid, bbox)
        if region is not None:
            return gameview.region_window(drawn.map.grid, region)
    except ValueError as exc:
        raise PbemError(str(exc), "usage") from None
    return gameview.front_window(drawn)


def now(lg: LocalGame) -> tuple[State, int, bool]:
    """The position `pbem show`, `pbem hex` and the page describe: the game after my pending
    records and my listed orders (so the map's month and supply are theirs), the number of
    the last file in it, and whether anything of mine not yet sent is in it.  A side handed
    over has nothing pending."""
    game = lg.game()
    if game is None:
        raise PbemError("the opponent has not joined this game yet: there is no position to show", "game")
    if lg.meta.get("handed_over_to") or lg.meta.get("handover_pending"):
        return game.state, game.seq, False
    t = my_turn(lg)
    mine = bool(t.pending.records or t.pending.sim)
    return (list_draft(t).state if t.pending.sim else t.work.state), game.seq, mine


def render(state: State, side: str, region: str | None = None, bbox: str | None = None, fmt: Format = "svg") -> bytes:
    """The position ``state`` as ``side`` sees it, as SVG or PNG bytes."""
    if side not in ("axis", "allies"):
        raise PbemError(f"'{side[:20]}' is not a side; the sides are axis and allies", "usage")
    board = engine_link.api().board(state, side)
    svg = gameview.render_svg(gameview.as_board(board), window(board, region, bbox))
    if fmt == "png":
        return gameview.render_png(svg)
    return svg.encode("utf-8")


def mail_picture(game: Game, side: str, places: list[str]) -> bytes | None:
    """A PNG for the mail that carries a file: the position as ``side`` sees it, framed
    around the largest group of ``places`` (hex names where the file's events happened),
    a screenful and no more, rasterised the fast way.  None when no place is on the map."""
    board = engine_link.api().board(game.state, side)
    grid = board.map.grid
    hexes = []
    for name in places:
        try:
            hexes.append(grid.parse_label(name))
        except ValueError:
            continue  # the names come from a report read back from disk: one that is no hex is left out
    if not hexes:
        return None
    drawn = gameview.as_board(board)
    frame = gameview.around(drawn.map.grid, hexes, near=MAIL_NEAR, pad=MAIL_PAD, min_cols=MAIL_COLS, min_rows=MAIL_ROWS)
    return gameview.render_png(gameview.render_svg(drawn, frame), fast=True)
