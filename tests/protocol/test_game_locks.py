"""A lock per game: steps of two games of one workspace run at the same time, steps of one
game one after the other, workspace-wide work waits for them all (and they for it), and a
game's interrupted commit is rolled forward.  The locks are flocks, so every test holds
them in processes of their own."""

from __future__ import annotations

import multiprocessing
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.play import exchange, games, status, turn
from pbem.protocol import turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo
from tests.protocol.test_crash import assert_imports_again, cli, tree

CTX = multiprocessing.get_context("fork")
#: How long a step that must wait is watched not to finish (it takes milliseconds when free).
WAITS = 1.0


def _second_game(duo: Duo) -> str:
    """A second game between the duo's players, in the same two workspaces, joined."""
    pub = keys.read_public_key(duo.allies.home / "allies-p.pub")
    gid, _ = games.new_game(duo.axis.ws, "tiny", "axis", "axis-p", pub, home=duo.axis.home)
    (invite,) = [f for f in duo.outbox("axis") if f.name.startswith(gid)]
    games.join(duo.allies.ws, invite, "allies-p", home=duo.allies.home)
    for res in duo.deliver("axis"):
        assert res.status == "applied", res.message
    return gid


def _moves(duo: Duo, gid: str) -> tuple[str, Path]:
    """The side to move in ``gid`` plays (bot); returns the receiving side and the file."""
    side = duo.to_move()
    assert side is not None
    me = duo.player(side)
    turn.bot_play(me.ws, gid, home=me.home)
    (made,) = [f for f in duo.outbox(side) if f.name.startswith(gid)]
    return turnfile.other(side), made


@pytest.fixture
def two(duo: Duo) -> tuple[Duo, str, Path, Path]:
    """The duo with a second game, and one file of each game for the same receiver (whose
    workspace the tests lock): (duo, receiver, file of game A, file of game B)."""
    b = _second_game(duo)
    receiver, file_a = _moves(duo, duo.gid)
    again, file_b = _moves(duo, b)
    assert again == receiver
    return duo, receiver, file_a, file_b


def _hold(root: Path, gid: str | None, held: Event, release: Event) -> None:
    ws = Workspace(root)
    with ws.game_locked(gid) if gid else ws.locked():
        held.set()
        release.wait(60)


@contextmanager
def holding(root: Path, gid: str | None) -> Iterator[Event]:
    """Another process holds game ``gid``'s lock (the workspace's, exclusively, for None)
    until the event yielded is set."""
    held, release = CTX.Event(), CTX.Event()
    proc = CTX.Process(target=_hold, args=(root, gid, held, release))
    proc.start()
    try:
        assert held.wait(30), "the holder never got the lock"
        yield release
    finally:
        release.set()
        proc.join(30)
        assert proc.exitcode == 0


def _import(root: Path, path: Path, home: Path, out: Any) -> None:
    out.put(exchange.import_file(root, path, home=home).status)


def _status(root: Path, out: Any) -> None:
    out.put(status.lines(Workspace(root)))


def started(target: Any, *args: Any) -> tuple[Any, Any]:
    out = CTX.Queue()
    proc = CTX.Process(target=target, args=(*args, out))
    proc.start()
    return proc, out


def finished(proc: Any, out: Any, timeout: float = 60) -> Any:
    got = out.get(timeout=timeout)
    proc.join(timeout)
    assert proc.exitcode == 0
    return got


def test_a_step_of_another_game_runs_while_a_game_is_locked(two: tuple[Duo, str, Path, Path]) -> None:
    duo, receiver, file_a, file_b = two
    p = duo.player(receiver)
    gid_b = turnfile.read(file_b).game
    head_b = LocalGame(p.ws, gid_b, p.home).head()
    with holding(p.ws.root, duo.gid):
        proc, out = started(_import, p.ws.root, file_b, p.home)
        assert finished(proc, out, timeout=30) == "applied"
        assert LocalGame(p.ws, gid_b, p.home).head() == head_b + 1
        # ... while game A's own file waits for its lock.
        proc, out = started(_import, p.ws.root, file_a, p.home)
        proc.join(WAITS)
        assert proc.is_alive(), "a step of a locked game did not wait"
        assert LocalGame(p.ws, duo.gid, p.home).head() == head_b  # both games were at the same place
    assert finished(proc, out) == "applied"
    assert LocalGame(p.ws, duo.gid, p.home).head() == head_b + 1


