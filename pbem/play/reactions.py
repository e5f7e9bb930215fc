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

A third decision, where a beaten stack retreats when several hexes are legal (supplement
"Retreat": the defender picks), is the engine's standing order ``retreat [HEX ...]``,
part of the state before any roll, like ``stand``.  The reaction order for it is ``ask``
(the person gives such orders, or none, as before), ``bot`` (the engine picks: an order in
force is withdrawn) or ``toward`` places.  It rides in the seal with the others (a fourth
element of the sealed list) and is opened just before the side's first dice value of an
overrun or combat roll, where it becomes the side's ``retreat`` order, when it is not in
force already (:func:`before_roll`): the mover has declared its attacks by then.  Given
since the side's last file, it waits for the seal of the next one.
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
#: Where my stacks retreat: I give ``retreat`` orders myself, the engine picks, or toward places.
RETREAT_MODES = ("ask", "bot", "toward")
#: The most places a retreat order names: the engine refuses more (engine/combat.py), and
#: an order refused when the program gives it would be lost without a word.
MAX_TOWARD = 8


@dataclass(frozen=True)
class Reactions:
    """What my program does in my decisions of the other side's turn."""

    intercept: str = "ask"
    land: str = "ask"
    #: the aircraft that may intercept by themselves (empty: every one able)
    only: tuple[int, ...] = ()
    #: one of RETREAT_MODES; with ``toward``, the hexes of the ``retreat`` order and its text
    retreat: str = "ask"
    toward: tuple[int, ...] = ()
    toward_text: str = ""

    def mode(self, step: str) -> str:
        return {"interception": self.intercept, "landing": self.land}.get(step, "ask")

    def to_json(self) -> Doc:
        out: Doc = {"intercept": self.intercept, "land": self.land, "only": list(self.only)}
        if self.retreat != "ask":
            out |= {"retreat": self.retreat, "toward": list(self.toward), "toward_text": self.toward_text}
        return out

    def to_wire(self) -> ReactionWire:
        """As a ``react`` record carries them (docs/turn-file-format.md, section 5.8): the
        retreat part only when it is not ``ask``, so that orders without it seal as before."""
        wire: ReactionWire = [self.intercept, self.land, sorted(self.only)]
        if self.retreat != "ask":
            wire.append(list(self.toward) if self.retreat == "toward" else "bot")
        return wire

    @classmethod
    def from_wire(cls, w: ReactionWire) -> Reactions:
        intercept, land, only = str(w[0]), str(w[1]), tuple(w[2]) if isinstance(w[2], list) else ()
        if len(w) < 4:
            return cls(intercept, land, only)
        toward = w[3]
        if not isinstance(toward, list):  # "bot": reaction_orders checked the wire form
            return cls(intercept, land, only, "bot")
        return cls(intercept, land, only, "toward", tuple(toward))

    def silent(self) -> bool:
        """Do the orders leave every decision to the person (nothing to seal)?"""
        return self.intercept == self.land == self.retreat == "ask"

    @classmethod
    def from_json(cls, d: object) -> Reactions:
        if not isinstance(d, dict):
            return cls()
        only = tuple(int(u) for u in d.get("only", ()))
        toward = tuple(int(h) for h in d.get("toward", ()))
        return cls(
            str(d.get("intercept", "ask")),
            str(d.get("land", "ask")),
            only,
            str(d.get("retreat", "ask")),
            toward,
            str(d.get("toward_text", "")),
        )

    def words(self) -> str:
        """The orders in one line, for people."""
        retreat = {
            "ask": "you give retreat orders yourself",
            "bot": "the engine picks",
            "toward": f"{self.toward_text}",
        }[self.retreat]
        if self.intercept == self.land == "ask":
            return f"reaction orders: interceptions and landings: you decide; retreats: {retreat}"
        who = {"ask": "you decide", "bot": "the computer decides", "pass": "none"}
        aircraft = ""
        if self.only and self.intercept == "bot":
            aircraft = f" with {', '.join(f'#{u}' for u in self.only)} only"
        return (
            f"reaction orders: interception: {who[self.intercept]}{aircraft}; "
            f"landing of your aircraft: {who[self.land]}; retreats: {retreat}"
        )


