"""My pending turn: the orders I give, take back and send, the bot playing for me, and
the records I owe automatically.

My turn is kept as *pending* records in the store until ``send`` seals them into a
signed file in ``outbox/``.  Records I owe that need no judgement (dice values,
opening my commitment) are produced automatically; they are sent at once when control
then passes to the opponent, or staged at the head of my pending turn when a decision
of mine follows them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem import commit, engine_link, protocol, report
from pbem.errors import PbemError
from pbem.localgame import LocalGame, commit_salt
from pbem.protocol import Game
from pbem.rules import refusal_rule
from pbem.status import awaited, status_line
from pbem.store import Transaction, Workspace
from pbem.turnfile import TurnFile

MAX_ORDERS = 20_000


def answer(lg: LocalGame, game: Game, tx: Transaction) -> list[Path]:
    """After ``game`` changed, produce what I owe automatically; stages snapshot, pending, outbox.

    Mutates ``game`` when a file is sealed.
    """
    before = game.to_bytes()
    records: list[Any] = []
    while (rec := lg.auto_record(game)) is not None:
        protocol.apply_record(game, lg.me, game.seq + 1, rec, "automatic answer")
        records.append(rec)
    exp = protocol.expected(game)
    if records and (exp is None or exp[0] != lg.me):
        tf = protocol.seal_turn(game, lg.me, records, lg.identity().sign)
        lg.stage_history(tx, tf)
        tx.put(f"{lg.rel}/snapshot", game.to_bytes())
        lg.stage_pending(tx, None)
        return [lg.stage_outbox(tx, tf)]
    tx.put(f"{lg.rel}/snapshot", before)
    seq = game.seq
    lg.stage_pending(tx, {"base": seq, "records": records, "auto": len(records), "sim": None} if records else None)
    return []


@dataclass
class Turn:
    """The game as it stands, and my unsent turn on top of it."""

    lg: LocalGame
    game: Game  # after the last accepted file
    work: Game  # after my pending records too
    pending: dict[str, Any]


def my_turn(lg: LocalGame) -> Turn:
    game = lg.game()
    if game is None:
        raise PbemError(f"game {lg.gid} has not started: the opponent has not joined yet", "turn")
    pending = lg.pending()
    if pending["base"] not in (-1, game.seq):  # cannot happen: pending is always cleared when a file lands
        raise PbemError(f"game {lg.gid}: pending orders do not fit the game; run `pbem undo` to clear them", "store")
    work = game.clone()
    for i, rec in enumerate(pending["records"], 1):
        protocol.apply_record(work, lg.me, game.seq + 1, rec, f"pending record {i}")
    pending["base"] = game.seq
    return Turn(lg, game, work, pending)


def _need_my_decision(t: Turn) -> tuple[str, str]:
    exp = protocol.expected(t.work)
    if exp is None:
        raise PbemError(f"game {t.lg.gid} is over", "turn")
    if exp[0] != t.lg.me:
        raise PbemError(f"it is not your turn in game {t.lg.gid}: waiting for {exp[0]} ({awaited(exp[1])})", "turn")
    return exp


def add_action(t: Turn, action: Any, where: str, check_list: bool = True) -> None:
    """Add one of my actions: applied at once in a sequential decision, listed in a simultaneous one."""
    _, what = _need_my_decision(t)
    if t.pending["sim"] is not None or what in ("commit", "sim"):
        # A simultaneous list is checked as a whole, in order (an order may rely on the ones
        # before it, e.g. a merge that makes room), by a trial on a copy of the game.
        t.pending["sim"] = [*(t.pending["sim"] or []), action.to_wire()]
        if check_list:
            try:
                _trial_sim(t, t.pending["sim"])
            except PbemError as exc:
                raise PbemError(f"{where}: {exc}", exc.code, exc.rule) from None
        return
    if what != "act":
        raise PbemError(f"{where}: the game awaits an automatic {what} first", "turn")
    rec = ["act", action.to_wire()]
    protocol.apply_record(t.work, t.lg.me, t.game.seq + 1, rec, where)
    t.pending["records"].append(rec)


def orders(ws: Workspace, gid: str, lines: Iterable[str], home: Path | None = None) -> str:
    """Apply a text file of orders (all or nothing) to my pending turn."""
    api = engine_link.api()
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        count = 0
        for n, line in enumerate(lines, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            if n > MAX_ORDERS:
                raise PbemError(f"line {n}: too many orders in one file", "usage")
            _need_my_decision(t)
            try:
                action = api.parse_order(t.work.state, lg.me, text)
            except (api.OrderError, api.IllegalAction) as exc:
                raise PbemError(f"line {n}: {exc}", "order", refusal_rule(exc)) from None
            try:
                add_action(t, action, f"line {n}")
            except PbemError as exc:
                msg = str(exc).removeprefix(f"line {n}: ")
                raise PbemError(f"line {n}: {msg}", exc.code, exc.rule) from None
            count += 1
        tx = Transaction()
        lg.stage_pending(tx, t.pending)
        ws.commit(tx)
    return f"{count} order(s) added to game {gid}; {status_line(lg, t.work, t.pending)}"


def undo(ws: Workspace, gid: str, home: Path | None = None) -> str:
    """Take back my last unsent action (automatic records cannot be taken back)."""
    api = engine_link.api()
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        p = t.pending
        if p["sim"]:
            text = api.format_action(t.work.state, api.Action.from_wire(p["sim"].pop()))
        elif p["sim"] is not None:
            p["sim"] = None
            text = "the empty order list"
        elif len(p["records"]) > p["auto"]:
            taken = p["records"].pop()[1]
            text = api.format_action(t.game.state, api.Action.from_wire(taken))
        else:
            raise PbemError(f"nothing to undo in game {gid}", "turn")
        tx = Transaction()
        lg.stage_pending(tx, p)
        ws.commit(tx)
    return f"took back {text}"


def _seal_pending(t: Turn) -> tuple[TurnFile, Transaction]:
    lg = t.lg
    exp = protocol.expected(t.work)
    records = list(t.pending["records"])
    if exp is not None and exp[0] == lg.me:
        if exp[1] == "act":
            d = engine_link.api().decision(t.work.state)
            raise PbemError(
                f"your decision is not finished ({d.phase}): add orders, ending with the phase's "
                "end order (e.g. 'pass'), or run `pbem bot play`",
                "turn",
            )
        if exp[1] in ("commit", "sim") and t.pending["sim"] is not None:
            # Only a list the player has started is sealed; to decide "nothing", order `pass`.
            sim = t.pending["sim"]
            seq = t.game.seq + 1
            _trial_sim(t, sim)
            if exp[1] == "commit":
                salt = commit_salt(lg.identity(), lg.gid, seq)
                records.append(["commit", commit.commitment(lg.gid, seq, lg.me, sim, salt)])
            else:
                records.append(["sim", sim])
    if not records:
        hint = (
            f": give orders for {engine_link.api().decision(t.work.state).phase} (`pass` alone means none)"
            if exp is not None and exp[0] == lg.me
            else ""
        )
        raise PbemError(f"nothing to send in game {lg.gid}{hint}", "turn")
    game = t.game.clone()
    tf, made = report.build_reported(game, lg.me, records, lg.identity().sign)
    tx = Transaction()
    report.stage(tx, lg.rel, [made])
    if records[-1][0] == "commit":
        # The committed actions must be on disk before the commitment can leave: without
        # them the reveal would be impossible and the game stuck.
        secrets = lg.secrets()
        secrets[str(tf.seq)] = t.pending["sim"] or []
        lg.stage_secrets(tx, secrets)
    lg.stage_history(tx, tf)
    tx.put(f"{lg.rel}/snapshot", game.to_bytes())
    lg.stage_pending(tx, None)
    lg.stage_outbox(tx, tf)
    return tf, tx


def _trial_sim(t: Turn, sim: list[Any]) -> None:
    """Try my list on a copy, so a hidden list that the rules would refuse is never committed."""
    api = engine_link.api()
    phase = api.decision(t.work.state).phase
    actions = [protocol._engine_call("order", api.Action.from_wire, w) for w in sim]
    protocol.trial_list(t.work, t.lg.me, actions, f"your orders for {phase}")


def send(ws: Workspace, gid: str, home: Path | None = None) -> Path:
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        tf, tx = _seal_pending(my_turn(lg))
        ws.commit(tx)
    return ws.outbox / tf.name


def bot_play(ws: Workspace, gid: str, home: Path | None = None, player: str = "bot") -> Path:
    """The computer makes my side's pending decisions, then the turn is sent."""
    ai = engine_link.ai()
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        if not t.pending["records"] and t.pending["sim"] is None:
            _need_my_decision(t)
        for rounds in range(10_000):
            exp = protocol.expected(t.work)
            if exp is None or exp[0] != lg.me or t.pending["sim"] is not None:
                break
            if exp[1] not in ("act", "commit", "sim"):
                raise PbemError(f"game {gid}: an automatic {exp[1]} is owed first; run `pbem import`", "turn")
            seed = lg.identity().derive("pbem/bot-seed/v1", f"{gid}/{t.game.seq}/{rounds}".encode())
            try:
                actions = ai.decide(t.work.state, lg.me, seed, player=player)
            except PbemError:
                raise
            except Exception as exc:
                raise PbemError(f"the computer player failed: {type(exc).__name__}: {str(exc)[:160]}", "bot") from None
            if exp[1] == "sim":
                # A list in the clear binds nothing hidden: record it now and play on.
                rec: list[Any] = ["sim", [a.to_wire() for a in actions]]
                _trial_sim(t, rec[1])
                protocol.apply_record(t.work, lg.me, t.game.seq + 1, rec, "bot orders")
                t.pending["records"].append(rec)
                continue
            if exp[1] == "commit":
                t.pending["sim"] = []
            elif not actions:
                raise PbemError("the computer player returned no action for a decision of its own", "bot")
            for i, action in enumerate(actions, 1):
                add_action(t, action, f"{lg.me} computer player, {exp[1]} action {i}", check_list=False)
                if exp[1] == "act" and protocol.expected(t.work) != (lg.me, "act"):
                    break  # control has left this decision; anything after belongs to a later one
        tf, tx = _seal_pending(t)
        ws.commit(tx)
    return ws.outbox / tf.name
