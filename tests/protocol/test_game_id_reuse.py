"""A reused game id must not reopen a player's secrets (docs/turn-file-format.md, 2.5).

The attack: a creator who has played game X with a joiner invites it again under the id
X.  Had the joiner's salts and dice secret been derived from the id alone, its hidden
lists could be opened from the salts revealed in the first game and its dice values
would be known in advance.  They are bound to the genesis file, and a workspace refuses a
second invitation with an id it has seen.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import exchange, games
from pbem.protocol import dice, gamesecrets, turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo


def _second_invitation(duo: Duo, tmp_path: Path, chain_length: int = 300) -> Path:
    """The axis player invites the same opponent again under the same game id (from a new
    workspace, so its own store does not stop it); only the chain length differs."""
    ws = Workspace(tmp_path / "axis-again")
    pub = keys.read_public_key(duo.allies.home / "allies-p.pub")
    _, path = games.new_game(
        ws, "tiny", "axis", "axis-p", pub, home=duo.axis.home, gid=duo.gid, chain_length=chain_length
    )
    return path


def test_a_reused_game_id_gives_the_joiner_fresh_secrets(duo: Duo, tmp_path: Path) -> None:
    first = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    invite = _second_invitation(duo, tmp_path)
    # The joiner keeps its workspaces apart: a second one joins the second invitation.
    again_ws = Workspace(tmp_path / "allies-again")
    games.join(again_ws, invite, "allies-p", home=duo.allies.home)
    second = LocalGame(again_ws, duo.gid, duo.allies.home)
    join1, join2 = first.history_file(1), second.history_file(1)
    assert join1 is not None and join2 is not None
    assert join1.body["anchor"] != join2.body["anchor"]
    assert first.derived().dice() != second.derived().dice()
    assert {first.derived().salt(seq) for seq in range(2, 40)}.isdisjoint(
        {second.derived().salt(seq) for seq in range(2, 40)}
    )
    assert first.derived().bot_seed(3, 0) != second.derived().bot_seed(3, 0)


def test_a_forged_anchor_alone_changes_the_joiners_secrets(duo: Duo, tmp_path: Path) -> None:
    """A hostile creator keeping every field but its own anchor still gets other secrets."""
    genesis = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).genesis()
    forged = turnfile.seal(dict(genesis.body, anchor=bytes(32)), duo.axis.ident().sign)
    path = tmp_path / "forged.pbem"
    path.write_bytes(forged.raw)
    again_ws = Workspace(tmp_path / "allies-again")
    games.join(again_ws, path, "allies-p", home=duo.allies.home)
    first = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    assert LocalGame(again_ws, duo.gid, duo.allies.home).derived().dice() != first.derived().dice()


def test_the_creators_secrets_are_bound_to_its_invitation(duo: Duo, tmp_path: Path) -> None:
    """Same id and keys, another invitation: other creator secrets; and each side's dice
    secret gives back the anchor it pinned."""
    ws = Workspace(tmp_path / "axis-again")
    keys.keygen("carol", directory=tmp_path / "carol")
    carol = keys.read_public_key(tmp_path / "carol" / "carol.pub")
    games.new_game(ws, "tiny", "axis", "axis-p", carol, home=duo.axis.home, gid=duo.gid)
    mine = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    other = LocalGame(ws, duo.gid, duo.axis.home)
    assert mine.genesis().body["anchor"] != other.genesis().body["anchor"]
    assert mine.derived().salt(2) != other.derived().salt(2)
    for side, lg in (("axis", mine), ("allies", LocalGame(duo.allies.ws, duo.gid, duo.allies.home))):
        pinned = lg.genesis() if side == "axis" else lg.history_file(1)
        assert pinned is not None
        assert dice.anchor(lg.derived().dice(), pinned.body["chain"]) == pinned.body["anchor"]


def test_a_workspace_refuses_a_second_invitation_with_a_seen_id(duo: Duo, tmp_path: Path) -> None:
    invite = _second_invitation(duo, tmp_path)
    inbox = duo.allies.ws.inbox
    inbox.mkdir(parents=True, exist_ok=True)
    (inbox / invite.name).write_bytes(invite.read_bytes())
    res = exchange.import_file(duo.allies.ws.root, inbox / invite.name, home=duo.allies.home)
    assert res.status == "rejected" and res.code == "game-id", res.message
    assert "\n" not in res.message and f"game id {duo.gid}" in res.message
    # Signed by the key of the invitation held: the creator's equivocation, kept with the first.
    lg = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    evidence = duo.allies.ws.root / lg.paths.evidence()
    kept = sorted(p.read_bytes() for p in evidence.iterdir())
    assert kept == sorted([lg.genesis().raw, invite.read_bytes()]), res.message
    assert "evidence" in res.message and lg.meta["disputes"] == ["file 0: axis signed two different versions"]
    with pytest.raises(PbemError, match="already joined"):
        games.join(duo.allies.ws, invite, "allies-p", home=duo.allies.home)


def test_a_kept_invitation_is_not_replaced_by_another_with_its_id(duo: Duo, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "allies-fresh")
    first = _second_invitation(duo, tmp_path, chain_length=300)
    second = _second_invitation(duo, tmp_path / "b", chain_length=301)
    assert exchange.import_file(ws.root, first, home=duo.allies.home).status == "stored"
    res = exchange.import_file(ws.root, second, home=duo.allies.home)
    assert res.status == "rejected" and res.code == "game-id", res.message
    assert (ws.root / ws.invitation_rel(duo.gid)).read_bytes() == first.read_bytes()
    with pytest.raises(PbemError, match=f"game id {duo.gid} was already received") as err:
        games.join(ws, second, "allies-p", home=duo.allies.home)
    assert err.value.code == "game-id"
    games.join(ws, first, "allies-p", home=duo.allies.home)


def test_a_creator_cannot_reuse_an_id_it_holds(duo: Duo) -> None:
    pub = keys.read_public_key(duo.allies.home / "allies-p.pub")
    with pytest.raises(PbemError, match="already exists"):
        games.new_game(duo.axis.ws, "tiny", "axis", "axis-p", pub, home=duo.axis.home, gid=duo.gid)


def test_games_begun_before_the_genesis_binding_keep_their_derivation(duo: Duo) -> None:
    """A game whose record names no derivation was started with the id-bound one: its
    anchors were made so, and its secrets must stay so."""
    lg = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    assert lg.meta["derivation"] == gamesecrets.CURRENT
    meta = lg.ws.game_dir(duo.gid) / "meta.json"
    old = {k: v for k, v in json.loads(meta.read_text()).items() if k != "derivation"}
    meta.write_text(json.dumps(old))
    older = LocalGame(duo.allies.ws, duo.gid, duo.allies.home).derived()
    ident = duo.allies.ident()
    assert older.dice() == ident.derive("pbem/dice-secret/v1", duo.gid.encode())
    assert older.salt(4) == ident.derive("pbem/commit-salt/v1", f"{duo.gid}/4".encode())
