"""Solo analysis branches: the computer plays the other side here, through real files."""

from __future__ import annotations

import pytest

from pbem.errors import PbemError
from pbem.play import branch, history, levels, reactions, solo, turn
from pbem.protocol import machine
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo
from tests.protocol.test_branch import branch_point


def test_a_solo_branch_is_played_against_the_computer(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    p = duo.axis
    gid, said = solo.start(p.ws, branch.store_source(p.ws), duo.gid, branch_point(duo), "axis-p", home=p.home)
    assert said, "the computer's join was not applied"
    mine = LocalGame(p.ws, gid, p.home)
    assert mine.meta["solo"] is True and mine.base() is not None
    computer_ws, computer_home = solo._computer(p.ws, gid)
    for _ in range(4):
        game = mine.game()
        assert game is not None
        exp = machine.expected(turn.my_turn(mine).work)
        assert exp is not None and exp.side == "axis", "the computer kept the move"
        turn.bot_play(p.ws, gid, home=p.home)
        solo.answer(p.ws, gid, p.home)
    # Both stores hold the same verified history, and nothing of it waits to be mailed.
    theirs = LocalGame(computer_ws, gid, computer_home).game()
    game = mine.game()
    assert theirs is not None and game is not None and theirs.hashes == game.hashes
    assert game.seq > 4
    assert not list(p.ws.outbox.glob(f"{gid}-*")) and not list(computer_ws.outbox.glob(f"{gid}-*"))
    # The computer answers my turn's interceptions and landings by reaction orders, sealed
    # with its files (so I never wait for it there), as the bot mailbox does.
    computer = LocalGame(computer_ws, gid, computer_home)
    assert reactions.of(computer) == reactions.Reactions("bot", "bot", retreat="bot")
    sealed = [tf.seq for tf in history.workspace_files(computer_ws, gid) if tf.side == computer.me
              for rec in tf.records if rec.KIND == "seal"]  # fmt: skip
    assert sealed and computer.meta["sealed"]["seq"] == sealed[-1]


def test_a_solo_branch_plays_the_computer_at_the_level_chosen(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    p = duo.axis
    source, at = branch.store_source(p.ws), branch_point(duo)
    before = sorted(p.ws.games())
    with pytest.raises(PbemError, match="there is no level 9"):
        solo.start(p.ws, source, duo.gid, at, "axis-p", home=p.home, level=9)
    assert sorted(p.ws.games()) == before  # nothing started
    gid, _ = solo.start(p.ws, source, duo.gid, at, "axis-p", home=p.home, level=1)
    computer_ws, computer_home = solo._computer(p.ws, gid)
    assert levels.recorded_player(LocalGame(computer_ws, gid, computer_home)) == "gentle"  # the stand-in's level 1
    assert LocalGame(p.ws, gid, p.home).meta[levels.OPPONENT_LEVEL] == 1  # my status line says it
