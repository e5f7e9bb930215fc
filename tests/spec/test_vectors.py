"""The conformance vectors of docs/turn-file-format.md hold for the program and for the document.

Every case of docs/turn-file-vectors/manifest.json is given to ``pbem audit`` (the files as
one directory), to the importer (file by file, in arrival order, by a player of the game)
and to the engine-free reference verifier (pbem/protocol/spec_verify.py).  Each must reach the
stated verdict: valid, or invalid at the stated file for the stated reason.  The reference
verifier must also accept every case whose fault only the engine can see, which keeps the
``needs_engine`` flags honest.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.errors import PbemError
from pbem.play import audit, branch, exchange, games
from pbem.protocol import machine, records, spec_verify, turnfile
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace
from tests.spec.make_vectors import OUT, identities

MANIFEST: list[dict[str, Any]] = json.loads((OUT / "manifest.json").read_text())

# The error codes of the program's receivers for each reason of the manifest.
CODES = {
    "ok": set(),
    "wrong-game": {"game", "sequence"},  # not joined (importer) / no genesis for that game (audit)
    "no-genesis": {"game", "sequence"},
    "gap": {"gap", "sequence"},
    "prev-mismatch": {"chain-link"},
    "equivocation": {"equivocation"},
    "position-taken": {"sequence"},
    "signature": {"signature"},
    "schema": {"schema"},
    "scenario-digest": {"scenario"},
    "engine-version": {"version"},
    "options": {"illegal"},
    "join-side": {"side"},
    "join-state": {"state"},
    # a player's own automatic answer may already fill the position the bad file claims
    "record-out-of-turn": {"order", "sequence"},
    "reveal-mismatch": {"commit"},
    "react-not-sealed": {"react-not-sealed"},
    "react-mismatch": {"react-mismatch"},
    "dice-index": {"chain"},
    "dice-chain": {"chain"},
    "illegal": {"illegal"},
    "state-mismatch": {"state"},
    "game-over": {"over"},
    "draw-offer": {"draw-offer"},
    # Games with a deadline (section 12).
    "time": {"time"},
    "claim-no-deadline": {"claim"},
    "claim-early": {"early"},
    "claim-not-due": {"claim"},
    "claim-dice": {"claim"},
    # the importer is the claimant: its own claim, after the file it crossed, is a position
    # taken for it (the silent side's program says claim-crossed: tests/protocol/test_claim_disputes.py)
    "claim-crossed": {"sequence"},
    "handover-accept": {"signature"},
    "handover-key": {"handover"},
    "handover-not-open": {"handover"},
    "handover-anchor": {"handover"},
    "terms-consent": {"signature"},
}
PARSE = {"bad-magic", "bad-length", "truncated", "non-canonical", "float", "msgpack-type", "malformed"}
PARSE |= {"trailing-bytes", "file-too-large", "limit-depth", "limit-items", "limit-string", "limit-bin"}
PARSE |= {"limit-list", "limit-map"}
CODES |= {r: {"parse"} for r in PARSE}
#: Where ``pbem audit``, which sees every file, names the reason as the document does.
AUDIT_CODES = CODES | {"claim-crossed": {"claim-crossed"}}


def _data(rel: str) -> bytes:
    raw = (OUT / rel).read_bytes()
    return gzip.decompress(raw) if rel.endswith(".gz") else raw


def _parent_files(first: bytes) -> list[bytes]:
    """The files a branch's genesis (``first``) needs beside it: its parent's (the base game's)
    up to the file it names; none for any other case."""
    try:
        parent = turnfile.parse(first).body.get("parent")
    except PbemError:
        return []
    return [] if parent is None else [_data(f"base/{i:02d}.pbem") for i in range(parent["seq"] + 1)]


def _materialise(case: dict[str, Any], where: Path) -> list[Path]:
    """The case's files under names that sort in arrival order (after a branch's parent files,
    which a receiver must hold: they sort first and are not part of the verdict)."""
    where.mkdir()
    for i, data in enumerate(_parent_files(_data(case["files"][0]))):
        (where / f"000-parent-{i:03d}.pbem").write_bytes(data)
    paths = []
    for i, rel in enumerate(case["files"]):
        p = where / f"{i:03d}-{Path(rel.removesuffix('.gz')).name}"
        p.write_bytes(_data(rel))
        paths.append(p)
    return paths


def _ids(case: dict[str, Any]) -> str:
    return str(case["name"])


def test_the_manifest_covers_what_the_document_promises() -> None:
    names = [c["name"] for c in MANIFEST]
    assert len(names) == len(set(names)) >= 60
    reasons = {c["reason"] for c in MANIFEST}
    assert reasons == set(CODES), reasons ^ set(CODES)
    for c in MANIFEST:
        assert set(c) == {"name", "files", "valid", "first_bad", "reason", "needs_engine", "about"}
        assert c["valid"] == (c["first_bad"] is None) == (c["reason"] == "ok")
        assert all((OUT / f).is_file() for f in c["files"])
    kinds = {r[0] for c in MANIFEST for f in c["files"] for r in _records(f)}
    assert kinds == set(records.KINDS)
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    assert size < 3 << 20


def _records(rel: str) -> list[Any]:
    try:
        return list(turnfile.parse(_data(rel)).body.get("records", []))
    except PbemError:
        return []


@pytest.mark.parametrize("case", MANIFEST, ids=_ids)
def test_reference_verifier_without_engine(case: dict[str, Any]) -> None:
    verdict = spec_verify.verify([_data(f) for f in case["files"]])
    if case["needs_engine"]:
        assert verdict.valid, verdict.lines  # the fault is one only the engine can see
    else:
        assert (verdict.valid, verdict.first_bad, verdict.reason) == (
            case["valid"],
            case["first_bad"],
            None if case["valid"] else case["reason"],
        ), verdict.lines


@pytest.mark.parametrize("case", MANIFEST, ids=_ids)
def test_pbem_audit(case: dict[str, Any], tmp_path: Path) -> None:
    paths = _materialise(case, tmp_path / "files")
    try:
        audit.audit_dir(tmp_path / "files")
    except PbemError as exc:
        assert not case["valid"], str(exc)
        missing = re.match(r"game \w+: file (\d+) is missing", str(exc))
        if missing:
            seqs = [turnfile.read(p).seq for p in paths]
            bad = min(i for i, s in enumerate(seqs) if s > int(missing.group(1)))
        else:
            bad = [p.name for p in paths].index(str(exc).split(":")[0])
        assert (bad, exc.code) in {(case["first_bad"], code) for code in AUDIT_CODES[case["reason"]]}, str(exc)
    else:
        assert case["valid"]


def _receiver(files: list[Path], home: Path, ws: Workspace) -> str:
    """The player who receives the files: the creator, unless the case is an invitation alone
    or one the creator could not have sent (then the invited player)."""
    try:
        genesis = turnfile.read(files[0])
        g = machine.check_genesis(genesis)
    except PbemError:
        return "allies"
    if len(files) == 1 or g.creator != "axis":
        return "allies"
    with ws.locked():
        tx = Transaction()
        meta = games.game_meta(g.game, "axis-bot", "axis", "", "", "allies-bot", g.body["scenario"])
        LocalGame.stage_create(ws, tx, meta, [genesis])
        if g.parent is not None:  # the creator of a branch verified its position when it made it
            parent = [turnfile.parse(data) for data in _parent_files(files[0].read_bytes())]
            LocalGame.stage_base(ws, tx, g.game, branch.verified_base({g.parent["game"]: parent}.get, g.parent))
        ws.commit(tx)
    return "axis"


@pytest.mark.parametrize("case", MANIFEST, ids=_ids)
def test_importer_file_by_file(case: dict[str, Any], tmp_path: Path) -> None:
    paths = _materialise(case, tmp_path / "files")
    home = tmp_path / "home"
    identities(home)
    ws = Workspace(tmp_path / "ws")
    me = _receiver(paths, home, ws)
    outcome: dict[int, str] = {}  # index -> error code of a file not accepted
    stored: list[int] = []
    for i, p in enumerate(paths):
        if me == "axis" and i == 0:
            continue  # the creator's own invitation
        res = exchange.import_file(ws.root, p, home=home)
        if res.status == "rejected":
            outcome[i] = res.code
        elif res.status == "stored" and i > 0:
            stored.append(i)
        if me == "allies" and i == 0 and res.ok and len(paths) > 1:
            games.join(ws, p, "allies-bot", home=home)
    for i in stored:  # a file kept for later counts once it was applied
        tf = turnfile.read(paths[i])
        held = LocalGame(ws, tf.game, home).history_file(tf.seq)
        if held is None or held.hash != tf.hash:
            outcome[i] = "gap"
    if case["valid"]:
        assert not outcome, outcome
    else:
        first = min(outcome)
        assert first == case["first_bad"], outcome
        assert outcome[first] in CODES[case["reason"]], outcome
