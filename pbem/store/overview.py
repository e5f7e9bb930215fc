"""A game's overview, written beside its snapshot so that `pbem status` and `pbem show`
answer without loading the rules engine.

The overview holds what those commands print of the game as my pending turn leaves
it: the position (date, phase, what is awaited), my listed orders, and both sides'
countries and units as the engine's summary tells them.  It names the SHA-256 of
the snapshot and of the pending turn it was made from.  A reader that finds other
bytes there (a store written by an older program, say) gets nothing from
:func:`read` and builds the overview again from the game itself: a stale overview
is never shown.  Every commit that stages a snapshot or a pending turn stages the
overview too (:func:`stage`), in the same transaction.

Reading imports no engine and no cryptography: that is the point of the file.
The functions that build an overview import the protocol and the engine when called.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, cast

from pbem.protocol.rules import UnitLine
from pbem.store.store import Transaction, Workspace, read_bytes

if TYPE_CHECKING:
    from pbem.protocol.machine import Game
    from pbem.store.localgame import PendingTurn

#: Bumped whenever what an overview holds changes: an overview of another format is rebuilt.
FORMAT = 1
SNAPSHOT_LIMIT = 1 << 30
_GID = re.compile(r"[0-9a-f]{12}")


@dataclass(frozen=True)
class Position:
    """Where a game stands after my pending records: what `pbem status` says of it."""

    seq: int  # the last accepted file
    when: str
    phase: str
    prompt: str
    expected: tuple[str, str] | None  # (side, record kind) awaited next; None once the game is over
    winner: str | None
    unsent: int  # my pending records
    auto: int  # of which automatic
    listed: int  # orders in my simultaneous list
    result: str = ""  # how the players ended the game (resignation, draw), for a person
    draw_offer: str = ""  # the side whose draw offer is open


class PositionDoc(TypedDict):
    """A :class:`Position` in the overview file (JSON gives ``expected`` back as a list)."""

    seq: int
    when: str
    phase: str
    prompt: str
    expected: tuple[str, str] | list[str] | None
    winner: str | None
    unsent: int
    auto: int
    listed: int
    result: str
    draw_offer: str


class CountryDoc(TypedDict):
    """A country of a side as the engine's summary tells it."""

    name: str
    money: int
    status: str
    to_place: str
    pool_points: int
    pool_units: int


class UnitDoc(TypedDict):
    """A unit line of the engine's summary as plain data."""

    id: int
    side: str
    country: str
    label: str
    strength: str
    hex: str
    city: str
    where: str
    flags: list[str]


class SideDoc(TypedDict):
    countries: list[CountryDoc]
    units: list[UnitDoc]


class Overview(TypedDict):
    """What the overview file holds: the bytes it was made from, the position, my listed
    orders (or why they no longer fit) and both sides as my view of the game shows them."""

    format: int
    snapshot: str  # SHA-256 of the snapshot, hex
    pending: str  # SHA-256 of my pending turn, hex ("": none)
    position: PositionDoc
    listed: list[str]
    unfit: str
    sides: dict[str, SideDoc]


def position(work: Game, pending: PendingTurn | None) -> Position:
    """The position of ``work`` (a game with my pending records applied), by the engine."""
    from pbem.protocol import engine_link, machine
    from pbem.store.localgame import PendingTurn

    api = engine_link.api()
    d = api.decision(work.state)
    exp = machine.expected(work)
    p = pending or PendingTurn()
    return Position(
        work.seq,
        d.when,
        d.phase,
        d.prompt,
        None if exp is None else (exp.side, exp.kind),
        machine.winner(work),
        len(p.records),
        p.auto,
        len(p.sim or []),
        machine.outcome(work),
        work.draw_offer,
    )


def _digest(data: bytes | None) -> str:
    return "" if data is None else hashlib.sha256(data).hexdigest()


def read(ws: Workspace, gid: str) -> Overview | None:
    """The stored overview of ``gid`` if it was made from the snapshot and pending turn on
    disk now, else None (call under the game's lock)."""
    if not _GID.fullmatch(gid):
        return None
    paths = ws.game_paths(gid)
    raw = read_bytes(paths.path(paths.overview))
    snapshot = read_bytes(paths.path(paths.snapshot), SNAPSHOT_LIMIT)
    if raw is None or snapshot is None:
        return None
    try:
        ov = json.loads(raw)
    except ValueError:
        return None
    if (
        not isinstance(ov, dict)
        or ov.get("format") != FORMAT
        or ov.get("snapshot") != _digest(snapshot)
        or ov.get("pending") != _digest(read_bytes(paths.path(paths.pending)))
        or set(ov) != Overview.__required_keys__
        or not isinstance(ov["position"], dict)
        or set(ov["position"]) != PositionDoc.__required_keys__
    ):
        return None
    # Its digests tie it to the bytes this program wrote it from, in the shape :func:`build` gives.
    return cast(Overview, ov)


