"""`pbem verify --no-engine` (pbem/protocol/spec_verify.py) against `pbem audit`, on many
mutations of real files of every kind: turn, claim, hand-over, terms, resignation, draw,
declined invitation, reaction orders.

Each mutant is a genuine game up to one file, changed in one way and signed again with the
key in force for its side (or changed after signing).  The two must give the same verdict,
except where the document (section 8) gives the decision to the engine: there the
engine-free verifier may accept what the audit refuses, for those reasons only.  Neither
may fail in any other way than a refusal (a PbemError for pbem, a slug for the verifier):
hand-over and ending files are fuzzed harder for that.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.errors import PbemError
from pbem.play import audit, exchange, games
from pbem.protocol import spec_verify, wire
from pbem.protocol.hashing import D_SIGN
from pbem.store.localgame import MAX_WAITING
from pbem.store.store import Workspace
from tests.spec import timed_vectors as tv
from tests.spec.make_vectors import OUT, frame, identities, private_key
from tests.spec.test_vectors import _materialise, _receiver

MANIFEST = {c["name"]: c for c in json.loads((OUT / "manifest.json").read_text())}
# The cases whose files are mutated, and which of their files (by index).
CASES = {
    "real-game": range(2, 13),
    "resign": [9],
    "draw-accepted": [9, 10],
    "draw-declined": [10],
    "draw-withdrawn": [9, 10],
    "draw-accepted-after-the-reveal": [3, 4],
    "invitation-declined": [1],
    "timed-game": range(2, 8),
    "forfeit-claims": [2, 3],
    "terms-agreed": [6],
    "terms-silence-forfeit": [6, 7, 8],
    "handover-email": [2],
    "react-game": [2, 3, 10, 11],  # seals, and an opening
}
# The audit's refusals that only the engine can decide (section 8), told by their code and
# words: which decision is current (a record, an ending record, a claim's due or a hand-over
# out of turn outside an open step), the legality of actions, the end of the game by its
# rules.  A state hash counts only where the engine-free verifier says it left it unchecked.
ENGINE = {
    "order": "out of turn",
    "claim": "the game waits for",
    "handover": "only when it is to play a decision",
    "illegal": "",
    "over": "its rules ended it",
}
PER_FILE = 16  # mutants per file (a seeded sample of all the one-change mutants)
FUZZ = 40  # mutants with several changes, per hand-over and ending file

KEYS = [private_key("axis"), private_key("allies"), tv.NEW.private]
BY_PUBLIC = {k.public_key().public_bytes_raw(): k for k in KEYS}


def _files(case: str) -> list[bytes]:
    return [(OUT / rel).read_bytes() for rel in MANIFEST[case]["files"]]


def _signer(files: list[bytes], side: str) -> Ed25519PrivateKey:
    """The key in force for ``side`` after ``files``: the genesis's, or a hand-over's."""
    key = spec_verify.parse(files[0]).body["keys"][side]
    for data in files[1:]:
        b = spec_verify.parse(data).body
        if b["type"] == "handover" and b["side"] == side:
            key = b["key"]
    return BY_PUBLIC[bytes(key)]


def _sealed(body: dict[str, Any], key: Ed25519PrivateKey) -> bytes:
    raw = wire.pack(body)
    return frame(raw, key.sign(D_SIGN + raw))


def _values(v: Any, rng: random.Random) -> Iterator[Any]:
    """Other values for a field or record part: near misses of its own type, and other types."""
    if isinstance(v, bool):
        yield not v
    elif isinstance(v, int):
        yield from (v + 1, v - 1, 0, v + 1_000_000, (1 << 40), -1)
    elif isinstance(v, bytes):
        yield bytes([v[0] ^ 1]) + v[1:] if v else b"\x00"
        yield bytes(len(v))
        yield v[:-1]
    elif isinstance(v, str):
        yield from ({"axis": "allies", "allies": "axis"}.get(v, v + "x"), "")
    elif isinstance(v, list):
        if v:
            yield v[1:]
            yield [v[0], *v]
            yield v[::-1]
            i = rng.randrange(len(v))
            for other in _values(v[i], rng):
                yield [*v[:i], other, *v[i + 1 :]]
        for ending in ("resign", "offer-draw", "accept-draw", "decline-draw", "withdraw-draw"):
            yield [[ending], *v] if v and isinstance(v[0], list) else [[ending]]
    elif isinstance(v, dict):
        yield {}
    yield None
    yield 7 if not isinstance(v, int) else "7"


def _changes(body: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Every one-change variant of ``body``: each field replaced, dropped, or one added."""
    for k in sorted(body):
        for other in _values(body[k], rng):
            if other is not None:
                yield body | {k: other}
        yield {f: x for f, x in body.items() if f != k}
    yield body | {"zzz": 1}
    if "time" not in body:
        yield body | {"time": 1_794_000_000}


def _mutants(files: list[bytes], at: int, rng: random.Random) -> Iterator[tuple[str, bytes]]:
    data = files[at]
    body = spec_verify.parse(data).body
    changed = list(_changes(body, rng))
    for i, b in enumerate(rng.sample(changed, min(PER_FILE, len(changed)))):
        side = b.get("side")
        key = _signer(files[:at], side if side in ("axis", "allies") else body["side"])
        fields = sorted(k for k in {*b, *body} if b.get(k) != body.get(k))
        yield f"change {i} of {fields}: {[b.get(k, '(none)') for k in fields]!r:.160}", _sealed(b, key)
    for i in range(3):  # changed after signing
        raw = bytearray(data)
        raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        yield f"bit flip {i}", bytes(raw)
    fuzzed = body["type"] in ("handover", "decline") or any(
        isinstance(r, list) and r and r[0] in spec_verify.ENDINGS for r in body.get("records", [])
    )
    for i in range(FUZZ if fuzzed else 0):
        b = body
        for _ in range(rng.randint(2, 4)):
            b = rng.choice(list(_changes(b, rng)) or [b])
        yield f"fuzz {i}", _sealed(b, _signer(files[:at], body["side"]))


