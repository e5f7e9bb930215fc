"""Branches: a new game from a verified position of another, and the attacks on that position."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import audit, branch, exchange, games
from pbem.protocol import engine_link, machine, turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo


def branch_point(duo: Duo) -> int:
    """The last file of the game after which a branch may start."""
    for at in range(duo.game("axis").seq, 1, -1):
        game = branch.replay(branch.store_source(duo.axis.ws), duo.gid, at)
        if machine.expected(game) is not None and not machine.in_progress(game):
            return at
    raise AssertionError("no position to branch from")


def invite(duo: Duo, at: int) -> tuple[str, Path]:
    p = duo.axis
    return branch.new_branch(p.ws, branch.store_source(p.ws), duo.gid, at, "axis-p", home=p.home)


def join(duo: Duo, path: Path) -> None:
    q = duo.allies
    base = branch.base_for_invitation(q.ws, path, None)
    games.join(q.ws, path, "allies-p", home=q.home, base=base)


def test_branch_starts_from_the_parent_position_for_both(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    at = branch_point(duo)
    parent_state = engine_link.api().state_hash(branch.replay(branch.store_source(duo.axis.ws), duo.gid, at).state)
    gid, path = invite(duo, at)
    assert gid != duo.gid
    genesis = turnfile.read(path)
    assert genesis.body["parent"]["seq"] == at and genesis.body["parent"]["state"] == parent_state
    sent = duo.out / path.name
    shutil.copy(path, sent)
    # The parent files travel with the invitation; allies hold the parent themselves.
    duo.axis.seen |= {path.name, f"{gid}{branch.PARENT_SUFFIX}"}
    join(duo, sent)
    child = Duo(duo.axis, duo.allies, gid, duo.out)
    for res in child.deliver("axis"):
        assert res.status == "applied", res.message
    for side in ("axis", "allies"):
        game = child.game(side)
        assert engine_link.api().state_hash(game.state) == parent_state and game.k == 0
    # The branch is played like any game, and the parent goes on untouched.
    child.play_until(lambda d: d.game("axis").seq >= 4)
    assert duo.game("axis").seq >= 8
    # An audit of a folder holding both games verifies the branch from its parent.
    folder = duo.out.parent / "audit"
    folder.mkdir()
    for g in (duo.gid, gid):
        lg = LocalGame(duo.axis.ws, g, duo.axis.home)
        for seq in range(lg.head() + 1):
            tf = lg.history_file(seq)
            assert tf is not None
            (folder / tf.name).write_bytes(tf.raw)
    reports = {r.game_id: r for r in audit.audit_dir(folder)}
    assert reports[gid].files == child.game("axis").seq + 1
    # Without the parent's files the branch cannot be verified.
    for f in folder.glob(f"{duo.gid}-*"):
        f.unlink()
    with pytest.raises(PbemError, match="files 0 to") as err:
        audit.audit_dir(folder)
    assert err.value.code == "branch"


def test_a_branch_whose_position_does_not_match_its_parent(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    at = branch_point(duo)
    _, path = invite(duo, at)
    good = turnfile.read(path)
    axis = duo.axis.ident()
    for field, value in (("state", os.urandom(32)), ("file", os.urandom(32)), ("seq", at - 1)):
        body = dict(good.body, parent=dict(good.body["parent"], **{field: value}))
        forged = duo.out / f"forged-{field}.pbem"
        forged.write_bytes(turnfile.seal(body, axis.sign).raw)
        with pytest.raises(PbemError) as err:
            join(duo, forged)
        assert err.value.code == "branch", str(err.value)
    assert not LocalGame.has_game(duo.allies.ws, good.game)


def test_a_join_whose_state_is_not_the_branch_position(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    gid, path = invite(duo, branch_point(duo))
    genesis = turnfile.read(path)
    body = {
        "v": 1,
        "type": "join",
        "game": gid,
        "seq": 1,
        "prev": genesis.hash,
        "side": "allies",
        "anchor": os.urandom(32),
        "chain": 16,
        "state": engine_link.api().state_hash(engine_link.api().new_game("tiny", {})),
    }
    forged = duo.out / "join.pbem"
    forged.write_bytes(turnfile.seal(body, duo.allies.ident().sign).raw)
    res = exchange.import_file(duo.axis.ws.root, forged, home=duo.axis.home)
    assert res.status == "rejected" and res.code == "state", res.message


def test_no_branch_from_a_half_done_commitment(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 3)
    source = branch.store_source(duo.axis.ws)
    halfway = [
        at for at in range(2, duo.game("axis").seq + 1) if machine.in_progress(branch.replay(source, duo.gid, at))
    ]
    assert halfway, "the game never had a commitment open after a file"
    with pytest.raises(PbemError, match="half done") as err:
        invite(duo, halfway[0])
    assert err.value.code == "branch"
    with pytest.raises(PbemError, match="files 0 to"):
        invite(duo, 10_000)


def test_a_player_without_the_parent_joins_from_the_files_mailed_with_the_invitation(duo: Duo, tmp_path: Path) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    at = branch_point(duo)
    home, ws = tmp_path / "home-new", Workspace(tmp_path / "ws-new")
    keys.keygen("newcomer", "new@example.org", directory=home)
    p = duo.axis
    newcomer = keys.read_public_key(home / "newcomer.pub")
    gid, path = branch.new_branch(p.ws, branch.store_source(p.ws), duo.gid, at, "axis-p", "axis", newcomer, p.home)
    carried = p.ws.outbox / f"{gid}{branch.PARENT_SUFFIX}"
    # Before the parent files arrive the start cannot be verified: no join.
    assert exchange.import_file(ws.root, path, home=home).status == "stored"
    with pytest.raises(PbemError, match="files 0 to") as err:
        branch.base_for_invitation(ws, ws.root / ws.invitation_rel(gid), None)
    assert err.value.code == "branch"
    # Parent files whose last file its own author re-signed with another outcome: refused
    # when the newcomer re-executes them, before any join.
    files = branch.unpack_parent_files(carried.read_bytes(), "test")[duo.gid]
    last = files[at]
    resigned = turnfile.seal(dict(last.body, state=os.urandom(32)), duo.player(last.side).ident().sign)
    forged = tmp_path / carried.name
    forged.write_bytes(branch.PARENT_MAGIC + b"".join(tf.raw for tf in [*files[:at], resigned]))
    assert exchange.import_file(ws.root, forged, home=home).status == "stored"
    with pytest.raises(PbemError) as err:
        branch.base_for_invitation(ws, ws.root / ws.invitation_rel(gid), None)
    assert err.value.code in ("state", "branch"), str(err.value)
    # The genuine parent files: the newcomer verifies the position and joins.
    res = exchange.import_file(ws.root, carried, home=home)
    assert res.status == "stored" and f"game {duo.gid} files 0 to {at}" in res.message, res.message
    assert exchange.import_file(ws.root, carried, home=home).status == "duplicate"
    base = branch.base_for_invitation(ws, ws.root / ws.invitation_rel(gid), None)
    _, answer = games.join(ws, ws.root / ws.invitation_rel(gid), "newcomer", home=home, base=base)
    assert exchange.import_file(p.ws.root, answer, home=p.home).status == "applied"
    assert LocalGame(p.ws, gid, p.home).game() is not None
    # Damaged parent files are refused at the import, with one line.
    damaged = tmp_path / "damaged" / carried.name
    damaged.parent.mkdir()
    damaged.write_bytes(carried.read_bytes()[:-1])
    res = exchange.import_file(ws.root, damaged, home=home)
    assert res.status == "rejected" and "damaged" in res.message, res.message
