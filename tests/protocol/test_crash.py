"""Atomic import: a process killed at any step leaves the game intact and the file importable."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from pbem.play import turn
from pbem.protocol import turnfile
from tests.protocol import forked_cli
from tests.protocol.conftest import Duo

RUN = Path(__file__).with_name("run_cli.py")


def cli(
    args: list[str], home: Path, crash_at: int | None = None, fresh: bool = False
) -> subprocess.CompletedProcess[str]:
    """``pbem ARGS`` in a process of its own: a forked child of this one (quick), or with
    ``fresh`` a new interpreter."""
    env = dict(os.environ, PBEM_HOME=str(home))
    env.pop("PBEM_CRASH_AT", None)
    if crash_at is not None:
        env["PBEM_CRASH_AT"] = str(crash_at)
    if not fresh:
        return forked_cli.run(args, env)
    return subprocess.run(
        [sys.executable, str(RUN), *args], env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != "lock"
    }


def assert_imports_again(ws: Path, incoming: Path, home: Path, expected: dict[str, bytes], k: int) -> None:
    """After a kill at step ``k``, ``incoming`` (still in the inbox, or already applied)
    imports cleanly and leaves the store the uninterrupted import left."""
    again = cli(["import", str(incoming), "--workspace", str(ws)], home)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(("applied", f"{incoming.name} was already applied"))
    after = tree(ws)
    after.pop(f"inbox/{incoming.name}", None)
    assert after == expected, f"crash at step {k} left a different store"


def test_kill_at_every_step_of_an_import(duo: Duo, tmp_path: Path) -> None:
    # Axis moves; its file triggers a roll, so the allied import also writes an automatic answer.
    duo.play_until(lambda d: d.to_move() == "axis" and d.game("axis").k == 0 and d.game("axis").seq > 3)
    turn.bot_play(duo.axis.ws, duo.gid, home=duo.axis.home)
    (incoming,) = duo.outbox("axis")
    assert turnfile.read(incoming).side == "axis"

    ref = tmp_path / "reference"
    shutil.copytree(duo.allies.ws.root, ref)
    done = cli(["import", str(incoming), "--workspace", str(ref)], duo.allies.home, fresh=True)
    assert done.returncode == 0, done.stderr
    expected = tree(ref)
    assert any(k.startswith("outbox/") and "allies" in k for k in set(expected) - set(tree(duo.allies.ws.root)))

    k, crashes, refetched = 1, 0, 0
    while True:
        ws = tmp_path / f"try{k}"
        shutil.copytree(duo.allies.ws.root, ws)
        inbox_copy = ws / "inbox" / incoming.name
        inbox_copy.parent.mkdir(exist_ok=True)
        shutil.copy(incoming, inbox_copy)
        run = cli(["import", "--workspace", str(ws)], duo.allies.home, crash_at=k)
        if run.returncode == 0:
            break
        assert run.returncode == 86, run.stderr
        crashes += 1
        if (ws / ".pbem" / "games" / duo.gid / "journal").exists():  # an import commits under the game's lock
            refetched += 1
            # The mail daemon's case: killed mid-commit, it fetches the same mail again and
            # saves the file to the inbox before the journal is rolled forward, which
            # consumes it.  The file is then applied already: not refused, not lost.
            refetch = tmp_path / f"refetch{k}"
            shutil.copytree(ws, refetch)
            shutil.copy(incoming, refetch / "inbox" / incoming.name)
            got = cli(["import", str(refetch / "inbox" / incoming.name), "--workspace", str(refetch)], duo.allies.home)
            assert got.returncode == 0, got.stderr
            assert "already applied" in got.stdout, got.stdout
            after_refetch = tree(refetch)
            after_refetch.pop(f"inbox/{incoming.name}", None)
            assert after_refetch == expected, f"crash at step {k} then a re-fetch left a different store"
        # Whatever the moment of death, the next command sees a whole game ...
        st = cli(["status", duo.gid, "--workspace", str(ws)], duo.allies.home)
        assert st.returncode == 0, st.stderr
        # ... and the file, still in the inbox (or already applied), imports cleanly.
        assert_imports_again(ws, incoming, duo.allies.home, expected, k)
        k += 1
    print(f"killed at {crashes} different steps")
    assert crashes >= 8, "the commit should have many steps to kill"
    assert refetched >= 1, "some kill should fall while the game's journal is on disk"