def _audit(files: list[bytes], where: Path) -> tuple[bool, str, str]:
    """The audit's verdict: accepted, and the code and words of its refusal."""
    where.mkdir()
    for i, data in enumerate(files):
        (where / f"{i:03d}.pbem").write_bytes(data)
    try:
        audit.audit_dir(where)
    except PbemError as exc:
        return False, exc.code, str(exc)
    return True, "ok", ""


@pytest.mark.parametrize("case", sorted(CASES))
def test_verify_no_engine_agrees_with_audit(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(case)
    times = [spec_verify.parse(f).body.get("time", 0) for f in files]
    now = max([*times, tv.T0]) + 3600  # the receiver's clock: an hour after the last file
    monkeypatch.setenv("PBEM_NOW", str(now))
    rng = random.Random(case)
    seen: dict[str, int] = {}
    n = 0
    for at in CASES[case]:
        unchecked = spec_verify.verify(files[:at], now=now).unchecked
        for what, mutant in _mutants(files, at, rng):
            n += 1
            game = [*files[:at], mutant]
            verdict = spec_verify.verify(game, now=now)
            ok, code, words = _audit(game, tmp_path / str(n))
            where = f"{case}, file {at}, {what}: audit {words or 'ok'}; verify --no-engine {verdict.reason or 'ok'}"
            assert not (ok and not verdict.valid), f"the engine-free verifier refuses what the audit accepts: {where}"
            if not ok and verdict.valid:
                engine = verdict.unchecked > unchecked if code == "state" else ENGINE.get(code, "@") in words
                assert engine, f"accepted without the engine, for no engine reason: {where}"
            seen[code] = seen.get(code, 0) + 1
    # The mutants reach both verdicts, and more than one kind of refusal.
    assert seen.get("ok", 0) < n and len(seen) >= 3, seen


def test_a_file_dated_far_ahead_is_refused_by_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files("timed-game")[:3]
    body = spec_verify.parse(files[2]).body
    now = body["time"]
    monkeypatch.setenv("PBEM_NOW", str(now))
    for ahead, valid in ((600, True), (601, False), (1_000_000, False)):
        game = [*files[:2], _sealed(body | {"time": now + ahead}, _signer(files[:2], "allies"))]
        verdict = spec_verify.verify(game, now=now)
        assert verdict.valid is valid and (valid or verdict.reason == "time"), (ahead, verdict.lines[-1])
        assert _audit(game, tmp_path / str(ahead))[:2] == ((True, "ok") if valid else (False, "time")), ahead


def test_at_most_64_files_wait_beyond_a_gap_as_in_pbem(tmp_path: Path) -> None:
    """Section 7.2: the 65th file beyond a gap is refused (gap) by the engine-free verifier,
    at the bound pbem's importer keeps (and refuses beyond)."""
    assert spec_verify.MAX_WAITING == MAX_WAITING == 64
    files = _files("real-game")[:2]
    body = spec_verify.parse(_files("real-game")[2]).body
    beyond = [_sealed(body | {"seq": seq}, private_key(body["side"])) for seq in range(3, 3 + 65)]
    rx = spec_verify.Receiver(now=0)
    for i, data in enumerate([*files, *beyond]):
        rx.receive(i, data)
    assert list(rx.bad) == [2 + 64] and rx.bad[2 + 64] == "gap", rx.lines[-2:]
    assert len(rx.waiting) == 64


@pytest.mark.parametrize(
    ("case", "at"), [("timed-game", 2), ("resign", 9), ("draw-accepted", 10), ("invitation-declined", 1)]
)
def test_the_importer_refuses_fuzzed_hand_over_and_ending_files_in_one_line(
    case: str, at: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player's program, holding the game up to the file, checks each mutant of it
    (`pbem verify FILE`, the importer's checks): a refusal is a PbemError, never a crash."""
    c = MANIFEST[case]
    paths = _materialise(c | {"files": c["files"][:at]}, tmp_path / "files")
    home, ws = tmp_path / "home", Workspace(tmp_path / "ws")
    identities(home)
    me = _receiver(paths, home, ws)
    for i, p in enumerate(paths):
        if not (me == "axis" and i == 0):
            assert exchange.import_file(ws.root, p, home=home).status in ("applied", "stored", "duplicate")
        if me == "allies" and i == 0:
            games.join(ws, p, "allies-bot", home=home)
    monkeypatch.setenv("PBEM_NOW", str(tv.T0 + 30 * 86400))
    files = _files(case)
    refused = 0
    for n, (what, mutant) in enumerate(_mutants(files, at, random.Random(case))):
        path = tmp_path / f"mutant-{n}.pbem"
        path.write_bytes(mutant)
        try:
            audit.verify_file(ws, path)
        except PbemError as exc:
            refused += 1
            assert "\n" not in str(exc) and exc.code, (what, str(exc))
    assert refused > FUZZ // 2
