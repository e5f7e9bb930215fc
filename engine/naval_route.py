"""The route of a ship ordered to a destination without a path (supplement: "Movement").

A receiver re-executing ``move SHIP HEX`` must find the very path the mover's engine
found: the first path of :func:`engine.reach.naval_search` (layers in order, ties by
node number and direction).  Searching every hex within a ship's 40-odd points of
allowance costs milliseconds per ship; most of that ball lies away from the
destination.

Every sea step moves to an adjacent hex, so the hex distance to the destination is a
lower bound of the points still needed.  A search that leaves out every hex from
which the destination lies beyond a bound ``B`` loses no path of ``B`` points or
fewer: each hex of such a path is within ``B`` of the destination minus the points
spent to reach it.  So if the destination lies within ``B``, the bounded search meets
it in the same layer, through the same nodes in the same order, and takes the same
path; if it does not, the bounded search does not reach it at all.  The bound starts
at the straight-line distance and grows until the destination is met or the bound is
the ship's allowance (then the answer is the whole search's).
"""

from __future__ import annotations

from engine.hexgrid import HexGrid
from engine.reach import Search, naval_search
from engine.sides import other
from engine.state import GameState, Unit
from engine.zoc import naval_zoc


class Distances(dict[int, int]):
    """The hex distance from each hex to ``dest`` (as :meth:`HexGrid.distance`), computed
    when first asked: a bounded search asks about a few hundred hexes of the world map's
    55,500, and a whole-map table took longer to build than the searches it serves."""

    def __init__(self, grid: HexGrid, dest: int) -> None:
        super().__init__()
        self.width = grid.width
        self.wrap = grid.wrap
        col, self.row = grid.col_row(dest)
        self.q = col - (self.row - (self.row & 1)) // 2

    def __missing__(self, h: int) -> int:
        row, col = divmod(h, self.width)
        dr = row - self.row
        dq = col - (row - (row & 1)) // 2 - self.q
        d = abs(dq) + abs(dr) + abs(dq + dr)
        if self.wrap:  # the way round the world's other edge, either way (written out: hot)
            w = self.width
            d = min(d, abs(dq - w) + abs(dr) + abs(dq - w + dr), abs(dq + w) + abs(dr) + abs(dq + w + dr))
        d //= 2
        self[h] = d
        return d


def naval_route(state: GameState, unit: Unit, allowance: int, dest: int) -> Search:
    """``naval_search(state, unit, allowance, target=dest)``'s cost and path of ``dest``,
    found by bounded searches (``dest`` is in the result's cost iff the ship can end there)."""
    side = state.countries[unit.country].side
    zoc = naval_zoc(state, other(side))
    togo = Distances(state.world.map.grid, dest)
    slack = 0
    while True:
        bound = min(allowance, togo[unit.hex] + slack)
        search = naval_search(state, unit, bound, zoc, target=dest, togo=togo)
        if dest in search.cost or bound == allowance:
            return search
        # Doubling the slack keeps the bounded searches together below twice the last one.
        slack = 2 * slack or 2
