"""Attacks on the bot's hidden lists, with the real engine and real files (issue 27).

Both players of a 1939 game are the computer player of `pbem bot play`; the Allies
commit their first deployment (some 230 orders) first.  An outsider who knows the bot
and every public seed of the engine and of pbem cannot rebuild that list from the
public position, and a branch made while the list is still hidden, joined by the
Allies through the bot mailbox's join, makes its own draw there instead of showing it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.mail import botplayer
from pbem.play import branch, exchange
from pbem.protocol import deadlines, engine_link, machine, turnfile
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo, make_duo

PLACING = ("place", "place_land")


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def placements(wires: list[Any]) -> Counter[tuple[Any, ...]]:
    return Counter(tuple(w) for w in wires if w[0] in PLACING)


def shared(a: list[Any], b: list[Any]) -> float:
    """The share of placements two deployment lists have in common."""
    pa, pb = placements(a), placements(b)
    return sum((pa & pb).values()) / max(sum(pa.values()), sum(pb.values()))


def files_of(out: Path, gid: str) -> list[TurnFile]:
    return [turnfile.read(p) for p in sorted(out.glob(f"{gid}-*-*.pbem")) if not p.name.endswith(branch.PARENT_SUFFIX)]


def deployment_list(out: Path, gid: str, side: str) -> list[Any] | None:
    """``side``'s first list that places units, as its files show it (revealed or clear)."""
    for tf in files_of(out, gid):
        for rec in tf.body.get("records", []) if tf.side == side else []:
            if rec[0] in ("reveal", "sim") and placements(rec[1]):
                return list(rec[1])
    return None


def allies_committed_deployment(d: Duo) -> bool:
    g = d.game("axis")
    exp = machine.expected(g)
    phase = engine_link.api().decision(g.state).phase
    return phase == "deployment" and exp is not None and (exp.side, exp.kind) == ("axis", "sim")


def last_branch_point(source: branch.Source, gid: str, before: int) -> int:
    """The last file before ``before`` after which a branch may start."""
    for at in range(before - 1, 0, -1):
        game = branch.replay(source, gid, at)
        if machine.expected(game) is not None and not machine.in_progress(game):
            return at
    raise AssertionError("no position to branch from")


@dataclass
class Story:
    gid: str
    files: list[TurnFile]  # the parent's files up to the Allies' commitment
    position: bytes  # the public position the Allies committed their deployment at
    committed: list[Any]  # their list, revealed later
    branch_gid: str
    branch_list: list[Any]  # what the Allies played in the branch
    bound: tuple[bytes | None, bytes | None]  # their secrets' binding: parent, branch


@pytest.fixture(scope="module")
def story(tmp_path_factory: pytest.TempPathFactory) -> Story:
    engine_link.use(None)
    api = engine_link.api()
    duo = make_duo(tmp_path_factory.mktemp("parent"), "1939")
    duo.play_until(allies_committed_deployment, limit=20)
    game = duo.game("axis")
    assert machine.in_progress(game)
    position, files = api.serialize(game.state), files_of(duo.out, duo.gid)

    # The Axis branches at the last position before the commitment and invites the Allies'
    # key again; the Allies join as the bot mailbox does, from the invitation it kept.
    source = branch.store_source(duo.axis.ws)
    at = last_branch_point(source, duo.gid, game.seq)
    bgid, _ = branch.new_branch(duo.axis.ws, source, duo.gid, at, "axis-p", home=duo.axis.home)
    for path in sorted(duo.axis.ws.outbox.glob(f"{bgid}-*")):
        assert exchange.import_file(duo.allies.ws.root, path, home=duo.allies.home).ok
        duo.axis.seen.add(path.name)
    assert botplayer.accept(duo.allies.ws.root, bgid, "allies-p", duo.allies.home)
    bout = tmp_path_factory.mktemp("branch")
    bduo = Duo(duo.axis, duo.allies, bgid, bout)
    for res in bduo.deliver("axis"):
        assert res.status == "applied", res.message
    bduo.play_until(lambda d: deployment_list(bout, bgid, "allies") is not None, limit=40)
    branch_list = deployment_list(bout, bgid, "allies")

    # The parent goes on: the Allies reveal what they committed.
    duo.play_until(lambda d: deployment_list(duo.out, duo.gid, "allies") is not None, limit=4)
    committed = deployment_list(duo.out, duo.gid, "allies")
    assert committed is not None and branch_list is not None
    bound = tuple(LocalGame(duo.allies.ws, g, duo.allies.home).derived().bound for g in (duo.gid, bgid))
    return Story(duo.gid, files, position, committed, bgid, branch_list, (bound[0], bound[1]))


def public_seeds(story: Story) -> dict[str, bytes]:
    """Every seed an outsider could try: the engine's and pbem's public seeds of this
    position (the silent side's bot of a claim, the arena and memory games),
    constants, the game id, and the hashes of every file and of the position."""
    api = engine_link.api()
    gid, seq = story.gid, len(story.files)
    seeds = {"zeros": bytes(32), "ones": b"\x01" * 32, "empty": b"", "id": gid.encode(), "id bytes": bytes.fromhex(gid)}
    seeds["id hash"] = hashlib.sha256(gid.encode()).digest()
    seeds["position"] = api.state_hash(api.deserialize(story.position))
    for tf in story.files:
        seeds[f"hash of file {tf.seq}"] = tf.hash
    # The claim bot's seed takes the claimant's next chain value: try every value shown so far.
    shown = [tf.body["anchor"] for tf in story.files if "anchor" in tf.body]
    shown += [r[2] for tf in story.files for r in tf.body.get("records", []) if r[0] == "dice"]
    for n in range(seq + 2):
        for i in range(3):
            for k, value in enumerate(shown):
                seeds[f"claim bot {n}/{i}/{k}"] = deadlines.bot_seed(gid, n, i, value)
    for k in range(3):
        arena = hashlib.sha256(b"pbem/arena/v1\0" + str(k).encode()).digest()
        seeds[f"arena {k}"] = hashlib.sha256(arena + b"ai" + b"allies" + str(3).encode()).digest()
        seeds[f"memory game {k}"] = hashlib.sha256(f"pbem/memplay/v1/{k}/bot/allies/{seq}/0".encode()).digest()
    return seeds


def test_no_public_seed_rebuilds_the_committed_deployment(real_engine: None, story: Story) -> None:
    api, ai = engine_link.api(), engine_link.ai()
    position = api.deserialize(story.position)
    assert sum(placements(story.committed).values()) >= 150
    closest = 0.0
    for name, seed in public_seeds(story).items():
        guess = [a.to_wire() for a in ai.decide(position, "allies", seed)]
        assert placements(guess), name
        closest = max(closest, shared(guess, story.committed))
    # Not one guess comes near: each puts at least a fifth of the units elsewhere.
    assert closest <= 0.8


def test_a_branch_made_while_the_list_is_hidden_gets_a_fresh_draw(real_engine: None, story: Story) -> None:
    parent_bound, branch_bound = story.bound
    assert parent_bound is not None and branch_bound is not None and parent_bound != branch_bound
    assert sum(placements(story.branch_list).values()) >= 150
    assert shared(story.branch_list, story.committed) <= 0.8