def test_steps_of_one_game_take_turns(two: tuple[Duo, str, Path, Path]) -> None:
    duo, receiver, file_a, _ = two
    p = duo.player(receiver)
    head = LocalGame(p.ws, duo.gid, p.home).head()
    with holding(p.ws.root, duo.gid) as release:
        first, out1 = started(_import, p.ws.root, file_a, p.home)
        second, out2 = started(_import, p.ws.root, file_a, p.home)
        time.sleep(WAITS)
        assert first.is_alive() and second.is_alive()
        release.set()
    # Had the two overlapped, both would have applied the file (or one failed midway).
    assert sorted([finished(first, out1), finished(second, out2)]) == ["applied", "duplicate"]
    assert LocalGame(p.ws, duo.gid, p.home).head() == head + 1


def test_workspace_wide_work_waits_for_a_game_step(two: tuple[Duo, str, Path, Path]) -> None:
    duo, receiver, _, _ = two
    p = duo.player(receiver)
    with holding(p.ws.root, duo.gid):
        proc, out = started(_status, p.ws.root)
        proc.join(WAITS)
        assert proc.is_alive(), "the status of every game did not wait for a game's step"
    assert len(finished(proc, out)) == 2


def test_a_game_step_waits_for_workspace_wide_work(two: tuple[Duo, str, Path, Path]) -> None:
    duo, receiver, _, file_b = two
    p = duo.player(receiver)
    with holding(p.ws.root, None):
        proc, out = started(_import, p.ws.root, file_b, p.home)
        proc.join(WAITS)
        assert proc.is_alive(), "a game's step did not wait for the exclusive lock"
    assert finished(proc, out) == "applied"


def _churn(root: Path, gid: str, stop: Event) -> None:
    ws = Workspace(root)
    while not stop.is_set():
        with ws.game_locked(gid):
            time.sleep(0.05)


def test_workspace_wide_work_is_not_kept_waiting_by_a_stream_of_game_steps(two: tuple[Duo, str, Path, Path]) -> None:
    """Two processes per game take its lock one after the other without a pause, so some
    game's step always holds the workspace lock shared (one waiting for its game's lock
    holds it too); the exclusive lock still comes in turn."""
    duo, receiver, _, file_b = two
    p = duo.player(receiver)
    gid_b = turnfile.read(file_b).game
    stop = CTX.Event()
    churners = [CTX.Process(target=_churn, args=(p.ws.root, g, stop)) for g in (duo.gid, gid_b) * 2]
    for c in churners:
        c.start()
    try:
        time.sleep(0.3)
        proc, out = started(_status, p.ws.root)
        assert len(finished(proc, out, timeout=20)) == 2
    finally:
        stop.set()
        for c in churners:
            c.join(30)
    assert [c.exitcode for c in churners] == [0, 0, 0, 0]


def test_lock_nesting_in_one_thread(duo: Duo, tmp_path: Path) -> None:
    ws = duo.allies.ws
    with ws.locked(), ws.game_locked(duo.gid), ws.game_locked(duo.gid):
        pass  # a game's step inside workspace-wide work needs nothing more
    # A shared flock cannot become exclusive without letting go of it.
    with ws.game_locked(duo.gid), pytest.raises(PbemError, match="internal error"), ws.locked():
        pass
    b = _second_game(duo)
    # Two games' locks, taken in either order, could deadlock.
    with ws.game_locked(duo.gid), pytest.raises(PbemError, match="internal error"), ws.game_locked(b):
        pass
    with pytest.raises(PbemError, match="no game"), ws.game_locked("0123456789ab"):
        pass
    assert not (ws.store / "games" / "0123456789ab").exists()


def test_game_locks_between_threads_of_one_process(duo: Duo) -> None:
    """The play server's threads: another thread waits for the game a thread holds, not
    for another game."""
    ws = duo.allies.ws
    b = _second_game(duo)
    got: list[str] = []

    def step(gid: str) -> None:
        with Workspace(ws.root).game_locked(gid):
            got.append(gid)

    with ws.game_locked(duo.gid), ws.game_locked(duo.gid):  # the same thread again: no deadlock
        same = threading.Thread(target=step, args=(duo.gid,))
        same.start()
        other = threading.Thread(target=step, args=(b,))
        other.start()
        other.join(10)
        same.join(0.5)
        assert got == [b] and same.is_alive()
        got.append("first")
    same.join(10)
    assert got == [b, "first", duo.gid]


def test_a_game_step_refuses_to_write_outside_its_game(duo: Duo) -> None:
    ws = duo.allies.ws
    tx = exchange.Transaction()
    tx.put(ws.rejected_rel("x.pbem"), b"x")
    with ws.game_locked(duo.gid), pytest.raises(PbemError, match="internal error"):
        ws.commit(tx)
    assert not (ws.root / ws.rejected_rel("x.pbem")).exists()


