"""A flood of refused files cannot fill the disk: ``.pbem/rejected/`` is capped."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from pbem.play import exchange
from pbem.store import store
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo


def _flood(ws: Workspace, names: list[str], size: int = 100) -> list[exchange.ImportResult]:
    ws.inbox.mkdir(parents=True, exist_ok=True)
    results = []
    for i, name in enumerate(names):
        path = ws.inbox / name
        path.write_bytes(b"not a turn file " + bytes([i % 256]) * size)
        results.append(exchange.import_file(ws.root, path))
    return results


def _kept(ws: Workspace) -> list[str]:
    return sorted(p.name for p in (ws.store / "rejected").iterdir())


def test_rejected_files_are_capped_in_number_oldest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(store, "MAX_REJECTED", 5)
    ws = Workspace(tmp_path / "ws")
    first = _flood(ws, [f"a{i:02d}.pbem" for i in range(5)])
    assert all(r.status == "rejected" for r in first) and _kept(ws) == [f"a{i:02d}.pbem" for i in range(5)]
    # Make the order plain to the file system: a00 is the oldest.
    for i, name in enumerate(_kept(ws)):
        os.utime(ws.store / "rejected" / name, (1_000_000 + i, 1_000_000 + i))
    with caplog.at_level(logging.WARNING, logger="pbem"):
        _flood(ws, ["b00.pbem", "b01.pbem"])
    assert _kept(ws) == ["a02.pbem", "a03.pbem", "a04.pbem", "b00.pbem", "b01.pbem"]
    lines = [r.getMessage() for r in caplog.records if r.name == "pbem"]
    assert len(lines) == 2 and "a00.pbem" in lines[0] and "a01.pbem" in lines[1]
    assert all("\n" not in ln and ".pbem/rejected" in ln and "oldest" in ln for ln in lines)


def test_rejected_files_are_capped_in_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_REJECTED_BYTES", 1000)
    ws = Workspace(tmp_path / "ws")
    _flood(ws, [f"f{i:02d}.pbem" for i in range(12)], size=300)
    total = sum(p.stat().st_size for p in (ws.store / "rejected").iterdir())
    assert total <= 1000 and _kept(ws)[-1] == "f11.pbem" and len(_kept(ws)) == 3


def test_the_default_caps_hold_a_flood(duo: Duo, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the real limits, more refused files than the cap leave exactly the cap behind,
    and the game itself is untouched."""
    ws = duo.allies.ws
    before = duo.snapshot("allies")
    _flood(ws, [f"x{i:04d}.pbem" for i in range(store.MAX_REJECTED + 30)], size=10)
    assert len(_kept(ws)) == store.MAX_REJECTED
    assert "x0000.pbem" not in _kept(ws) and f"x{store.MAX_REJECTED + 29:04d}.pbem" in _kept(ws)
    assert duo.snapshot("allies") == before


def test_refused_files_of_one_name_are_all_kept_and_the_same_file_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Later garbage under a forgery's name must not wipe out the forgery: every refused file
    is kept under a name of its own, within the same cap."""
    monkeypatch.setattr(store, "MAX_REJECTED", 4)
    ws = Workspace(tmp_path / "ws")
    ws.inbox.mkdir(parents=True)
    contents = [b"a signed forgery", b"later garbage", b"a signed forgery", b"third", b"fourth", b"fifth"]
    for i, data in enumerate(contents):
        before = set(_kept(ws)) if (ws.store / "rejected").is_dir() else set()
        path = ws.inbox / "0123456789ab-00007-axis.pbem"
        path.write_bytes(data)
        assert exchange.import_file(ws.root, path).status == "rejected"
        for new in set(_kept(ws)) - before:  # make the order plain to the file system
            os.utime(ws.store / "rejected" / new, (1_000_000 + i, 1_000_000 + i))
        if data == b"later garbage":
            kept = {p.read_bytes() for p in (ws.store / "rejected").iterdir()}
            assert kept == {b"a signed forgery", b"later garbage"}
    names = _kept(ws)
    assert len(names) == 4 and len(set(names)) == 4
    assert all(n.startswith("0123456789ab-00007-axis") and n.endswith(".pbem") for n in names)
    assert {p.read_bytes() for p in (ws.store / "rejected").iterdir()} == {
        b"later garbage",
        b"third",
        b"fourth",
        b"fifth",
    }
