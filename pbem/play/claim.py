"""`pbem claim GAME`: the waiting player's claim of a missed deadline, from its workspace."""

from __future__ import annotations

from pathlib import Path

from pbem.errors import PbemError
from pbem.play import history, report, turn
from pbem.protocol import advance, clock, deadlines, machine
from pbem.protocol.machine import Game
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


def overdue(ws: Workspace, home: Path | None = None) -> list[str]:
    """The games of ``ws`` in which my opponent's deadline has passed: mine to claim.
    Games without a deadline are told from their genesis, without loading their state."""
    now, found = clock.now(), []
    for gid in ws.games():
        with ws.game_locked(gid):
            lg = LocalGame(ws, gid, home)
            if lg.meta.get("handed_over_to") or lg.meta.get("handover_pending"):
                continue
            if clock.terms(lg.genesis().body["options"]) is None:
                continue
            game = lg.game()
            exp = None if game is None else machine.expected(game)
            if game is not None and exp is not None and exp.side != lg.me and now >= deadlines.due_at(game):
                found.append(gid)
    return found


def overtake(lg: LocalGame, file: machine.Authentic, tx: Transaction) -> Game:
    """The game once the opponent's claim at a position my own files hold is applied; stages
    the withdrawal of those files.  Raises PbemError if the claim is not valid there."""
    tf = file.tf
    head = lg.head()
    mine = [lg.history_file(s) for s in range(tf.seq, head + 1)]
    if any(f is None or f.side != lg.me for f in mine):
        raise PbemError(f"{tf.name}: position {tf.seq} is already filled (out of turn)", "sequence")
    game = history.position([f for f in (lg.history_file(s) for s in range(tf.seq)) if f is not None])
    advance.apply_file(game, machine.authenticate(game.genesis, tf, game))
    for f in mine:
        assert f is not None
        lg.stage_drop(tx, f)
    lg.stage_history(tx, tf)
    return game
