"""Recorded games replay to the same bytes.

The records under ``tests/data/records`` were written by ``pbem selfplay`` before the
engine's representation was refactored.  Every turn file carries the hash of the state
it leaves behind, so auditing a record re-executes every order, roll and reveal with
today's engine and compares each resulting state hash with the one recorded: any change
to the canonical bytes of the state, or to what an order does, fails here.  A change
that truly needs other bytes must bump ``ENGINE_VERSION`` and record new games.  A new
rule that asks a player a new question (interception asks the side that did not move)
changes the course of a recorded game without changing any state's bytes: the 1939
record was made again then.  Engine 0.2.0 (docs/design.md, "Engine versions") changed
what orders do and the scenarios' digest: every record was made again under it
(``pbem selfplay --scenario 1939 --until 1940-02 --seed 7`` and ``--scenario 1937
--until 1937-10 --seed 3``).  Engine 0.3.0 (China's hexes, major ports, captured
airfields) refuses orders of those games: they were made again under it with the same
commands.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.play import audit

RECORDS = Path(__file__).resolve().parent / "data" / "records"


@pytest.mark.parametrize(
    ("name", "files", "rolls", "commitments"),
    [("1939-seed7", 130, 29, 15), ("1937-seed3", 75, 17, 12)],
)
def test_recorded_game_replays_with_identical_state_hashes(
    name: str, files: int, rolls: int, commitments: int | None
) -> None:
    [report] = audit.audit_dir(RECORDS / name)
    assert report.files == files
    assert report.rolls == rolls
    if commitments is not None:
        assert report.commitments == commitments


def test_a_changed_state_hash_is_caught(tmp_path: Path) -> None:
    """The guard can fail: a record whose last file is cut off is refused, naming the file."""
    source = RECORDS / "1937-seed3"
    for path in sorted(source.iterdir()):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    last = sorted(tmp_path.iterdir())[-1]
    data = bytearray(last.read_bytes())
    data[len(data) // 2] ^= 0x01
    last.write_bytes(bytes(data))
    with pytest.raises(Exception, match=last.name.split("-")[1]):
        audit.audit_dir(tmp_path)
