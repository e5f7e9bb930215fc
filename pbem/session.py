"""Playing one side of a game: creating, joining, giving orders, sending, the bot.

My turn is kept as *pending* records in the store until ``send`` seals them
into a signed file in ``outbox/``.  Records I owe that need no judgement
(dice values, opening my commitment) are produced automatically; they are
sent at once when control then passes to the opponent, or staged at the head
of my pending turn when a decision of mine follows them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem import commit, dice, engine_link, keys, protocol, turnfile
from pbem.errors import PbemError
from pbem.localgame import LocalGame, commit_salt, dice_secret
from pbem.protocol import Game
from pbem.store import Transaction, Workspace
from pbem.turnfile import SIDES, TurnFile, other

MAX_ORDERS = 20_000


def month_text(text: str) -> str:
    """A month given by a person (``YYYY-MM``), checked and written the engine's way."""
    try:
        y, m = text.split("-")
        year, month = int(y), int(m)
    except ValueError:
        raise PbemError(f"'{text}' is not a date; write YYYY-MM, e.g. 1940-06", "usage") from None
    if not 1 <= month <= 12:
        raise PbemError(f"'{text}' is not a date; the month must be 01 to 12", "usage")
    return f"{year:04d}-{month:02d}"


# -- creating and joining --------------------------------------------------------------


def new_game(
    ws: Workspace,
    scenario: str,
    side: str,
    me: str,
    opponent: keys.PublicKey,
    opponent_email: str = "",
    home: Path | None = None,
    gid: str | None = None,
    options: dict[str, Any] | None = None,
    chain_length: int = dice.DEFAULT_LENGTH,
) -> tuple[str, Path]:
    """Write the genesis file (the invitation) into outbox/; returns (game id, path)."""
    api = engine_link.api()
    if side not in SIDES:
        raise PbemError(f"side must be 'axis' or 'allies', not '{side[:20]}'", "usage")
    ident = keys.load(me, home)
    if opponent.raw == ident.public.raw:
        raise PbemError("the opponent's public key is your own key", "usage")
    try:
        digest = api.scenario_digest(scenario)
    except Exception as exc:
        raise PbemError(
            f"cannot load scenario '{scenario[:40]}' ({type(exc).__name__}: {str(exc)[:120]})", "usage"
        ) from None
    gid = gid or os.urandom(6).hex()
    opp_email = keys.check_email(opponent_email or opponent.email)
    body = {
        "v": turnfile.VERSION,
        "type": "genesis",
        "game": gid,
        "seq": 0,
        "prev": bytes(32),
        "side": side,
        "scenario": scenario,
        "digest": digest,
        "engine": api.ENGINE_VERSION,
        "options": dict(options or {}),
        "keys": {side: ident.public.raw, other(side): opponent.raw},
        "names": {side: ident.name, other(side): opponent.name},
        "emails": {side: ident.email, other(side): opp_email},
        "anchor": dice.anchor(dice_secret(ident, gid), chain_length),
        "chain": chain_length,
    }
    tf = turnfile.seal(body, ident.sign)
    with ws.locked():
        if (ws.game_dir(gid) / "meta.json").exists():
            raise PbemError(f"game {gid} already exists in this workspace", "usage")
        tx = Transaction()
        meta = {
            "game": gid,
            "me": me,
            "side": side,
            "my_email": ident.email,
            "opponent_email": opp_email,
            "opponent_name": opponent.name,
            "scenario": scenario,
        }
        rel = ws.game_rel(gid)
        tx.put(f"{rel}/meta.json", json.dumps(meta, sort_keys=True, indent=1).encode())
        tx.put(f"{rel}/files/00000-{side}.pbem", tf.raw)
        tx.put(f"outbox/{tf.name}", tf.raw)
        ws.commit(tx)
    return gid, ws.outbox / tf.name


