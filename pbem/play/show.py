"""`pbem show` and `pbem where`: what a player needs in front of them to write orders.

The game as it stands after my pending orders: the countries' money and what they
may place or buy, the units of either side with where they stand, and on request the
orders the rules allow me now, in the text form `pbem orders` reads.

Everything but the allowed orders and the search around a place comes from the
game's overview (pbem/store/overview.py), without the engine.  Hexes are written as the
order language takes them: ``COL,ROW``, or a city as ``[Name]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import status
from pbem.protocol.rules import State
from pbem.store import overview
from pbem.store.overview import Overview, UnitDoc
from pbem.store.store import Meta, Workspace

SIDES = ("axis", "allies")


@dataclass(frozen=True)
class Filter:
    """Which units to list: ``sides`` ("mine", "enemy" or "all"), one country, or those
    within ``radius`` hexes of a place (COL,ROW, [City] or a city's name)."""

    sides: str = "mine"
    country: str | None = None
    near: str | None = None
    radius: int = 3


def _enemy(me: str) -> str:
    return SIDES[1 - SIDES.index(me)]


def _side_names(me: str, which: str) -> list[str]:
    return {"mine": [me], "enemy": [_enemy(me)], "all": [me, _enemy(me)]}[which]


def _game_overview(ws: Workspace, gid: str) -> tuple[Meta, Overview]:
    m = status.meta(ws, gid)
    ov = overview.current(ws, gid, m["side"])
    if ov is None and m.get("ended"):
        raise PbemError(f"game {gid} never started: {m['ended']}", "turn")
    if ov is None:
        raise PbemError(f"game {gid} has not started: the opponent has not joined yet", "turn")
    if ov["unfit"]:
        raise PbemError(ov["unfit"], "turn")
    return m, ov


def _country(ov: Overview, given: str) -> str:
    """The country ``given`` names (any case), or a one-line error with the names it may mean."""
    import difflib

    names = sorted({c["name"] for side in SIDES for c in ov["sides"][side]["countries"]})
    by_lower = {n.lower(): n for n in names}
    if given.lower() in by_lower:
        return str(by_lower[given.lower()])
    close = difflib.get_close_matches(given.lower(), by_lower, n=3, cutoff=0.75)
    hint = f"; did you mean {' or '.join(by_lower[c] for c in close)}?" if close else ""
    raise PbemError(f"no country of either side is named {given}{hint}", "usage")


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _unit_line(u: UnitDoc, distance: int | None = None) -> str:
    far = "" if distance is None else f"{distance:>2}  "
    flags = f"  ({', '.join(u['flags'])})" if u["flags"] else ""
    return f"  {far}{u['label']:<48} {u['where']}{flags}"


#: Orders of my unsent list that `pbem show` repeats; a deployment lists hundreds.
LISTED_SHOWN = 8


def listed_line(listed: list[str]) -> str:
    """My unsent list in one line a terminal can show: all of it when short, else its
    length and its last orders (the ones `pbem undo` takes back first)."""
    if len(listed) <= LISTED_SHOWN:
        return f"listed so far ({len(listed)}): " + "; ".join(listed)
    last = "; ".join(listed[-LISTED_SHOWN:])
    return f"listed so far: {len(listed)} orders, the last {LISTED_SHOWN}: {last}"


def show(
    ws: Workspace,
    gid: str,
    home: Path | None = None,
    legal_limit: int | None = None,
    units: bool = True,
    which: Filter | None = None,
) -> list[str]:
    """The lines of `pbem show`; ``legal_limit`` lists that many allowed orders (0: all)."""
    which = which or Filter()
    with ws.game_locked(gid):
        m, ov = _game_overview(ws, gid)
        me = m["side"]
        pos = overview.position_of(ov)
        lines = [status.describe(gid, m, pos)]
        if ov["listed"]:
            lines.append(listed_line(ov["listed"]))
        country = _country(ov, which.country) if which.country else None
        # One country's units are asked for by name, whichever side it fights on.
        sides = _side_names(me, "all" if country and which.sides == "mine" else which.sides)
        lines.append("")
        lines.append(f"{'country':<16} {'money':>7}  status     to place / in the pool")
        for side in sides:
            for c in ov["sides"][side]["countries"]:
                if country in (None, c["name"]):
                    lines.append(
                        f"{c['name']:<16} {c['money']:>6}B  {c['status']:<10} {c['to_place']} / "
                        f"{c['pool_points']} land points, {c['pool_units']} units"
                    )
        if units:
            distances = _near(ws, gid, home, which) if which.near else None
            for side in sides:
                listed = [u for u in ov["sides"][side]["units"] if country in (None, u["country"])]
                title = "my units" if side == me else "enemy units"
                if distances is not None:
                    place, dist = distances
                    listed = sorted((u for u in listed if u["id"] in dist), key=lambda u: (dist[u["id"]], u["id"]))
                    title += f" within {_hexes(which.radius)} of {place}"
                lines.append("")
                lines.append(f"{title} ({len(listed)}):")
                lines += [_unit_line(u, None if distances is None else distances[1][u["id"]]) for u in listed]
        mine = pos.expected is not None and pos.expected[0] == me and pos.expected[1] in ("act", "commit", "sim")
        if mine and legal_limit is None:
            lines.append("")
            lines.append(f"(`pbem show {gid} --legal 40` lists the orders you may give now)")
        elif mine and legal_limit is not None:
            lines.append("")
            lines += _legal(ws, gid, home, legal_limit)
    return lines


def _state(ws: Workspace, gid: str, home: Path | None) -> State:
    """The engine state of ``gid`` after my pending records and my listed orders."""
    from pbem.play.turn import my_turn
    from pbem.protocol import engine_link
    from pbem.store.localgame import LocalGame

    api = engine_link.api()
    lg = LocalGame(ws, gid, home)
    t = my_turn(lg)
    sim = [api.Action.from_wire(w) for w in (t.pending.sim or [])]
    # The overview was checked already: the listed orders fit.
    return api.preview(t.work.state, lg.me, sim) if sim else t.work.state


def _legal(ws: Workspace, gid: str, home: Path | None, limit: int) -> list[str]:
    from pbem.play.look import in_phase_order
    from pbem.protocol import engine_link

    api = engine_link.api()
    state = _state(ws, gid, home)
    side = status.meta(ws, gid)["side"]
    legal = in_phase_order(state, api.legal_actions(state, side))
    shown = legal[:limit] if limit else legal
    first = f", first {len(shown)}" if len(shown) < len(legal) else ""
    lines = [f"orders you may give now ({len(legal)}{first}):"]
    lines += [f"  {api.format_action(state, a)}" for a in shown]
    stands = api.standing_orders(state, side)
    if stands:
        lines.append(f"  (and {len(stands)} standing orders: stand HEX yes|no, see `pbem show --help`)")
    return lines


def _near(ws: Workspace, gid: str, home: Path | None, which: Filter) -> tuple[str, dict[int, int]]:
    """The place ``which.near`` as the order language writes it, and the units within
    ``which.radius`` of it by id, with their distances (by the engine)."""
    from pbem.protocol import engine_link
    from pbem.protocol.rules import refusal_rule

    api = engine_link.api()
    assert which.near is not None
    try:
        found = api.near(_state(ws, gid, home), which.near, which.radius)
    except api.OrderError as exc:
        raise PbemError(str(exc), "usage", refusal_rule(exc)) from None
    return found.place, {u.id: d for d, u in found.units}


def where(ws: Workspace, gid: str, what: str, home: Path | None = None, radius: int = 1) -> list[str]:
    """Where unit ``#ID`` stands, or which units of both sides stand within ``radius``
    hexes of a place (COL,ROW, [City] or a city's name)."""
    with ws.game_locked(gid):
        m, ov = _game_overview(ws, gid)
        text = what.strip()
        if text.startswith("#") or text.isdigit():
            number = text.removeprefix("#")
            for side in SIDES:
                for u in ov["sides"][side]["units"]:
                    if str(u["id"]) == number:
                        flags = f"  ({', '.join(u['flags'])})" if u["flags"] else ""
                        return [f"{u['label']} ({side}): {u['where']}{flags}"]
            raise PbemError(f"game {gid} has no unit {text}", "usage")
        place, dist = _near(ws, gid, home, Filter(near=text, radius=radius))
        found = sorted(
            ((dist[u["id"]], side, u) for side in SIDES for u in ov["sides"][side]["units"] if u["id"] in dist),
            key=lambda t: (t[0], t[1] != m["side"], t[2]["id"]),
        )
        within = f"within {_hexes(radius)} of {place}" if radius else f"in {place}"
        if not found:
            return [f"no units {within}"]
        lines = [f"units {within} ({len(found)}; hexes away, unit, where):"]
        lines += [_unit_line(u, d) + ("" if side == m["side"] else "  (enemy)") for d, side, u in found]
        return lines
