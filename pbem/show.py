"""`pbem show`: what a player needs in front of them to write orders.

The game as it stands after my pending orders: my countries' money and what they
may place or buy, my units with where they are, and the orders the rules allow me
now, in the text form `pbem orders` reads.
"""

from __future__ import annotations

from pathlib import Path

from pbem import engine_link, protocol
from pbem.errors import PbemError
from pbem.localgame import LocalGame
from pbem.status import status_line
from pbem.store import Workspace
from pbem.turn import my_turn


def show(ws: Workspace, gid: str, home: Path | None = None, legal_limit: int = 40, units: bool = True) -> list[str]:
    api = engine_link.api()
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
    state = t.work.state
    side = lg.me
    lines = [status_line(lg, t.work, t.pending)]
    sim = [api.Action.from_wire(w) for w in (t.pending.sim or [])]
    if sim:
        try:
            state = api.preview(state, side, sim)
        except api.IllegalAction as exc:  # cannot happen: orders are tried when they are added
            raise PbemError(f"your listed orders no longer fit: {exc}; run `pbem undo {gid}`", "turn") from None
        lines.append(f"listed so far ({len(sim)}): " + "; ".join(api.format_action(state, a) for a in sim))
    mine = api.summary(state, side)
    lines.append("")
    lines.append(f"{'country':<16} {'money':>7}  status     to place / in the pool")
    for c in mine.countries:
        lines.append(
            f"{c.name:<16} {c.money:>6}B  {c.status:<10} {c.to_place} / {c.pool_points} land points, "
            f"{c.pool_units} units"
        )
    if units:
        lines.append("")
        lines.append(f"my units ({len(mine.units)}):")
        for u in mine.units:
            lines.append(f"  {u.label:<48} {u.where}" + (f"  ({', '.join(u.flags)})" if u.flags else ""))
    exp = protocol.expected(t.work)
    if exp is not None and exp.side == side and exp.kind in ("act", "commit", "sim"):
        legal = api.legal_actions(state, side)
        lines.append("")
        shown = legal[:legal_limit] if legal_limit else legal
        lines.append(f"orders you may give now ({len(legal)}" + (f", first {len(shown)}" if len(shown) < len(legal)
                                                                  else "") + "):")  # fmt: skip
        lines += [f"  {api.format_action(state, a)}" for a in shown]
        stands = api.standing_orders(state, side)
        if stands:
            lines.append(f"  (and {len(stands)} standing orders: stand HEX yes|no, see `pbem show --help`)")
    return lines