def test_a_refused_file_of_a_game_is_set_aside(two: tuple[Duo, str, Path, Path]) -> None:
    """The refusal is found under the game's lock, the file set aside under the workspace's."""
    duo, receiver, file_a, _ = two
    p = duo.player(receiver)
    bad = p.ws.inbox / file_a.name
    bad.parent.mkdir(exist_ok=True)
    data = bytearray(file_a.read_bytes())
    data[-5] ^= 0x40  # the file still reads as one of game A, but its signature fails
    bad.write_bytes(bytes(data))
    res = exchange.import_file(p.ws.root, bad, home=p.home)
    assert res.status == "rejected" and res.code == "signature", res.message
    assert not bad.exists()
    assert (p.ws.root / p.ws.rejected_rel(bad.name)).read_bytes() == bytes(data)


def test_kill_at_every_step_of_a_game_import(two: tuple[Duo, str, Path, Path], tmp_path: Path) -> None:
    """A game's import killed at any step leaves its journal, if any, to that game: another
    game's step goes on beside it, and the game's next step, or the workspace's, rolls it
    forward; a file fetched again meanwhile is found applied."""
    duo, receiver, file_a, file_b = two
    p = duo.player(receiver)
    ref = tmp_path / "reference"
    shutil.copytree(p.ws.root, ref)
    for f in (file_a, file_b):
        done = cli(["import", str(f), "--workspace", str(ref)], p.home)
        assert done.returncode == 0, done.stderr
    expected = tree(ref)
    journal = Path(".pbem", "games", duo.gid, "journal")
    k, journals = 1, 0
    while True:
        ws = tmp_path / f"try{k}"
        shutil.copytree(p.ws.root, ws)
        (ws / "inbox").mkdir(exist_ok=True)
        shutil.copy(file_a, ws / "inbox" / file_a.name)
        run = cli(["import", "--workspace", str(ws)], p.home, crash_at=k)
        if run.returncode == 0:
            break
        assert run.returncode == 86, run.stderr
        assert not (ws / ".pbem" / "journal").exists(), "a game's step wrote the workspace journal"
        left = (ws / journal).exists()
        # Another game's step goes on, and leaves this game's journal alone.
        other = cli(["import", str(file_b), "--workspace", str(ws)], p.home)
        assert other.returncode == 0 and other.stdout.startswith("applied"), other.stdout + other.stderr
        assert (ws / journal).exists() == left
        if left:
            journals += 1
            # The game's next step rolls it forward: here the mail fetched again, found applied.
            step = tmp_path / f"step{k}"
            shutil.copytree(ws, step)
            shutil.copy(file_a, step / "inbox" / file_a.name)
            got = cli(["import", str(step / "inbox" / file_a.name), "--workspace", str(step)], p.home)
            assert got.returncode == 0 and "already applied" in got.stdout, got.stdout + got.stderr
            assert tree(step) == expected, f"crash at step {k} then the game's next step left a different store"
            # The workspace-wide status rolls it forward too.
            assert cli(["status", "--workspace", str(ws)], p.home).returncode == 0
            assert not (ws / journal).exists()
        assert_imports_again(ws, file_a, p.home, expected, k)
        k += 1
    assert journals >= 5, "the commit should leave its journal at many steps"


def test_a_game_step_rolls_an_interrupted_workspace_commit_forward_first(duo: Duo, tmp_path: Path) -> None:
    """A workspace-wide commit killed midway may touch any game: a game's step finishes it
    (under the exclusive lock) before taking its own."""
    p = duo.allies
    archive = ["archive", duo.gid, "--workspace"]
    ref = tmp_path / "reference"
    shutil.copytree(p.ws.root, ref)
    done = cli([*archive, str(ref)], p.home)
    assert done.returncode == 0, done.stderr
    for k in range(1, 40):
        ws = tmp_path / f"try{k}"
        shutil.copytree(p.ws.root, ws)
        run = cli([*archive, str(ws)], p.home, crash_at=k)
        assert run.returncode == 86, "the archiving's commit left no journal at any step"
        if (ws / ".pbem" / "journal").exists():
            break
    st = cli(["status", duo.gid, "--workspace", str(ws)], p.home)  # a game's step
    assert st.returncode == 0, st.stderr
    assert st.stdout.startswith("[archived]"), st.stdout
    assert not (ws / ".pbem" / "journal").exists()
    assert tree(ws) == tree(ref)