def unit_numbers(text: str, what: str) -> tuple[int, ...]:
    """The aircraft a person names for ``only`` (``#7, #31`` or ``7 31``; empty: every one),
    as the command line and the page take them; ``what`` names the field in an error."""
    out = []
    for word in text.replace(",", " ").split():
        digits = word.removeprefix("#")
        if not digits.isdigit():
            raise PbemError(f"{what}: '{word[:20]}' is not a unit number like #7", "usage")
        out.append(int(digits))
    return tuple(out)


def of(lg: LocalGame) -> Reactions:
    return Reactions.from_json(lg.meta.get("reactions"))


def set_orders(
    lg: LocalGame,
    tx: Transaction,
    intercept: str | None,
    land: str | None,
    only: tuple[int, ...] | None,
    retreat: str | None = None,
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
    if retreat is not None:
        r = _with_retreat(lg, r, retreat)
    lg.meta["reactions"] = r.to_json()
    lg.stage_meta(tx)
    return r


def _with_retreat(lg: LocalGame, r: Reactions, text: str) -> Reactions:
    """``r`` with the retreat order ``ask``, ``bot`` or ``toward:PLACE [PLACE ...]``."""
    mode, _, places = text.partition(":")
    if mode not in RETREAT_MODES or (mode == "toward") != bool(places.strip()):
        raise PbemError(
            f"retreat: '{text}' is not ask, bot or toward:PLACE (a city, [Hong Kong] or COL,ROW), "
            "e.g. --retreat toward:Warsaw",
            "usage",
        )
    if mode != "toward":
        return replace(r, retreat=mode, toward=(), toward_text="")
    game = lg.game()
    if game is None:
        raise PbemError(f"game {lg.gid} has not started: give the retreat order once the opponent has joined", "turn")
    words = places.split()
    if len(words) == 1 and not words[0].startswith("[") and "," not in words[0]:
        words = [f"[{words[0]}]"]  # a city named alone, as the other commands take it
    api = engine_link.api()
    try:
        action = api.parse_order(game.state, lg.me, " ".join(["retreat", *words]))
    except api.OrderError as exc:
        # the engine names the order it read ('retreat'), a word the person did not write
        why = str(exc).removeprefix("'retreat': ")
        raise PbemError(f"retreat: {why}", "usage") from None
    if len(action.args) > MAX_TOWARD or len(set(action.args)) != len(action.args):
        raise PbemError(f"retreat: name each place once, at most {MAX_TOWARD} of them", "usage")
    hexes, _, cities = api.format_action(game.state, action, named=True).removeprefix("retreat ").partition("  # ")
    text = f"toward {hexes}" + (f" ({cities})" if cities else "")
    return replace(r, retreat=mode, toward=tuple(int(h) for h in action.args), toward_text=text)


def before_roll(lg: LocalGame, game: Game) -> React | None:
    """The opening of my seal before my first dice value of a roll, when the roll may make
    my stacks retreat, my seal in force is the one this workspace made and its retreat
    order is not in force already (tried on a copy of ``game``)."""
    exp = machine.expected(game)
    p = game.pending
    if exp != Expectation(lg.me, "dice") or not isinstance(p, machine.ChanceStep) or p.values:
        return None
    if step_of(game) not in machine.ROLL_STEPS or lg.meta.get("handed_over_to"):
        return None
    sealed = game.seals.get(lg.me)
    mine = lg.meta.get("sealed")
    if sealed is None or not isinstance(mine, dict) or mine.get("seq") != sealed[1] or len(mine["orders"]) < 4:
        return None
    opening = React(mine["orders"], lg.derived().seal_salt(sealed[1]))
    try:
        machine.apply_record(game.clone(), lg.me, game.seq + 1, opening, "your retreat order")
    except PbemError:
        return None  # in force already: opening it would change nothing, and the engine refuses that
    return opening


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
    if r.silent() or lg.meta.get("handed_over_to"):
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
