"""Reaction orders: the decisions a side makes in the other side's turn, given in advance.

Two decisions of the rules fall to a side while the other side moves (supplement: "Sequence
and who acts"): the interception rounds (the side that did not move intercepts first; the
mover answers the interceptors; and so on) and the landing of the aircraft that flew in
them.  Each used to cost its side a sitting of its own.  A side may instead tell its program
what to do there, once: ``ask`` (the person decides, as before), ``bot`` (the computer player
decides, restricted to the aircraft the person names) or, for interception, ``pass``.  The
program then answers those decisions itself, like a dice value, in ``pbem import``, the mail
daemon and ``pbem send``.

The orders are kept in the workspace (meta.json) and travel only sealed: every file the
side sends carries a ``seal`` of the orders in force when they changed or were spent
(:func:`seal`), and the decision they make is a ``react`` record that opens the seal of an
earlier file (docs/turn-file-format.md, section 5.8), so the other side learns them only when
they act, cannot see them change after it moved, and can re-execute what they did: the
computer player's seed comes from the opened salt.  Orders given since the side's last file
(nothing sealed yet) decide all the same, as ordinary ``act`` records from a seed derived
from the side's key, marked ``standing`` in the file on the side's word.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.errors import PbemError
from pbem.protocol import commit, engine_link, machine
from pbem.protocol.jsondoc import Doc
from pbem.protocol.machine import Expectation, Game
from pbem.protocol.records import INTERCEPT_MODES, LAND_MODES, Act, React, ReactionWire, Record, Seal
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction

#: A decision answered by the program has at most this many actions (the bot's whole list).
MAX_ACTIONS = 2_000


@dataclass(frozen=True)
class Reactions:
    """What my program does in my decisions of the other side's turn."""

    intercept: str = "ask"
    land: str = "ask"
    #: the aircraft that may intercept by themselves (empty: every one able)
    only: tuple[int, ...] = ()

    def mode(self, step: str) -> str:
        return {"interception": self.intercept, "landing": self.land}.get(step, "ask")

    def to_json(self) -> Doc:
        return {"intercept": self.intercept, "land": self.land, "only": list(self.only)}

    def to_wire(self) -> ReactionWire:
        """As a ``react`` record carries them (docs/turn-file-format.md, section 5.8)."""
        return [self.intercept, self.land, sorted(self.only)]

    @classmethod
    def from_wire(cls, w: ReactionWire) -> Reactions:
        intercept, land, only = w
        return cls(str(intercept), str(land), tuple(only) if isinstance(only, list) else ())

    @classmethod
    def from_json(cls, d: object) -> Reactions:
        if not isinstance(d, dict):
            return cls()
        only = tuple(int(u) for u in d.get("only", ()))
        return cls(str(d.get("intercept", "ask")), str(d.get("land", "ask")), only)

    def words(self) -> str:
        """The orders in one line, for people."""
        if self.intercept == self.land == "ask":
            return "reaction orders: none (you decide interceptions and landings yourself)"
        who = {"ask": "you decide", "bot": "the computer decides", "pass": "none"}
        aircraft = ""
        if self.only and self.intercept == "bot":
            aircraft = f" with {', '.join(f'#{u}' for u in self.only)} only"
        return (
            f"reaction orders: interception: {who[self.intercept]}{aircraft}; "
            f"landing of your aircraft: {who[self.land]}"
        )


def of(lg: LocalGame) -> Reactions:
    return Reactions.from_json(lg.meta.get("reactions"))


def set_orders(
    lg: LocalGame, tx: Transaction, intercept: str | None, land: str | None, only: tuple[int, ...] | None
) -> Reactions:
    """Change my reaction orders (None: keep that part) and stage them; returns them."""
    if intercept is not None and intercept not in INTERCEPT_MODES:
        raise PbemError(f"interception: '{intercept}' is not one of {', '.join(INTERCEPT_MODES)}", "usage")
    if land is not None and land not in LAND_MODES:
        raise PbemError(f"landing: '{land}' is not one of {', '.join(LAND_MODES)}", "usage")
    r = of(lg)
    r = replace(
        r,
        intercept=r.intercept if intercept is None else intercept,
        land=r.land if land is None else land,
        only=r.only if only is None else tuple(sorted(set(only))),
    )
    lg.meta["reactions"] = r.to_json()
    lg.stage_meta(tx)
    return r


