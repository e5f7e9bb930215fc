"""`pbem claim GAME`: the waiting player's claim of a missed deadline, from its workspace."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.play import history, report, turn
from pbem.protocol import advance, clock, deadlines, machine
from pbem.protocol.machine import Game
from pbem.protocol.turnfile import TurnFile
from pbem.protocol.words import sides_of
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace


def claim(ws: Workspace, gid: str, home: Path | None = None) -> tuple[Path, str]:
    """Seal my claim into outbox/ (with what I then owe automatically); returns the claim's
    path and what it did."""
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        lg.check_mine()
        game = lg.joined_game(no_pending=True)
        was_reminded = game.reminded
        exp = machine.expected(game)
        exp_side, exp_kind = ("", "") if exp is None else (exp.side, exp.kind)
        before = game.clone()
        tf = deadlines.seal_claim(game, lg.me, lg.identity().sign, lambda i: lg.chain_value(game, i))
        tx = Transaction()
        # The report the mail carrying the claim quotes, made as the receiver will make it.
        report.stage(tx, lg.paths, [report.apply_reported(before, machine.Authentic(tf))])
        lg.stage_history(tx, tf)
        path = lg.stage_outbox(tx, tf)
        if game.reminded:
            what = f"a reminder; the deadline runs again until {deadlines.when(deadlines.due_at(game))}"
            if was_reminded:  # an automatic record: a claim for it never ends anything
                what += f" ({deadlines.automatic_note(exp_kind)})"
        elif game.forfeited:
            what = f"the final claim: {report.awaited(game)}"
        else:
            what = f"the final claim: the bot made {sides_of(exp_side)} decision; now {report.awaited(game)}"
        turn.answer(lg, game, tx)  # stages the snapshot, the overview and what I owe at once after the bot's play
        ws.commit(tx)
    return path, what


def overdue(ws: Workspace, home: Path | None = None, games: list[str] | None = None) -> list[str]:
    """The games of ``ws`` (or those of ``games``) in which my opponent's deadline has passed:
    mine to claim."""
    now = clock.now()
    return [
        gid
        for gid in (ws.games() if games is None else games)
        if (due := claim_due(ws, gid, home)) is not None and now >= due
    ]


def claim_due(ws: Workspace, gid: str, home: Path | None = None) -> float | None:
    """When I may claim in the game: my opponent's deadline, when the opponent is to move;
    None when the game has no deadline (told from its genesis, without loading its state),
    is mine to move, over, or handed over."""
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        if lg.meta.get("handed_over_to") or lg.meta.get("handover_pending"):
            return None
        if clock.terms(lg.genesis().body["options"]) is None:
            return None
        game = lg.game()
        exp = None if game is None else machine.expected(game)
        if game is None or exp is None or exp.side == lg.me:
            return None
        return float(deadlines.due_at(game))


def _position_before(lg: LocalGame, seq: int) -> Game:
    return history.position([f for f in (lg.history_file(s) for s in range(seq)) if f is not None])


def refuse_crossing(lg: LocalGame, file: machine.Authentic, tx: Transaction) -> tuple[str, list[Path]] | None:
    """The opponent's claim for a position my own file holds.  When my file is dated before the
    deadline, the claim is void (a side that sent its file in time never loses by a claim):
    stages the dispute and my files from there on, byte for byte, to be sent again; returns
    what to tell my player and those files.  None when my file was late: the claim wins.
    Raises PbemError when the claim is not valid at its position on other grounds."""
    tf = file.tf
    before = _position_before(lg, tf.seq)
    advance.apply_file(before.clone(), machine.authenticate(before.genesis, tf, before))
    mine = lg.history_file(tf.seq)
    if mine is None or not deadlines.in_time(before, mine):
        return None
    note = (
        f"file {tf.seq}: {sides_of(tf.side)} claim says it never received your file {tf.seq} sent at "
        f"{deadlines.when(mine.body['time'])}; it was sent in time (the deadline was "
        f"{deadlines.when(deadlines.due_at(before))}); it has been sent again"
    )
    lg.stage_dispute(tx, [mine, tf], note)
    resent = [lg.stage_outbox(tx, f) for f in _mine_from(lg, tf.seq) if f is not None]
    return note, resent


def void_my_claims(lg: LocalGame, file: machine.Authentic, tx: Transaction) -> tuple[Game, str] | None:
    """The opponent's file for a position my claim holds, dated before the deadline there: my
    claim crossed a file sent in time and is void.  Withdraws my files from that position (the
    opponent's program keeps its file and refuses them) and applies the opponent's; returns the
    game and what to tell my player.  None when the file is late, or arrives after the time my
    last file gave the opponent to answer (then it is not the answer to my claim but a stale one)."""
    tf = file.tf
    held = lg.history_file(tf.seq)
    if held is None or held.type != "claim" or held.side != lg.me:
        return None
    before = _position_before(lg, tf.seq)
    now = lg.game()
    if not deadlines.in_time(before, tf) or now is None or clock.now() > deadlines.due_at(now):
        return None
    game = overtake(lg, file, tx, before.clone())
    note = (
        f"file {tf.seq}: your claim crossed {sides_of(tf.side)} file {tf.seq}, sent in time at "
        f"{deadlines.when(tf.body['time'])} (the deadline was {deadlines.when(deadlines.due_at(before))}); "
        f"your claim is void and withdrawn"
    )
    lg.stage_dispute(tx, [held, tf], note)
    return game, note


def _mine_from(lg: LocalGame, seq: int) -> list[TurnFile | None]:
    return [lg.history_file(s) for s in range(seq, lg.head() + 1)]


def overtake(lg: LocalGame, file: machine.Authentic, tx: Transaction, before: Game | None = None) -> Game:
    """The game once the opponent's file at a position my own files hold is applied (``before``:
    the game before that position); stages the withdrawal of those files.  Raises PbemError if
    the file is not valid there."""
    tf = file.tf
    mine = _mine_from(lg, tf.seq)
    if any(f is None or f.side != lg.me for f in mine):
        raise PbemError(f"{tf.name}: position {tf.seq} is already filled (out of turn)", "sequence")
    game = _position_before(lg, tf.seq) if before is None else before
    advance.apply_file(game, machine.authenticate(game.genesis, tf, game))
    for f in mine:
        assert f is not None
        lg.stage_drop(tx, f)
    lg.stage_history(tx, tf)
    return game
