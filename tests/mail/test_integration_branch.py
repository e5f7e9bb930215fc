"""A branch invitation to the bot mailbox over real Dovecot and Postfix.

Two players play a game by mail; one of them branches it to play on against the bot
mailbox, which never saw the parent game: the parent's files travel with the invitation,
the bot re-executes them, checks the position the branch names and joins, then plays the
branch by mail. Parent files of another history are refused, and the bot joins nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mailtesting import wait_until
from playtable import Table

from pbem.play import audit, branch, games
from pbem.protocol import machine, turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame

pytestmark = pytest.mark.mail


@pytest.mark.usefixtures("engine_double")
def test_the_bot_mailbox_joins_a_branch_from_the_parent_files_mailed_with_it(
    make_player, tmp_path: Path, caplog
) -> None:
    t = Table(make_player, tmp_path)
    allies_pub = keys.read_public_key(t.homes["allies"] / "allies.pub")
    t.gid, _ = games.new_game(t.ws["axis"], "long", "axis", "axis", allies_pub, t.p["allies"].address, t.homes["axis"])
    parent = t.gid
    wait_until(lambda: bool(t.ws["allies"].invitations()), 20, step=t.cycle, what="the invitation")
    games.join(t.ws["allies"], t.ws["allies"].root / t.ws["allies"].invitation_rel(parent), "allies", t.homes["allies"])
    t.play_until(
        lambda: t.in_step("axis") and not machine.in_progress(t.game("axis")) and t.game("axis").seq >= 6,
        "a position to branch from",
    )
    at = t.game("axis").seq
    bot_pub = keys.read_public_key(t.homes["bot"] / "bot.pub")
    source = branch.store_source(t.ws["axis"])

    # 1. Parent files of another history (the last one re-signed with another outcome by
    # its author): the bot keeps the invitation but does not join.
    bad_gid, _ = branch.new_branch(t.ws["axis"], source, parent, at, "axis", "axis", bot_pub, t.homes["axis"])
    carried = t.ws["axis"].outbox / f"{bad_gid}{branch.PARENT_SUFFIX}"
    files = branch.unpack_parent_files(carried.read_bytes(), "test")[parent]
    last = files[at]
    signer = keys.load(last.side, t.homes[last.side])
    resigned = turnfile.seal(dict(last.body, state=bytes(32)), signer.sign)
    carried.write_bytes(branch.PARENT_MAGIC + b"".join(tf.raw for tf in [*files[:at], resigned]))
    wait_until(lambda: f"cannot join game {bad_gid}" in caplog.text, 20, step=t.cycle, what="the refusal")
    assert not LocalGame.has_game(t.ws["bot"], bad_gid)
    assert not (t.ws["axis"].outbox / turnfile.filename(bad_gid, 1, "allies")).exists()

    # 2. The genuine parent files: the bot verifies the position, joins and plays the branch.
    t.gid, _ = branch.new_branch(t.ws["axis"], source, parent, at, "axis", "axis", bot_pub, t.homes["axis"])
    t.holder = {"axis": "axis", "allies": "bot"}
    wait_until(lambda: LocalGame(t.ws["axis"], t.gid).game() is not None, 30, step=t.cycle, what="the bot's join")
    assert f"kept the parent files of branch {t.gid} (game {parent} files 0 to {at})" in caplog.text
    start = t.game("axis")
    assert start.genesis.parent is not None and start.genesis.parent["seq"] == at
    played = t.bot.played
    t.play_until(lambda: t.bot.played >= played + 3 and t.in_step("axis"), "three decisions of the bot")
    assert t.game("bot").hashes == t.game("axis").hashes

    # 3. The record audits clean: the branch verified from its parent in the same folder.
    rec = tmp_path / "record"
    rec.mkdir()
    for gid in (parent, t.gid):
        lg = LocalGame(t.ws["axis"], gid, t.homes["axis"])
        for seq in range(lg.head() + 1):
            tf = lg.history_file(seq)
            assert tf is not None
            (rec / tf.name).write_bytes(tf.raw)
    reports = {r.game_id: r for r in audit.audit_dir(rec)}
    assert reports[t.gid].files == t.game("axis").seq + 1
    assert machine.expected(t.game("axis")) is not None
