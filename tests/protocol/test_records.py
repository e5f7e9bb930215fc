"""Turn-file records are read once into typed values and written back to exactly the
bytes they came from."""

from __future__ import annotations

import os
from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.protocol import records, turnfile, wire
from pbem.protocol.records import Act, Commit, Dice, Reveal, Sim
from tests.protocol.conftest import Duo

SALT, DIGEST, VALUE = os.urandom(32), os.urandom(32), os.urandom(32)
WIRES: list[tuple[list[Any], records.Record]] = [
    (["act", ["move", 1]], Act(["move", 1])),
    (["commit", DIGEST], Commit(DIGEST)),
    (["sim", [["declare", 2], ["pass"]]], Sim([["declare", 2], ["pass"]])),
    (["reveal", [["build", 3]], SALT], Reveal([["build", 3]], SALT)),
    (["dice", 7, VALUE], Dice(7, VALUE)),
]


@pytest.mark.parametrize(("raw", "record"), WIRES, ids=[w[0][0] for w in WIRES])
def test_each_kind_reads_into_its_record_and_back_to_the_same_bytes(raw: list[Any], record: records.Record) -> None:
    parsed = records.from_wire(wire.unpack(wire.pack(raw)))
    assert parsed == record and raw[0] == parsed.KIND
    assert wire.pack(parsed.to_wire()) == wire.pack(raw)


@pytest.mark.parametrize(
    "raw",
    [
        ["act"],
        ["act", "move"],
        ["act", []],
        ["act", ["move", 1.5]],
        ["commit", b"short"],
        ["sim", "declare"],
        ["reveal", [["build", 3]], b"x"],
        ["dice", 0, VALUE],
        ["dice", True, VALUE],
        ["roll", 1],
        [],
        "act",
    ],
)
def test_misshapen_records_are_refused_as_schema_errors(raw: Any) -> None:
    with pytest.raises(PbemError) as err:
        records.from_wire(raw)
    assert err.value.code == "schema" and str(err.value).startswith("malformed turn file: ")


def test_a_real_file_keeps_its_bytes_and_hash_through_its_records(duo: Duo) -> None:
    duo.play_until(lambda d: d.game("axis").k >= 1)
    files = sorted(duo.out.glob("*.pbem"))
    turns = [turnfile.read(p) for p in files if turnfile.read(p).type == "turn"]
    kinds = {r.KIND for tf in turns for r in tf.records}
    assert {"commit", "sim", "reveal", "act", "dice"} <= kinds
    for tf in turns:
        assert [r.to_wire() for r in tf.records] == tf.body["records"]
        body = dict(tf.body, records=[r.to_wire() for r in tf.records])
        resealed = turnfile.seal(body, lambda _message, sig=tf.signature: sig)
        assert resealed.raw == tf.raw and resealed.hash == tf.hash