def step_of(game: Game) -> str:
    """The engine's name of the current step (``axis.interception`` -> ``interception``)."""
    return engine_link.api().decision(game.state).phase.rsplit(".", 1)[-1]


def answer(lg: LocalGame, game: Game, rounds: int) -> tuple[list[Record], bool]:
    """The records my reaction orders give for my decision now (checked on a copy of ``game``,
    for the caller to apply), and whether they need the file's ``standing`` mark; no record
    when there is none to give (not my decision in those steps, or I decide myself).

    Orders sealed in an earlier file are opened (one ``react`` record: provably standing).
    Orders not sealed yet (given since my last file) decide all the same, as my ``act``
    records from my own secret seed (``rounds`` numbers the decisions answered so far after
    the last file); the file marks them ``standing``, on my word.  A decision the engine
    refuses (it should not happen) is left to the person rather than stopping the import."""
    if lg.meta.get("handed_over_to") or machine.expected(game) != Expectation(lg.me, "act"):
        return [], False
    step = step_of(game)
    r = of(lg)
    if r.mode(step) == "ask":
        return [], False
    opened = _opening(lg, game, step)
    if opened is not None:
        return ([opened], False) if _fits(lg, game, [opened], step) else ([], False)
    return _unsealed(lg, game, r, step, rounds), True


def _opening(lg: LocalGame, game: Game, step: str) -> React | None:
    """The opening of my seal in force, when it is the one this workspace made and it decides ``step``."""
    sealed = game.seals.get(lg.me)
    mine = lg.meta.get("sealed")
    if sealed is None or not isinstance(mine, dict) or mine.get("seq") != sealed[1]:
        return None
    orders = mine["orders"]
    if Reactions.from_wire(orders).mode(step) == "ask":
        return None
    return React(orders, lg.derived().seal_salt(sealed[1]))


def _unsealed(lg: LocalGame, game: Game, r: Reactions, step: str, rounds: int) -> list[Record]:
    """My decision as ``act`` records from my own seed, tried one by one on a copy of ``game``
    up to the end of the decision (a pass closes it if the list runs out); [] if any fails."""
    api = engine_link.api()
    if r.mode(step) == "pass":
        actions = [api.Action("pass", ())]
    else:
        seed = lg.derived().reaction_seed(game.seq, rounds)
        actions = list(engine_link.ai().decide(game.state, lg.me, seed, player="bot"))
        if step == "interception" and r.only:
            actions = [a for a in actions if a.kind != "intercept" or int(a.args[0]) in r.only]
    actions = [*actions[:MAX_ACTIONS], api.Action("pass", ())]
    records: list[Record] = []
    trial = game.clone()
    for a in actions:
        records.append(Act(a.to_wire()))
        try:
            machine.apply_record(trial, lg.me, game.seq + 1, records[-1], f"your reaction orders ({step})", [a])
        except PbemError:
            return []
        if machine.expected(trial) != Expectation(lg.me, "act") or step_of(trial) != step:
            return records
    return []


def _fits(lg: LocalGame, game: Game, records: list[Record], step: str) -> bool:
    """Does the opening of my seal make my decision of ``step`` whole (tried on a copy)?"""
    trial = game.clone()
    try:
        for rec in records:
            machine.apply_record(trial, lg.me, game.seq + 1, rec, f"your reaction orders ({step})")
    except PbemError:
        return False
    return machine.expected(trial) != Expectation(lg.me, "act") or step_of(trial) != step


def seal(lg: LocalGame, game: Game, tx: Transaction) -> Seal | None:
    """The seal of my reaction orders to add to the file I am writing (the next one of
    ``game``), when they decide something and my seal in force does not already hold
    them; stages the note of what it seals in ``tx``."""
    r = of(lg)
    if r.intercept == r.land == "ask" or lg.meta.get("handed_over_to"):
        return None
    orders = r.to_wire()
    sealed = game.seals.get(lg.me)
    mine = lg.meta.get("sealed")
    if sealed is not None and isinstance(mine, dict) and mine.get("seq") == sealed[1] and mine["orders"] == orders:
        return None
    seq = game.seq + 1
    lg.meta["sealed"] = {"seq": seq, "orders": orders}
    lg.stage_meta(tx)
    return Seal(commit.seal(game.gid, seq, lg.me, orders, lg.derived().seal_salt(seq)))