def build(snapshot: bytes, pending_bytes: bytes | None, me: str, work: Game | None = None) -> Overview:
    """The overview of a game from its snapshot and my pending turn (by the engine);
    ``work`` is the game they make, when the caller holds it already."""
    from pbem.protocol import engine_link, machine, wire
    from pbem.store.localgame import LOCAL_LIMITS, PendingTurn

    api = engine_link.api()
    pending = PendingTurn.from_wire(wire.unpack(pending_bytes, LOCAL_LIMITS)) if pending_bytes is not None else None
    game = work
    if game is None:
        game = machine.Game.from_bytes(snapshot)
        seq = game.seq + 1
        for i, rec in enumerate(pending.records if pending else [], 1):
            machine.apply_record(game, me, seq, rec, f"pending record {i}")
    pos = position(game, pending)
    state, listed, unfit = game.state, [], ""
    sim = [api.Action.from_wire(w) for w in (pending.sim if pending else None) or []]
    if sim:
        try:
            state = api.preview(state, me, sim)
        except api.IllegalAction as exc:  # cannot happen: orders are tried when they are listed
            unfit = f"your listed orders no longer fit: {exc}; run `pbem undo {game.gid}`"
        listed = [api.format_action(state, a) for a in sim]
    seen = api.view(state, me)
    sides: dict[str, SideDoc] = {}
    for side in ("axis", "allies"):
        s = api.summary(seen, side)
        sides[side] = {
            "countries": [
                {
                    "name": c.name,
                    "money": c.money,
                    "status": c.status,
                    "to_place": c.to_place,
                    "pool_points": c.pool_points,
                    "pool_units": c.pool_units,
                }
                for c in s.countries
            ],
            "units": [unit_data(u) for u in s.units],
        }
    return {
        "format": FORMAT,
        "snapshot": _digest(snapshot),
        "pending": _digest(pending_bytes),
        "position": _position_doc(pos),
        "listed": listed,
        "unfit": unfit,
        "sides": sides,
    }


def _position_doc(p: Position) -> PositionDoc:
    return {
        "seq": p.seq,
        "when": p.when,
        "phase": p.phase,
        "prompt": p.prompt,
        "expected": p.expected,
        "winner": p.winner,
        "unsent": p.unsent,
        "auto": p.auto,
        "listed": p.listed,
        "result": p.result,
        "draw_offer": p.draw_offer,
    }


def unit_data(u: UnitLine) -> UnitDoc:
    """A unit line of the engine's summary as plain data (an overview keeps these)."""
    return {
        "id": u.id,
        "side": u.side,
        "country": u.country,
        "label": u.label,
        "strength": u.strength,
        "hex": u.hex,
        "city": u.city,
        "where": u.where,
        "flags": list(u.flags),
    }


def position_of(ov: Overview) -> Position:
    p = ov["position"]
    exp = p["expected"]
    return Position(
        p["seq"],
        p["when"],
        p["phase"],
        p["prompt"],
        (exp[0], exp[1]) if exp else None,
        p["winner"],
        p["unsent"],
        p["auto"],
        p["listed"],
        p["result"],
        p["draw_offer"],
    )


def stage(tx: Transaction, ws: Workspace, gid: str, me: str, work: Game | None = None) -> Overview | None:
    """Stage the overview of game ``gid`` as ``tx`` leaves its snapshot and my pending turn,
    and return it (None before the game has begun).  ``work`` is the game those make, if
    the caller holds it: replaying my pending records again (a revealed deployment, a
    whole movement phase) can cost more than the command's own work."""
    paths = ws.game_paths(gid)

    def left(rel: str) -> bytes | None:
        return tx.writes[rel] if rel in tx.writes else read_bytes(paths.path(rel), SNAPSHOT_LIMIT)

    snapshot = left(paths.snapshot)
    if snapshot is None:
        tx.delete(paths.overview)
        return None
    ov = build(snapshot, left(paths.pending), me, work)
    tx.put(paths.overview, json.dumps(ov, sort_keys=True, separators=(",", ":")).encode())
    return ov


def current(ws: Workspace, gid: str, me: str) -> Overview | None:
    """The overview of ``gid`` now: the stored one, or one built again from the game (and
    stored for the next reader) when the stored one is missing or was made from other
    bytes; None before the game has begun.  Call under the game's lock."""
    ov = read(ws, gid)
    if ov is None:
        tx = Transaction()
        ov = stage(tx, ws, gid, me)
        if ov is not None:
            ws.commit(tx)
    return ov
