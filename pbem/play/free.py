"""`pbem where GAME --free`: where my units waiting to be placed may go now, and the free
hexes that a refusal for a full hex names.

The hexes and their room come from the engine (``placements``, ``crowding``), on the
game after my pending orders and my list so far, so a hex my list already filled is
not offered again.  A person reads the hexes grouped by the nearest city; a program
takes ``--json``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import crowded, turn
from pbem.protocol import engine_link, machine
from pbem.protocol.rules import Placing, Room, refusal_rule
from pbem.protocol.words import phase_name
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

#: Hexes shown on one city's line when every placing is listed; the rest are counted.
PER_CITY = 6
#: Hexes shown per placing near a place.
NEAREST = 8
#: Near a place, placings whose every hex is farther than this are only counted.
NEAR_ENOUGH = 10
#: Units named in a placing's heading; the rest are counted.
UNITS_NAMED = 4
#: The heading of the hexes more than summary.NEAR_CITY hexes from every city.
FAR = "far from any city"


def _room(r: Room) -> str:
    """``1/2``: units already there of what the limit counts, and the limit."""
    return f"{r.used}/{'no limit' if r.limit is None else r.limit}"


def _hex(r: Room) -> str:
    city = f" [{r.city}]" if r.city and r.city_distance == 0 else ""
    return f"{r.hex}{city} {_room(r)}"


def _heading(p: Placing) -> list[str]:
    labels = [w.label for w in p.waiting]
    more = len(labels) - UNITS_NAMED
    named = "; ".join(labels[:UNITS_NAMED]) + (f"; and {more} more" if more > 0 else "")
    orders = sorted({w.order for w in p.waiting})
    if len(orders) > UNITS_NAMED:
        orders = ["place #ID HEX"] if all(o.startswith("place #") for o in orders) else orders[:UNITS_NAMED]
    return [named, f"  {len(p.hexes)} free hexes (room: {p.counts} there / limit); order: {', '.join(orders)}"]


def _by_city(rooms: Sequence[Room], per_city: int | None) -> list[str]:
    cities: dict[str, list[Room]] = {}
    for r in rooms:
        cities.setdefault(r.city or FAR, []).append(r)
    lines = []
    for name in sorted(cities, key=lambda c: (c == FAR, c)):
        near = sorted(cities[name], key=lambda r: (r.city_distance, r.hex))
        shown = near if per_city is None else near[:per_city]
        more = f", and {len(near) - len(shown)} more" if len(near) > len(shown) else ""
        lines.append(f"  {name} ({len(near)}): {', '.join(_hex(r) for r in shown)}{more}")
    return lines


def _nearest(rooms: Sequence[Room]) -> list[str]:
    return [f"  {r.distance:>3} away: {r.hex}  {_room(r):<10} {crowded.city(r)}".rstrip() for r in rooms[:NEAREST]]


@dataclass(frozen=True)
class Free:
    """Where my waiting units may go now: every placing, those nearest a place, or one unit's."""

    gid: str
    side: str
    when: str
    phase: str
    near: str  # the place asked about ("" if none)
    unit: int | None  # the unit asked about
    placings: Sequence[Placing]

    def to_json(self) -> dict[str, object]:
        def hexes(p: Placing) -> list[dict[str, object]]:
            return [
                {"hex": r.hex, "city": r.city, "city_distance": r.city_distance, "used": r.used, "limit": r.limit}
                | ({"distance": r.distance} if self.near else {})
                for r in p.hexes
            ]

        return {
            "game": self.gid,
            "side": self.side,
            "when": self.when,
            "phase": self.phase,
            "near": self.near or None,
            "unit": self.unit,
            "placings": [
                {
                    "waiting": [
                        {"label": w.label, "order": w.order, "id": w.id if w.id >= 0 else None} for w in p.waiting
                    ],
                    "counts": p.counts,
                    "hexes": hexes(p),
                }
                for p in self.placings
            ],
        }

    def lines(self) -> list[str]:
        """The placings for a person: by nearest city, nearest the place, or one unit's in full."""
        step = f"{self.when} {phase_name(self.phase).lower()}"
        if not self.placings:
            return [
                f"nothing of yours waits to be placed in game {self.gid} now ({step}; "
                f"`pbem status {self.gid}` says what is awaited)"
            ]
        title = f"nearest {self.near}" if self.near else "by nearest city"
        lines = [f"where your units waiting to be placed may go ({step}; {title}):"]
        shown = self.placings
        if self.near:
            # Near a place, the units that may go there matter: those that may only go far away do not.
            near = sorted((p for p in shown if p.hexes[0].distance <= NEAR_ENOUGH), key=lambda p: p.hexes[0].distance)
            if len(near) < len(shown):
                lines.append(
                    f"({len(shown) - len(near)} more groups of units may only go farther than {NEAR_ENOUGH} hexes away)"
                )
            shown = near
        for p in shown:
            lines.append("")
            lines += _heading(p)
            if self.near:
                lines += _nearest(p.hexes)
            else:
                lines += _by_city(p.hexes, None if self.unit is not None else PER_CITY)
        return lines


def free(ws: Workspace, gid: str, what: str | None = None, home: Path | None = None) -> Free:
    """Where my waiting units may go now: every placing; near a place (``COL,ROW``, ``[City]``
    or a city's name) its nearest hexes first; or the placing of unit ``#ID``.  None
    while the decision is not mine (my list sealed already, or the other side's awaited)."""
    api = engine_link.api()
    text = (what or "").strip()
    unit = text.removeprefix("#") if text.startswith("#") or text.isdigit() else None
    place = text if unit is None else ""
    with ws.game_locked(gid):
        t = turn.my_turn(LocalGame(ws, gid, home))
    me, state = t.lg.me, t.work.state
    exp = machine.expected(t.work)
    mine = exp is not None and exp.side == me and exp.kind in ("act", "commit", "sim")
    if t.pending.sim:
        state = api.preview(state, me, [api.Action.from_wire(w) for w in t.pending.sim])
    try:
        found = list(api.placements(state, me, place)) if mine else []
    except api.OrderError as exc:
        raise PbemError(str(exc), "usage", refusal_rule(exc)) from None
    if unit is not None and mine:
        found = [p for p in found if any(str(w.id) == unit for w in p.waiting)]
        if not found:
            raise PbemError(
                f"unit #{unit} is not one of yours waiting to be placed now; "
                f"`pbem where {gid} --free` lists those that are",
                "usage",
            )
    d = api.decision(state)
    return Free(gid, me, d.when, d.phase, place, None if unit is None else int(unit), found)