def join(ws: Workspace, path: Path, me: str, home: Path | None = None) -> tuple[str, Path]:
    """Verify an invitation and write my answer (the join file) into outbox/."""
    api = engine_link.api()
    genesis = turnfile.read(path)
    g = protocol.check_genesis(genesis)
    side = other(g.creator)
    ident = keys.load(me, home)
    if g.key(side) != ident.public.raw:
        raise PbemError(
            f"this invitation is for the key {keys.fingerprint(g.key(side))}, not for identity '{me}' "
            f"({ident.public.fingerprint})",
            "key",
        )
    gid = g.game
    state = protocol.new_state(g)
    body = {
        "v": turnfile.VERSION,
        "type": "join",
        "game": gid,
        "seq": 1,
        "prev": genesis.hash,
        "side": side,
        "anchor": dice.anchor(dice_secret(ident, gid), dice.DEFAULT_LENGTH),
        "chain": dice.DEFAULT_LENGTH,
        "state": api.state_hash(state),
    }
    join_tf = turnfile.seal(body, ident.sign)
    game = protocol.start(genesis, join_tf)
    with ws.locked():
        if (ws.game_dir(gid) / "meta.json").exists():
            raise PbemError(f"you have already joined game {gid} in this workspace", "usage")
        tx = Transaction()
        meta = {
            "game": gid,
            "me": me,
            "side": side,
            "my_email": ident.email,
            "opponent_email": g.body["emails"][g.creator],
            "opponent_name": g.body["names"][g.creator],
            "scenario": g.body["scenario"],
        }
        rel = ws.game_rel(gid)
        tx.put(f"{rel}/meta.json", json.dumps(meta, sort_keys=True, indent=1).encode())
        tx.put(f"{rel}/files/00000-{g.creator}.pbem", genesis.raw)
        tx.put(f"{rel}/files/00001-{side}.pbem", join_tf.raw)
        tx.put(f"{rel}/snapshot", game.to_bytes())
        tx.put(f"outbox/{join_tf.name}", join_tf.raw)
        tx.delete(f".pbem/invitations/{gid}.pbem")
        ws.commit(tx)
    return gid, ws.outbox / join_tf.name


# -- automatic answers ----------------------------------------------------------------


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


# -- my pending turn ------------------------------------------------------------------


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
        raise PbemError(f"it is not your turn in game {t.lg.gid}: waiting for {exp[0]} ({_what(exp[1])})", "turn")
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
                raise PbemError(f"line {n}: {exc}", "order", exc.rule) from None
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
    tf = protocol.build_turn(game, lg.me, records, lg.identity().sign)
    tx = Transaction()
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


# -- status -------------------------------------------------------------------------


def _what(kind: str) -> str:
    return {
        "act": "orders",
        "commit": "hidden orders, sealed by a commitment",
        "sim": "orders in the clear",
        "reveal": "opening of its commitment (automatic)",
        "dice": "dice value (automatic)",
    }.get(kind, kind)


def status_line(lg: LocalGame, work: Game | None, pending: dict[str, Any] | None = None) -> str:
    gid = lg.gid
    if work is None:
        return f"game {gid}: waiting for {lg.meta.get('opponent_name', 'the opponent')} to join; next: `pbem import`"
    api = engine_link.api()
    d = api.decision(work.state)
    head = f"game {gid} ({lg.meta['side']}), file {work.seq}, {d.when}, {d.phase}"
    disputes = lg.meta.get("disputes")
    if disputes:
        head += f" [DISPUTED: {disputes[0]}]"
    exp = protocol.expected(work)
    if exp is None:
        w = api.winner(work.state)
        return f"{head}: the game is over" + (f"; {w} win" if w else "")
    side, kind = exp
    if side != lg.me:
        if kind in ("dice", "reveal"):
            what = "opening of its commitment" if kind == "reveal" else "dice value"
            return (
                f"{head}: waiting for {side}'s next file (its {what} is automatic, but may travel with its next "
                "decision); next: `pbem import` when their file arrives"
            )
        return f"{head}: waiting for {side}'s {_what(kind)}; next: `pbem import` when their file arrives"
    auto = (pending or {}).get("auto", 0)
    if auto:
        head += f" ({auto} automatic record(s) go out with your next file)"
    if kind in ("commit", "sim"):
        n = len((pending or {}).get("sim") or [])
        return (
            f"{head}: your move: {d.prompt} ({_what(kind)}; {n} listed); next: `pbem orders {gid} FILE` "
            f"then `pbem send {gid}`, or `pbem bot play {gid}`"
        )
    if kind == "act":
        return (
            f"{head}: your move: {d.prompt}; next: `pbem orders {gid} FILE` then `pbem send {gid}`, "
            f"or `pbem bot play {gid}`"
        )
    return f"{head}: you owe an automatic {kind}; next: `pbem import`"


def status(ws: Workspace, gid: str | None = None, home: Path | None = None) -> list[str]:
    with ws.locked():
        gids = [gid] if gid else ws.games()
        lines = []
        for g in gids:
            lg = LocalGame(ws, g, home)
            game = lg.game()
            if game is None:
                lines.append(status_line(lg, None))
                continue
            pending = lg.pending()
            work = game.clone()
            for rec in pending["records"]:
                protocol.apply_record(work, lg.me, game.seq + 1, rec, "pending")
            lines.append(status_line(lg, work, pending))
        inv = ws.store / "invitations"
        for p in sorted(inv.glob("*.pbem")) if inv.is_dir() else []:
            lines.append(f"invitation {p.stem}: accept it with `pbem join {p.relative_to(ws.root)} --me NAME`")
        if not lines:
            lines.append("no games in this workspace; start one with `pbem new` or `pbem join`")
        return lines
