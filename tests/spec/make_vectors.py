"""Builds the conformance vectors of docs/turn-file-format.md into docs/turn-file-vectors/.

    python3 -m tests.spec.make_vectors          # rewrite the folder (deterministic)

The genuine files are the first thirteen of a real 1937 self-play game (seed 3: the keys,
the game id and both computer players are derived from it).  Every other file is one of
them changed in one way and, where the change must not be caught by the signature, signed
again with the same deterministic key.  Each case lists its files in arrival order and
states its verdict and the one reason for it; tests/spec/test_vectors.py holds the
importer, ``pbem audit`` and the engine-free verifier to those verdicts.

The committed files are the reference.  Rebuilding gives the same bytes as long as the
engine and the computer players are unchanged; after a change to either, the genuine
files of a rebuild differ (and are equally valid), so commit the rebuilt folder whole.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import struct
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.play import games, selfplay
from pbem.protocol import deadlines, engine_link, handover, machine, turnfile, wire
from pbem.protocol.hashing import D_SIGN
from pbem.protocol.records import from_wire as record_from_wire
from pbem.store import keys
from pbem.store.store import Workspace

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "turn-file-vectors"
SEED = 3
#: The computer player of the games the vectors are cut from: the frozen reference, so that
#: the bot's improvements never change the format's vectors.
PLAYER = "v1"
BASE_FILES = 13
OTHER_GAME = "0123456789ab"
MIB4 = 4 * 1024 * 1024


def key_seed(side: str) -> bytes:
    """The 32-byte seed of a side's key in the self-play game (as pbem.play.selfplay derives it)."""
    return hashlib.sha256(f"pbem/selfplay/v1/{SEED}/key/{side}".encode()).digest()


def private_key(side: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(key_seed(side))


def identities(home: Path) -> None:
    """Both players' identities, as self-play makes them, in ``home``."""
    for side in turnfile.SIDES:
        keys.keygen(f"{side}-bot", directory=home, seed=key_seed(side))


def frame(body_bytes: bytes, signature: bytes) -> bytes:
    return turnfile.MAGIC + len(body_bytes).to_bytes(4, "big") + body_bytes + signature


def signed(body_bytes: bytes, side: str) -> bytes:
    return frame(body_bytes, private_key(side).sign(D_SIGN + body_bytes))


def body_of(data: bytes) -> dict[str, Any]:
    return dict(turnfile.parse(data).body)


def resign(data: bytes, side: str | None = None, **changes: Any) -> bytes:
    """``data`` with some body fields changed, signed again by ``side`` (default: its author)."""
    body = body_of(data)
    if "records" in changes and "standing" not in changes:
        body.pop("standing", None)  # positions of the records it replaces: they may no longer exist
    body.update(changes)
    if side is not None:
        body["side"] = side
    return signed(wire.pack(body), body["side"] if body["side"] in turnfile.SIDES else "axis")


def file_hash(data: bytes) -> bytes:
    return turnfile.parse(data).hash


@dataclass
class Case:
    name: str
    files: list[str]
    valid: bool
    first_bad: int | None
    reason: str
    needs_engine: bool
    about: str


class Builder:
    def __init__(self, out: Path, base: list[bytes], other_game: list[bytes]) -> None:
        self.out, self.base, self.other_game = out, base, other_game
        self.cases: list[Case] = []
        for i, data in enumerate(base):
            self.put(f"base/{i:02d}.pbem", data)
        for i, data in enumerate(other_game):
            self.put(f"other-game/{i:02d}.pbem", data)

    def put(self, rel: str, data: bytes) -> str:
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if len(data) > 64 << 10:  # large files are kept compressed (the folder stays small)
            rel += ".gz"
            path = self.out / rel
            data = gzip.compress(data, mtime=0)
        path.write_bytes(data)
        return rel

    def b(self, *seqs: int) -> list[str]:
        return [f"base/{i:02d}.pbem" for i in seqs]

    def case(
        self,
        name: str,
        files: list[str],
        reason: str,
        about: str,
        bad: int | None = None,
        engine: bool = False,
    ) -> None:
        self.cases.append(Case(name, files, bad is None, bad, reason, engine, about))

    def variant(self, name: str, prefix: list[int], data: bytes, reason: str, about: str, engine: bool = False) -> None:
        """Genuine files ``prefix`` and then one changed file, which is the bad one."""
        rel = self.put(f"variant/{name}.pbem", data)
        self.case(name, [*self.b(*prefix), rel], reason, about, bad=len(prefix), engine=engine)

    def variant_of(self, name: str, prefix: list[str], data: bytes, reason: str, about: str) -> None:
        """Files ``prefix`` (paths in the folder) and then one changed file, which is the bad one."""
        rel = self.put(f"variant/{name}.pbem", data)
        self.case(name, [*prefix, rel], reason, about, bad=len(prefix))

    def valid_variant(self, name: str, prefix: list[int], data: bytes, reason: str, about: str) -> None:
        rel = self.put(f"variant/{name}.pbem", data)
        self.case(name, [*self.b(*prefix), rel], reason, about)


def real_games(tmp: Path) -> tuple[list[bytes], list[bytes]]:
    """The self-play record, and the invitation and answer of a second game between the same keys."""
    out = tmp / "record"
    selfplay.selfplay("1937", "1937-07", SEED, out, root=tmp, player=PLAYER)
    base = [p.read_bytes() for p in sorted(out.glob("*.pbem"))[:BASE_FILES]]
    home = tmp / "home"
    identities(home)
    ws_axis, ws_allies = Workspace(tmp / "ws-axis"), Workspace(tmp / "ws-allies")
    opponent = keys.read_public_key(home / "allies-bot.pub")
    _, g0 = games.new_game(ws_axis, "1937", "axis", "axis-bot", opponent, home=home, gid=OTHER_GAME)
    _, g1 = games.join(ws_allies, g0, "allies-bot", home=home)
    return base, [g0.read_bytes(), g1.read_bytes()]


# -- hand-made encodings -----------------------------------------------------------------


def replace_once(data: bytes, old: bytes, new: bytes) -> bytes:
    assert data.count(old) == 1, (old, data.count(old))
    return data.replace(old, new)


def reframe(data: bytes, body_bytes: bytes, side: str) -> bytes:
    """A new body signed by ``side``, bypassing every check of the codec (for bad encodings)."""
    del data
    return signed(body_bytes, side)


def raw_body(data: bytes) -> bytes:
    return turnfile.parse(data).body_bytes


def act_file(prev: bytes, seq: int, side: str, records: list[Any]) -> bytes:
    body = {
        "v": 1,
        "type": "turn",
        "game": "ea3a178646b1",
        "seq": seq,
        "prev": prev,
        "side": side,
        "records": records,
        "state": bytes(32),
    }
    return signed(wire.pack(body), side)


def items(obj: Any) -> int:
    if isinstance(obj, list):
        return 1 + sum(items(x) for x in obj)
    if isinstance(obj, dict):
        return 1 + sum(items(k) + items(v) for k, v in obj.items())
    return 1


# -- Ed25519 arithmetic, for the signatures the library must refuse or accept --------------------

_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    (x1, y1), (x2, y2) = a, b
    t = _D * x1 * x2 * y1 * y2
    return ((x1 * y2 + x2 * y1) * pow(1 + t, _P - 2, _P) % _P, (y1 * y2 + x1 * x2) * pow(1 - t, _P - 2, _P) % _P)


def _mul(k: int, pt: tuple[int, int]) -> tuple[int, int]:
    acc = (0, 1)
    while k:
        if k & 1:
            acc = _add(acc, pt)
        pt, k = _add(pt, pt), k >> 1
    return acc


def _x(y: int, sign: int) -> int:
    xx = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P) % _P
    x = pow(xx, (_P + 3) // 8, _P)
    if (x * x - xx) % _P:
        x = x * pow(2, (_P - 1) // 4, _P) % _P
    return _P - x if x & 1 != sign else x


def _enc(pt: tuple[int, int]) -> bytes:
    return (pt[1] | ((pt[0] & 1) << 255)).to_bytes(32, "little")


_B = (_x(4 * pow(5, _P - 2, _P) % _P, 0), 4 * pow(5, _P - 2, _P) % _P)
_T8_Y = 0x7A03AC9277FDC74EC6CC392CFA53202A0F67100D760B3CBA4FD84D3D706A17C7  # a point of order 8
_T8 = (_x(_T8_Y, 0), _T8_Y)


def sign_with_torsion_r(seed: bytes, message: bytes) -> bytes:
    """A signature that verifies cofactored ([8]SB = [8]R + [8k]A) but not cofactorless: R has a
    component of order 8."""
    digest = hashlib.sha512(seed).digest()
    a = int.from_bytes(digest[:32], "little") & ((1 << 254) - 8) | (1 << 254)
    public = _enc(_mul(a, _B))
    r = int.from_bytes(hashlib.sha512(b"vector" + message).digest(), "little") % _L
    big_r = _enc(_add(_mul(r, _B), _T8))
    k = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % _L
    return big_r + ((r + k * a) % _L).to_bytes(32, "little")


def non_canonical_s(sig: bytes) -> bytes:
    s = int.from_bytes(sig[32:], "little") + _L
    return sig[:32] + s.to_bytes(32, "little")


IDENTITY = _enc((0, 1))  # the neutral point: a key of small order


# -- the cases ---------------------------------------------------------------------------------------


def endings(v: Builder) -> None:
    """Resignations, draws and a declined invitation (section 5.5 and the decline file)."""
    B = v.base
    r3, r4, r9, r10 = (body_of(B[i])["records"] for i in (3, 4, 9, 10))

    def after(prefix: list[str], *files: tuple[str, bytes]) -> list[str]:
        return [*prefix, *(v.put(f"variant/{name}.pbem", data) for name, data in files)]

    def state(i: int) -> bytes:
        return bytes(body_of(B[i])["state"])

    # Axis is to move in file 9, allies in file 10.
    resign9 = resign(B[9], records=[["resign"]], state=state(8))
    v.case("resign", after(v.b(*range(9)), ("resign", resign9)), "ok", "axis resigns instead of moving")
    late = resign(B[10], prev=file_hash(resign9))
    v.case(
        "file-after-resignation",
        after(v.b(*range(9)), ("resign", resign9), ("file-after-resignation", late)),
        "game-over",
        "allies move on after axis resigned",
        bad=10,
    )
    v.variant(
        "record-after-resignation",
        list(range(9)),
        resign(B[9], records=[["resign"], *r9], state=state(9)),
        "game-over",
        "axis resigns, then moves in the same file",
    )
    v.variant(
        "resignation-signed-by-the-other-key",
        list(range(9)),
        signed(raw_body(resign9), "allies"),
        "signature",
        "axis's resignation signed with the allies' key",
    )
    v.variant(
        "resignation-out-of-turn",
        list(range(9)),
        resign(B[9], side="allies", records=[["resign"]], state=state(8)),
        "record-out-of-turn",
        "allies resign where axis is to move: only the engine knows whose turn it is",
        engine=True,
    )
    offer9 = resign(B[9], records=[["offer-draw"], *r9])
    accept10 = resign(B[10], prev=file_hash(offer9), records=[["accept-draw"]], state=state(9))
    v.case(
        "draw-accepted",
        after(v.b(*range(9)), ("draw-offer", offer9), ("draw-accepted", accept10)),
        "ok",
        "axis offers a draw with its moves, allies accept instead of moving",
    )
    decline10 = resign(B[10], prev=file_hash(offer9), records=[["decline-draw"], *r10])
    v.case(
        "draw-declined",
        after(v.b(*range(9)), ("draw-offer", offer9), ("draw-declined", decline10)),
        "ok",
        "allies decline the offer and move on",
    )
    v.variant(
        "draw-accepted-without-offer",
        list(range(10)),
        resign(B[10], records=[["accept-draw"]], state=state(9)),
        "draw-offer",
        "allies accept a draw nobody offered",
    )
    for name, recs, about in (
        ("draw-accepted-by-its-author", [["offer-draw"], ["accept-draw"]], "axis accepts its own offer"),
        ("draw-offered-twice", [["offer-draw"], ["offer-draw"], *r9], "a second offer while one is open"),
        ("draw-withdrawn-without-offer", [["withdraw-draw"], *r9], "axis withdraws an offer it never made"),
    ):
        v.variant(name, list(range(9)), resign(B[9], records=recs, state=state(9)), "draw-offer", about)
    withdrawn = resign(B[9], records=[["offer-draw"], ["withdraw-draw"], *r9])
    v.case(
        "draw-withdrawn",
        after(
            v.b(*range(9)), ("draw-withdrawn", withdrawn), ("after-withdrawn", resign(B[10], prev=file_hash(withdrawn)))
        ),
        "ok",
        "axis offers and withdraws in one file; allies move",
    )
    # File 3 is axis's list in the clear after the allies' commitment; file 4 opens it.
    offer3 = resign(B[3], records=[["offer-draw"], *r3])
    in_progress = resign(B[4], prev=file_hash(offer3), records=[["accept-draw"]], state=state(3))
    v.case(
        "draw-accepted-before-the-reveal",
        after(v.b(0, 1, 2), ("draw-offer-with-clear-list", offer3), ("draw-accepted-before-the-reveal", in_progress)),
        "record-out-of-turn",
        "allies have seen axis's list and accept instead of opening their commitment",
        bad=4,
    )
    opened = resign(B[4], prev=file_hash(offer3), records=[r4[0], ["accept-draw"]])
    v.case(
        "draw-accepted-after-the-reveal",
        after(v.b(0, 1, 2), ("draw-offer-with-clear-list", offer3), ("draw-accepted-after-the-reveal", opened)),
        "ok",
        "allies open their commitment, then accept",
    )

    # The invitation of the second game, declined by the invited player (allies).
    g0 = v.other_game[0]
    refusal = {"v": 1, "type": "decline", "game": OTHER_GAME, "seq": 1, "prev": file_hash(g0), "side": "allies"}
    declined = v.put("other-game/declined.pbem", signed(wire.pack(refusal), "allies"))
    v.case("invitation-declined", ["other-game/00.pbem", declined], "ok", "allies decline the invitation")
    v.case(
        "declined-then-joined",
        ["other-game/00.pbem", declined, "other-game/01.pbem"],
        "equivocation",
        "allies decline, then join: two files for position 1",
        bad=2,
    )
    by_creator = v.put("variant/declined-by-creator.pbem", signed(wire.pack(dict(refusal, side="axis")), "axis"))
    v.case(
        "declined-by-creator",
        ["other-game/00.pbem", by_creator],
        "join-side",
        "the inviter declines its own invitation",
        bad=1,
    )
    after_decline = {
        "v": 1,
        "type": "turn",
        "game": OTHER_GAME,
        "seq": 2,
        "prev": file_hash(signed(wire.pack(refusal), "allies")),
        "side": "allies",
        "records": [["commit", bytes(32)]],
        "state": bytes(32),
    }
    late2 = v.put("variant/file-after-decline.pbem", signed(wire.pack(after_decline), "allies"))
    v.case(
        "file-after-decline",
        ["other-game/00.pbem", declined, late2],
        "game-over",
        "a turn file after the invitation was declined",
        bad=2,
    )


BRANCH_GAME = "b4a7c8000001"


def branches(v: Builder) -> None:
    """A branch of the base game after file 8 (axis to move): its invitation and answer."""
    B = v.base
    g = body_of(B[0])
    parent = {"game": g["game"], "seq": 8, "file": file_hash(B[8]), "state": body_of(B[8])["state"]}
    anchors = {s: hashlib.sha256(f"pbem/vectors/branch/{s}".encode()).digest() for s in turnfile.SIDES}
    genesis = signed(wire.pack(dict(g, game=BRANCH_GAME, anchor=anchors["axis"], parent=parent)), "axis")
    join = {
        "v": 1,
        "type": "join",
        "game": BRANCH_GAME,
        "seq": 1,
        "prev": file_hash(genesis),
        "side": "allies",
        "anchor": anchors["allies"],
        "chain": g["chain"],
        "state": parent["state"],
    }
    files = [v.put("branch/00.pbem", genesis), v.put("branch/01.pbem", signed(wire.pack(join), "allies"))]
    v.case("branch", files, "ok", "a new game from the base game's position after file 8")
    pinned = body_of(B[1])["state"]
    v.variant_of(
        "branch-join-state",
        files[:1],
        signed(wire.pack(dict(join, state=pinned)), "allies"),
        "join-state",
        "the branch's join names the scenario's starting state, not the parent's position",
    )


def reaction_game(tmp: Path) -> list[bytes]:
    """The same game with reaction orders given by both sides from the start, to one file
    after the first that opens a seal."""
    out = tmp / "react-record"
    selfplay.selfplay("1937", "1937-08", SEED, out, root=tmp, react=True, player=PLAYER)
    files = [p.read_bytes() for p in sorted(out.glob("*.pbem"))]
    first = next(i for i, d in enumerate(files) if any(r[0] == "react" for r in body_of(d).get("records", [])))
    return files[: first + 2]


def reactions(v: Builder, files: list[bytes]) -> None:
    """Seals and their openings (section 5.8)."""
    names = [v.put(f"react/{i:02d}.pbem", d) for i, d in enumerate(files)]
    n = len(files) - 2  # the file that opens the first seal
    body = body_of(files[n])
    at = next(i for i, r in enumerate(body["records"]) if r[0] == "react")
    salt = body["records"][at][2]
    v.case("react-game", names, "ok", f"both sides seal reaction orders; file {n} opens the {body['side']}' seal")

    def changed(recs: list[Any]) -> bytes:
        return resign(files[n], records=recs)

    recs = body["records"]
    v.variant_of(
        "react-mismatch",
        names[:n],
        changed([*recs[:at], ["react", ["pass", "bot", []], salt], *recs[at + 1 :]]),
        "react-mismatch",
        "the opening names other orders than the sealed ones (seen the other side's moves)",
    )
    late = ["seal", hashlib.sha256(b"pbem/vectors/late-seal").digest()]
    v.variant_of(
        "react-sealed-in-same-file",
        names[:n],
        changed([*recs[:at], late, *recs[at:]]),
        "react-not-sealed",
        "a seal made in the very file that opens it, after the other side moved",
    )
    v.variant_of(
        "standing-mark-outside",
        names[:n],
        resign(files[n], standing=[len(recs)]),
        "schema",
        "the 'standing' field names a record position the file does not have",
    )
    second = body_of(files[2])
    assert second["records"][0][0] == "commit", "file 2 of the game opens a hidden list"
    v.variant_of(
        "seal-out-of-turn",
        names[:3],
        act_file(file_hash(files[2]), 3, second["side"], [late]),
        "record-out-of-turn",
        "a seal alone, first in a file of the side that owes nothing while the other owes its list",
    )


def retreat_game(tmp: Path) -> list[bytes]:
    """The same game with reaction orders, the Allies' ordering their retreats toward
    Chungking, to one file after the first that opens a seal before a dice value (an
    Allied file: the receivers of the vectors hold the Axis key, and would write their own)."""
    out = tmp / "retreat-record"
    selfplay.selfplay(
        "1937", "1937-08", SEED, out, root=tmp, react=True, retreat={"allies": "toward:Chungking"}, player=PLAYER
    )
    files = [p.read_bytes() for p in sorted(out.glob("*.pbem"))]
    first = next(i for i, d in enumerate(files) if _opened_before_roll(body_of(d)) is not None)
    return files[: first + 2]


def _opened_before_roll(body: dict[str, Any]) -> int | None:
    """The position of a react followed by its author's dice value in the file, if any."""
    recs = body.get("records", [])
    return next((i for i in range(len(recs) - 1) if recs[i][0] == "react" and recs[i + 1][0] == "dice"), None)


def retreats(v: Builder, files: list[bytes]) -> None:
    """The retreat order opened just before the author's first dice value of a roll (section 5.8)."""
    names = [v.put(f"retreat/{i:02d}.pbem", d) for i, d in enumerate(files)]
    n = len(files) - 2
    body = body_of(files[n])
    at = _opened_before_roll(body)
    assert at is not None
    recs = body["records"]
    orders, salt = recs[at][1], recs[at][2]
    v.case(
        "retreat-game",
        names,
        "ok",
        f"the allies seal a retreat order; file {n} opens their seal just before their dice value",
    )

    def changed(new: list[Any]) -> bytes:
        return resign(files[n], records=new)

    v.variant_of(
        "retreat-mismatch",
        names[:n],
        changed([*recs[:at], ["react", [*orders[:3], "bot"], salt], *recs[at + 1 :]]),
        "react-mismatch",
        "the opening before the roll names another retreat order than the sealed one",
    )
    v.variant_of(
        "retreat-after-dice",
        names[:n],
        changed([*recs[:at], recs[at + 1], recs[at], *recs[at + 2 :]]),
        "record-out-of-turn",
        "the opening comes after the author's first dice value, when the roll awaits the other side's",
    )


def build(out: Path) -> list[Case]:
    with tempfile.TemporaryDirectory(prefix="pbem-vectors-") as tmp:
        base, g2 = real_games(Path(tmp))
        reacting = reaction_game(Path(tmp))
        retreating = retreat_game(Path(tmp))
    if out.exists():
        shutil.rmtree(out)
    v = Builder(out, base, g2)
    B = base
    gen = body_of(B[0])

    # Genuine histories and arrival orders.
    v.case("real-game", v.b(*range(13)), "ok", "thirteen files of a real game: genesis to the first roll and beyond")
    v.case("genesis-alone", v.b(0), "ok", "an invitation on its own is a valid game of one file")
    v.case("duplicate-arrival", v.b(0, 1, 2, 3, 3, 4), "ok", "a file arriving twice is a no-op the second time")
    v.case("duplicate-genesis", v.b(0, 0, 1, 2), "ok", "the invitation arriving twice")
    v.case("out-of-order", v.b(0, 1, 2, 4, 3, 5), "ok", "file 4 before file 3: kept, then applied once 3 arrives")
    v.case("out-of-order-several", v.b(0, 1, 5, 4, 3, 2, 6), "ok", "files 2 to 5 in reverse order")
    v.case("late-duplicate", v.b(0, 1, 2, 4, 3, 4, 5), "ok", "an early file arriving again after it was applied")
    v.case("other-game-genuine", ["other-game/00.pbem", "other-game/01.pbem"], "ok", "a second game, same keys")

    # Replay, equivocation, order of arrival.
    v.case(
        "replay-into-other-game",
        ["other-game/00.pbem", "other-game/01.pbem", *v.b(2)],
        "wrong-game",
        "a genuine file of game ea3a178646b1 delivered to game 0123456789ab",
        bad=2,
    )
    v.variant(
        "replay-resigned-for-other-game",
        [],
        resign(B[2], game=OTHER_GAME),
        "prev-mismatch",
        "its author re-signs file 2 with the other game's id: prev still names the first game's join",
    )
    v.cases[-1].files = ["other-game/00.pbem", "other-game/01.pbem", v.cases[-1].files[0]]
    v.cases[-1].first_bad = 2
    eq = resign(B[3], records=[["sim", []]])
    v.variant("equivocation", [0, 1, 2, 3], eq, "equivocation", "axis signs a second, different file 3")
    v.variant("equivocation-while-waiting", [0, 1, 3], eq, "equivocation", "both versions of file 3 arrive early")
    v.cases[-1].files.append("base/02.pbem")
    v.variant("position-taken", [0, 1, 2, 3], resign(B[3], side="allies"), "position-taken", "allies sign a file 3 too")
    v.case("gap-never-filled", v.b(0, 1, 3), "gap", "file 2 never arrives: file 3 can never be verified", bad=2)
    v.variant("no-genesis", [], B[2], "no-genesis", "a game's file without its invitation")

    # File layout.
    v.variant("bad-magic", [0, 1, 2], b"pbem turn file 2\n" + B[3][17:], "bad-magic", "the magic line differs")
    v.variant("bad-length", [0, 1, 2], B[3][:17] + (len(B[3]) - 84).to_bytes(4, "big") + B[3][21:], "bad-length", "")
    v.variant("bytes-after-signature", [0, 1, 2], B[3] + b"\x00", "bad-length", "one byte after the signature")
    v.variant("truncated", [0, 1, 2], B[3][:80], "truncated", "the file is cut inside its fixed parts")
    v.variant("signature-flipped", [0, 1, 2], B[3][:-1] + bytes([B[3][-1] ^ 1]), "signature", "one bit of it")
    v.variant("signed-by-wrong-key", [0, 1, 2], signed(raw_body(B[3]), "allies"), "signature", "axis body, allies key")
    v.variant(
        "genesis-signed-by-opponent", [], signed(raw_body(B[0]), "allies"), "signature", "the creator must sign it"
    )
    v.variant("prev-mismatch", [0, 1, 2], resign(B[3], prev=bytes(32)), "prev-mismatch", "prev is zero")

    # Ed25519 as the library verifies it.
    v.variant(
        "ed25519-s-not-reduced", [0, 1, 2], B[3][:-64] + non_canonical_s(B[3][-64:]), "signature", "S + L in place of S"
    )
    v.variant(
        "ed25519-torsion-in-r",
        [0, 1, 2],
        frame(raw_body(B[3]), sign_with_torsion_r(key_seed("axis"), D_SIGN + raw_body(B[3]))),
        "signature",
        "valid under the cofactored equation only: verification is cofactorless",
    )
    weak = dict(gen, keys={"axis": IDENTITY, "allies": gen["keys"]["allies"]})
    weak_bytes = wire.pack(weak)
    v.valid_variant(
        "ed25519-small-order-key-accepted",
        [],
        frame(weak_bytes, IDENTITY + bytes(32)),
        "ok",
        "a creator key of small order (the neutral point) and R = neutral, S = 0: accepted by the "
        "library, so by the format; such a key lets anyone sign for that side",
    )

    # Canonical encoding.
    body3 = raw_body(B[3])
    v.variant(
        "non-canonical-uint8",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa3seq\x03", b"\xa3seq\xcc\x03"), "axis"),
        "non-canonical",
        "seq 3 written as uint8",
    )
    v.variant(
        "non-canonical-signed-for-positive",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa3seq\x03", b"\xa3seq\xd0\x03"), "axis"),
        "non-canonical",
        "seq 3 written as int8: a non-negative value always takes the unsigned family",
    )
    v.variant(
        "non-canonical-str8",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa4side", b"\xd9\x04side"), "axis"),
        "non-canonical",
        "a 4-byte key written as str8",
    )
    swapped = replace_once(body3, b"\xa4side\xa4axis", b"\xa4typeTMP")
    swapped = replace_once(swapped, b"\xa4type\xa4turn", b"\xa4side\xa4axis").replace(
        b"\xa4typeTMP", b"\xa4type\xa4turn"
    )
    v.variant("unsorted-keys", [0, 1, 2], reframe(B[3], swapped, "axis"), "non-canonical", "'side' before 'type'")
    dup = bytes([body3[0] + 1]) + body3[1:] + b"\xa4type\xa4turn"
    v.variant("duplicate-key", [0, 1, 2], reframe(B[3], dup, "axis"), "non-canonical", "'type' twice")
    v.variant(
        "float",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa3seq\x03", b"\xa3seq\xcb" + struct.pack(">d", 3.0)), "axis"),
        "float",
        "seq as a float64",
    )
    v.variant(
        "ext-type",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa3seq\x03", b"\xa3seq\xd4\x01\x03"), "axis"),
        "msgpack-type",
        "seq as an ext value",
    )
    v.variant(
        "never-used-byte",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa3seq\x03", b"\xa3seq\xc1"), "axis"),
        "msgpack-type",
        "0xc1",
    )
    v.variant(
        "not-utf8",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa4axis", b"\xa4ax\xff\xfe"), "axis"),
        "malformed",
        "a string that is not UTF-8",
    )
    v.variant(
        "integer-map-key",
        [0, 1, 2],
        reframe(B[3], replace_once(body3, b"\xa1v\x01", b"\x01\x01"), "axis"),
        "malformed",
        "a map key that is an integer",
    )
    v.variant(
        "trailing-bytes-in-body",
        [0, 1, 2],
        reframe(B[3], body3 + b"\xc0", "axis"),
        "trailing-bytes",
        "a second object after the body map",
    )

    # Schema.
    def bad3(name: str, about: str, **changes: Any) -> None:
        v.variant(name, [0, 1, 2], resign(B[3], **changes), "schema", about)

    bad3("nil-field", "the state hash is nil: nil is never allowed", state=None)
    bad3("version-2", "v = 2", v=2)
    bad3("version-true", "v = true: a boolean is not an integer", v=True)
    bad3("game-id-uppercase", "the game id must be lowercase hex", game="EA3A178646B1")
    bad3("seq-bool", "seq = true", seq=True)
    bad3("side-unknown", "a side that does not exist", side="neutral")
    bad3("records-empty", "a turn carries at least one record", records=[])
    bad3("record-unknown", "a record kind that does not exist", records=[["pass"]])
    bad3("act-65-arguments", "an action of 65 arguments", records=[["act", ["move", *range(65)]]])
    bad3("argument-bytes", "an action argument that is a byte string", records=[["act", ["pass", b"x"]]])
    bad3("dice-index-0", "dice index 0", records=[["dice", 0, bytes(32)]])
    bad3("dice-index-past-limit", "dice index 2^20 + 1", records=[["dice", (1 << 20) + 1, bytes(32)]])
    body = body_of(B[3])
    body["extra"] = 1
    v.variant("unknown-field", [0, 1, 2], signed(wire.pack(body), "axis"), "schema", "a field no type has")
    body = body_of(B[3])
    del body["state"]
    v.variant("missing-field", [0, 1, 2], signed(wire.pack(body), "axis"), "schema", "no state hash")

    def bad_genesis(name: str, about: str, reason: str = "schema", **changes: Any) -> None:
        v.variant(name, [], resign(B[0], **changes), reason, about)

    bad_genesis("genesis-prev-not-zero", "genesis names no file before it", prev=b"\x01" * 32)
    bad_genesis("genesis-digest-uppercase", "the digest is lowercase hex", digest=gen["digest"].upper())
    bad_genesis(
        "genesis-same-keys",
        "both sides have one key",
        keys={"axis": gen["keys"]["axis"]} | {"allies": gen["keys"]["axis"]},
    )
    bad_genesis("genesis-names-65", "a name of 65 code points", names={"axis": "é" * 65, "allies": "b"})
    bad_genesis(
        "genesis-email-display-name", "an e-mail with a display name", emails={"axis": "A <a@b.org>", "allies": ""}
    )
    email254 = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 61
    bad_genesis("genesis-email-255", "an e-mail of 255 characters", emails={"axis": email254 + "d", "allies": ""})
    bad_genesis("genesis-chain-0", "a dice chain of length 0", chain=0)
    bad_genesis("genesis-chain-past-limit", "a dice chain of 2^20 + 1", chain=(1 << 20) + 1)
    bad_genesis("genesis-option-list", "an option whose value is a list", options={"x": [1]})
    bad_genesis("genesis-wrong-digest", "scenario data other than the pinned", "scenario-digest", digest="0" * 64)
    bad_genesis("genesis-wrong-engine", "an engine version other than the pinned", "engine-version", engine="0.1.0")
    bad_genesis("genesis-unknown-scenario", "a scenario nobody ships", "scenario-digest", scenario="1941")
    bad_genesis("genesis-engine-64", "64 code points, not the pinned version", "engine-version", engine="0." + "1" * 62)
    bad_genesis("genesis-engine-65", "65 code points", engine="0." + "1" * 63)
    bad_genesis("genesis-game-id-13", "13 hex characters", game="ea3a178646b10")
    bad_genesis("genesis-option", "an option: engine 0.3.0 defines none", "options", options={"fog": True})
    bad_genesis("genesis-level-0", "a level below the ladder (section 6.1)", "options", options={"level": 0})
    bad_genesis("genesis-level-5", "a level above the ladder", "options", options={"level": 5})
    bad_genesis("genesis-level-true", "a level that is a boolean", "options", options={"level": True})
    bad_genesis("genesis-level-text", "a level written as text", "options", options={"level": "2"})
    v.valid_variant("genesis-level-1", [], resign(B[0], options={"level": 1}), "ok", "the gentlest level asked")
    v.valid_variant("genesis-level-4", [], resign(B[0], options={"level": 4}), "ok", "the strongest level asked")
    v.valid_variant(
        "genesis-names-64", [], resign(B[0], names={"axis": "é" * 64, "allies": ""}), "ok", "64 code points"
    )
    v.valid_variant("genesis-email-254", [], resign(B[0], emails={"axis": email254, "allies": ""}), "ok", "254 chars")
    v.valid_variant("genesis-chain-1", [], resign(B[0], chain=1), "ok", "the shortest dice chain")
    v.valid_variant("genesis-chain-2-20", [], resign(B[0], chain=1 << 20), "ok", "the longest dice chain")

    # Join.
    v.variant("join-by-creator", [0], resign(B[1], side="axis"), "join-side", "the creator signs the join file")
    v.variant("join-wrong-state", [0], resign(B[1], state=bytes(32)), "join-state", "not the pinned starting state")
    v.variant("join-prev", [0], resign(B[1], prev=bytes(32)), "prev-mismatch", "the join names no genesis")
    v.variant("join-chain-0", [0], resign(B[1], chain=0), "schema", "the joiner's chain of length 0")

    # Records, commitments, reveals, dice (no engine needed).
    def turn(name: str, prefix: list[int], reason: str, about: str, engine: bool = False, **changes: Any) -> None:
        v.variant(name, prefix, resign(B[len(prefix)], **changes), reason, about, engine)

    turn(
        "commit-by-wrong-side",
        [0, 1],
        "record-out-of-turn",
        "axis commits, but allies made the decision current",
        side="axis",
    )
    turn(
        "clear-list-by-committer",
        [0, 1, 2],
        "record-out-of-turn",
        "the committer sends the list in the clear",
        side="allies",
    )
    r4 = body_of(B[4])["records"]
    turn(
        "reveal-wrong-salt",
        [0, 1, 2, 3],
        "reveal-mismatch",
        "another salt",
        records=[["reveal", r4[0][1], bytes(32)], r4[1]],
    )
    turn(
        "reveal-other-actions",
        [0, 1, 2, 3],
        "reveal-mismatch",
        "other actions, the right salt",
        records=[["reveal", [["pass"], ["pass"]], r4[0][2]], r4[1]],
    )
    turn(
        "reveal-missing",
        [0, 1, 2, 3],
        "record-out-of-turn",
        "a new commitment where the reveal is due",
        records=[r4[1]],
    )
    turn(
        "reveal-uncommitted",
        [0, 1, 2, 3, 4, 5, 6, 7, 8],
        "record-out-of-turn",
        "a reveal where nothing is committed",
        records=[["reveal", [], bytes(32)]],
        side="axis",
    )
    r12 = body_of(B[12])["records"]
    turn(
        "dice-index-wrong",
        list(range(12)),
        "dice-index",
        "the value for event 2 in event 1",
        records=[["dice", 2, r12[0][2]], *r12[1:]],
    )
    turn(
        "dice-value-wrong",
        list(range(12)),
        "dice-chain",
        "a value off the allies' chain",
        records=[["dice", 1, bytes(32)], *r12[1:]],
    )
    turn(
        "dice-first-by-trigger",
        list(range(11)),
        "record-out-of-turn",
        "the side that triggered the roll reveals first",
        side="allies",
    )
    turn(
        "dice-value-replayed",
        list(range(12)),
        "dice-chain",
        "the allies' anchor itself",
        records=[["dice", 1, body_of(B[1])["anchor"]], *r12[1:]],
    )
    turn(
        "dice-index-2-20",
        list(range(12)),
        "dice-index",
        "index 2^20 passes the schema, but event 1 is being rolled",
        records=[["dice", 1 << 20, r12[0][2]], *r12[1:]],
    )
    turn(
        "dice-second-by-first",
        list(range(12)),
        "record-out-of-turn",
        "axis, who revealed first, sends the second value too",
        side="axis",
    )

    # A side may split its turn over two files: records are judged one by one.
    genesis = machine.Genesis(turnfile.parse(B[0]).body)
    game = machine.start(turnfile.parse(B[0]), machine.authenticate(genesis, turnfile.parse(B[1])))
    for data in B[2:9]:
        machine.apply_turn(game, machine.authenticate(genesis, turnfile.parse(data)))
    r9 = body_of(B[9])["records"]
    for rec in r9[:7]:
        machine.apply_record(game, "axis", 9, record_from_wire(rec))
    f9a = resign(B[9], records=r9[:7], state=engine_link.api().state_hash(game.state))
    f9b = resign(B[9], seq=10, prev=file_hash(f9a), records=r9[7:])
    f10 = resign(B[10], seq=11, prev=file_hash(f9b))
    split = [v.put(f"variant/split-turn-{i}.pbem", d) for i, d in enumerate((f9a, f9b, f10))]
    v.case("split-turn", [*v.b(*range(9)), *split], "ok", "axis sends its moves in two files, allies answer")

    endings(v)
    branches(v)
    reactions(v, reacting)
    retreats(v, retreating)

    # Checks only the engine can make.
    turn(
        "illegal-action",
        list(range(9)),
        "illegal",
        "a move to a hex that does not exist",
        True,
        records=[["act", ["move", r9[0][1][1], 99_999_999]]],
    )
    turn(
        "state-mismatch",
        list(range(9)),
        "state-mismatch",
        "the state hash after the moves is zero",
        True,
        state=bytes(32),
    )
    turn(
        "act-where-commit-due",
        [0, 1],
        "record-out-of-turn",
        "an action where a commitment is due",
        True,
        records=[["act", ["pass"]]],
    )
    turn(
        "dice-where-act-due",
        list(range(9)),
        "record-out-of-turn",
        "a dice value before any roll is due (under the state hash of file 8, which a first value keeps)",
        True,
        records=[["dice", 1, body_of(B[11])["records"][0][2]]],
        state=body_of(B[8])["state"],
    )
    turn(
        "state-changed-by-a-commitment",
        [0, 1],
        "state-mismatch",
        "a file holding a commitment alone, which leaves the state unchanged, under another state hash",
        state=body_of(B[4])["state"],
    )
    turn(
        "clear-list-illegal",
        [0, 1, 2],
        "illegal",
        "axis declares war on a country that does not exist",
        True,
        records=[["sim", [["declare", "Atlantis"]]]],
    )

    # Limits: each at its edge and one past it.  At the edge the file passes the limit and is
    # refused for the next reason it has: an action where the clear list is due.
    prev3 = file_hash(B[2])

    def at_position_3(records: list[Any]) -> bytes:
        return act_file(prev3, 3, "axis", records)

    def limit(name: str, data: bytes, reason: str, about: str) -> None:
        v.variant(name, [0, 1, 2], data, reason, about)

    limit(
        "depth-8",
        at_position_3([["act", ["pass", [[[[1]]]]]]]),
        "schema",
        "non-empty containers 8 deep (an argument list)",
    )
    limit("depth-9", at_position_3([["act", ["pass", [[[[[1]]]]]]]]), "limit-depth", "9 deep")
    limit("depth-9-empty", at_position_3([["act", ["pass", [[[[[]]]]]]]]), "schema", "an empty container adds no level")
    limit("string-4096", at_position_3([["act", ["x" * 4096]]]), "record-out-of-turn", "a string of 4096 bytes")
    limit("string-4097", at_position_3([["act", ["x" * 4097]]]), "limit-string", "4097 bytes")
    limit("string-4096-bytes-2048-chars", at_position_3([["act", ["é" * 2048]]]), "record-out-of-turn", "bytes count")
    limit("string-4097-bytes", at_position_3([["act", ["é" * 2048 + "x"]]]), "limit-string", "4097 bytes of 2049 chars")
    limit("bin-4096", resign(B[3], prev=bytes(4096)), "schema", "a byte string of 4096 bytes (prev must be 32)")
    limit("bin-4097", resign(B[3], prev=bytes(4097)), "limit-bin", "4097 bytes")
    limit("map-64", resign(B[3], state={f"k{i:02d}": i for i in range(64)}), "schema", "a map of 64 entries")
    limit("map-65", resign(B[3], state={f"k{i:02d}": i for i in range(65)}), "limit-map", "65 entries")
    limit("args-64", at_position_3([["act", ["move", *range(64)]]]), "record-out-of-turn", "an action of 64 arguments")
    limit("records-20000", at_position_3([["act", ["pass"]]] * 20_000), "record-out-of-turn", "20000 records")
    limit("records-20001", at_position_3([["act", ["pass"]]] * 20_001), "schema", "20001 records")
    # A reveal of 100000 actions: the list passes and the reveal does not open the commitment.
    v.variant(
        "list-100000",
        [0, 1, 2, 3],
        resign(B[4], records=[["reveal", [["pass"]] * 100_000, r4[0][2]], r4[1]]),
        "reveal-mismatch",
        "a list of 100000 elements",
    )
    v.variant(
        "list-100001",
        [0, 1, 2, 3],
        resign(B[4], records=[["reveal", [["pass"]] * 100_001, r4[0][2]], r4[1]]),
        "limit-list",
        "100001 elements",
    )
    # Elements: every msgpack object counts, the body map itself included.
    recs: list[list[Any]] = [["act", ["move", *range(16)]] for _ in range(20_000)]
    shell = items(body_of(at_position_3([["act", ["pass"]]]))) - items([["act", ["pass"]]])
    extra = 400_000 - shell - items(recs)
    for i in range(-extra):
        recs[i][1].pop()
    assert items(body_of(at_position_3(recs))) == 400_000, items(body_of(at_position_3(recs)))
    limit("items-400000", at_position_3(recs), "record-out-of-turn", "400000 elements")
    recs[0][1].append(0)
    limit("items-400001", at_position_3(recs), "limit-items", "400001 elements")
    # The whole file: 4 MiB at most (these two are stored gzip-compressed).
    big: list[list[Any]] = [["act", ["x"] + ["y" * 4096] * 64] for _ in range(16)]
    data = at_position_3(big)
    big[-1][1][-1] = "y" * (4096 - (len(data) - MIB4))
    data = at_position_3(big)
    assert len(data) == MIB4, len(data)
    limit("file-4mib", data, "record-out-of-turn", "a file of exactly 4 MiB")
    big[-1][1][-1] += "y"
    data = at_position_3(big)
    assert len(data) == MIB4 + 1, len(data)
    limit("file-4mib-plus-1", data, "file-too-large", "one byte more")
    # seq: 99999 is the last position a file may name; it waits for a gap that never fills.
    limit("seq-99999", act_file(prev3, 99_999, "axis", [["act", ["pass"]]]), "gap", "the highest position")
    limit("seq-100000", act_file(prev3, 100_000, "axis", [["act", ["pass"]]]), "schema", "one past it")

    timed_cases(v)

    manifest = [
        {
            "name": c.name,
            "files": c.files,
            "valid": c.valid,
            "first_bad": c.first_bad,
            "reason": c.reason,
            "needs_engine": c.needs_engine,
            "about": c.about,
        }
        for c in v.cases
    ]
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
    return v.cases


def timed_cases(v: Builder) -> None:
    """Games with a deadline (section 12): claims, a hand-over, new terms; tests/spec/timed_vectors.py."""
    from tests.spec import timed_vectors as tv

    t, facts = tv.timed(private_key)
    f = tv.forfeit(private_key)
    T = [v.put(f"timed/{i:02d}.pbem", d) for i, d in enumerate(t)]
    F = [v.put(f"forfeit/{i:02d}.pbem", d) for i, d in enumerate(f)]
    new = tv.NEW

    def sign_as(body: dict[str, Any], ident: keys.Identity) -> bytes:
        body_bytes = wire.pack(body)
        return frame(body_bytes, ident.sign(D_SIGN + body_bytes))

    def variant(name: str, upto: int, data: bytes, reason: str, about: str, engine: bool = False) -> None:
        rel = v.put(f"variant/{name}.pbem", data)
        v.case(name, [*T[:upto], rel], reason, about, bad=upto, engine=engine)

    v.case(
        "timed-game", T, "ok", "a game with a deadline: a hand-over, a reminder, then the bot plays for the silent side"
    )
    v.case("forfeit-claims", F[:4], "ok", "a reminder, then the silent side forfeits")
    v.case(
        "duplicate-after-handover",
        [*T[:5], T[1], T[3]],
        "ok",
        "the allies' join (old key) and a file of the new key, again",
    )
    v.case("forfeit-then-a-file", F, "game-over", "a file of the side that forfeited, after the final claim", bad=4)
    silent, claimant = facts["silent"], turnfile.other(facts["silent"])
    signer = {"axis": private_key("axis"), "allies": new.private}

    def by(side: str) -> keys.Identity:
        return keys.Identity(side, "", signer[side])

    c6 = body_of(t[6])
    variant(
        "claim-early",
        6,
        sign_as(c6 | {"time": facts["clock5"] + 3599}, by(claimant)),
        "claim-early",
        "a claim dated one second before the deadline",
    )
    raw = bytearray(t[6])
    raw[raw.index((facts["clock5"] + 3600).to_bytes(4, "big")) + 3] ^= 1
    variant("claim-tampered", 6, bytes(raw), "signature", "one bit of a claim's time changed after signing")
    variant(
        "claim-by-awaited-side",
        6,
        sign_as(c6 | {"side": silent}, by(silent)),
        "claim-not-due",
        "the side the game waits for claims against the other",
        engine=True,
    )
    c7 = body_of(t[7])
    variant(
        "claim-final-state",
        7,
        sign_as(c7 | {"state": bytes(32)}, by(claimant)),
        "state-mismatch",
        "the final claim's state hash is not the bot's play",
        engine=True,
    )
    # The final claim under the bot rule carries the claimant's next dice-chain value (12.3).
    no_dice = {k: x for k, x in c7.items() if k != "dice"}
    variant(
        "claim-final-without-dice",
        7,
        sign_as(no_dice, by(claimant)),
        "claim-dice",
        "a final claim under the bot rule without the claimant's dice value",
    )
    wrong = hashlib.sha256(b"pbem/vectors/not-a-chain-value").digest()
    variant(
        "claim-final-wrong-dice",
        7,
        sign_as(c7 | {"dice": wrong}, by(claimant)),
        "dice-chain",
        "a final claim whose dice value is not the claimant's next chain value",
    )
    spent = body_of(t[0])["anchor"] if claimant == "axis" else body_of(t[2])["anchor"]
    variant(
        "claim-final-reused-dice",
        7,
        sign_as(c7 | {"dice": spent}, by(claimant)),
        "dice-chain",
        "a final claim whose dice value is the claimant's value revealed already (its anchor)",
    )
    variant(
        "claim-reminder-with-dice",
        6,
        sign_as(c6 | {"dice": c7["dice"]}, by(claimant)),
        "claim-dice",
        "a reminder carrying a dice value, which only a final claim under the bot rule carries",
    )
    variant(
        "claim-reveal-nothing-committed",
        6,
        sign_as(c6 | {"due": "reveal"}, by(claimant)),
        "claim-not-due",
        "a claim for a reveal where nothing is committed",
    )
    answered = v.put("variant/claim-crossed-06.pbem", facts["in_time6"])
    v.case(
        "claim-crossed",
        [*T[:6], answered, T[6]],
        "claim-crossed",
        "a reminder for position 6, where the silent side's file, dated a minute after file 5, is held",
        bad=7,
    )
    after = facts["after7"]
    c8 = c6 | {"seq": 8, "prev": file_hash(t[7]), "side": turnfile.other(after.side), "due": after.kind}
    c8 |= {"time": c7["time"] + tv.HOUR, "state": c7["state"]}
    v.case(
        "claim-after-a-bot-claim",
        [*T, v.put("variant/claim-after-a-bot-claim.pbem", sign_as(c8, by(c8["side"])))],
        "ok",
        "a reminder right after the final claim the bot played: the claimant's own list is now due",
    )
    R = [v.put(f"reveal-reminders/{i:02d}.pbem", d) for i, d in enumerate(tv.reveal_reminders(private_key))]
    v.case(
        "claims-for-a-reveal-stay-reminders",
        R,
        "ok",
        "under the forfeit rule, three claims for a silent reveal: each a reminder, and the reveal then comes",
    )
    h4 = body_of(t[4])
    no_time = {k: x for k, x in h4.items() if k != "time"}
    variant("time-missing", 4, signed(wire.pack(no_time), "axis"), "time", "a turn file of a timed game without time")
    variant(
        "time-backwards",
        4,
        signed(wire.pack(h4 | {"time": tv.T0}), "axis"),
        "time",
        "a time earlier than the file before it",
    )
    variant(
        "prev-before-time",
        4,
        signed(wire.pack(h4 | {"time": tv.T0, "prev": bytes(32)}), "axis"),
        "prev-mismatch",
        "prev is zero and the time earlier than the file before it: prev is checked first (7.1)",
    )
    h2 = body_of(t[2])
    third = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"pbem/vectors/third").digest())
    bad_accept = third.sign(handover.accept_message(h2))
    variant(
        "handover-not-countersigned",
        2,
        signed(wire.pack(h2 | {"accept": bad_accept}), "allies"),
        "handover-accept",
        "the hand-over's countersignature is not the new key's",
    )
    variant(
        "handover-by-wrong-key",
        2,
        frame(wire.pack(h2), private_key("axis").sign(D_SIGN + wire.pack(h2))),
        "signature",
        "the allies' hand-over signed by the axis key",
    )
    taken = h2 | {"key": body_of(t[0])["keys"]["axis"]}
    taken["accept"] = private_key("axis").sign(handover.accept_message(taken))
    variant(
        "handover-key-taken",
        2,
        signed(wire.pack(taken), "allies"),
        "handover-key",
        "allies hand their side to the axis key, which countersigns",
    )
    by_axis = h2 | {"side": "axis"}
    by_axis["accept"] = new.sign(handover.accept_message(by_axis))
    variant(
        "handover-not-open",
        2,
        signed(wire.pack(by_axis), "axis"),
        "handover-not-open",
        "axis hands its side over while allies are to commit",
        engine=True,
    )
    reused = h2 | {"anchor": body_of(t[1])["anchor"]}
    reused["accept"] = new.sign(handover.accept_message(reused))
    variant(
        "handover-anchor-seen",
        2,
        signed(wire.pack(reused), "allies"),
        "handover-anchor",
        "the new holder starts its chain at the allies' join anchor, whose values were revealed before",
    )
    f3 = body_of(t[3])
    fourth = keys.Identity("fourth", "", third)
    by_committer = {"v": 1, "type": "handover", "game": tv.TIMED_GAME, "seq": 4, "prev": file_hash(t[3])}
    by_committer |= {"side": "allies", "key": fourth.public.raw, "anchor": hashlib.sha256(b"pbem/vectors/4").digest()}
    by_committer |= {"chain": 16, "time": body_of(t[3])["time"]}
    by_committer["accept"] = fourth.sign(handover.accept_message(by_committer))
    variant(
        "handover-by-committer",
        4,
        sign_as(by_committer, new),
        "handover-not-open",
        "allies, who committed in file 3, hand their side over while axis's clear list is due",
    )
    variant(
        "old-key-after-handover",
        3,
        signed(wire.pack(f3), "allies"),
        "signature",
        "file 3 signed by the allies' key they handed over in file 2",
    )
    terms = {"v": 1, "type": "terms", "game": tv.TIMED_GAME, "seq": 6, "prev": file_hash(t[5]), "side": "axis"}
    terms |= {"deadline": 2 * tv.HOUR, "time": facts["clock5"] + 10}
    ok = terms | {"consent": new.sign(deadlines.terms_message(tv.TIMED_GAME, 6, terms["prev"], 2 * tv.HOUR))}
    rel = v.put("variant/terms-agreed.pbem", signed(wire.pack(ok), "axis"))
    v.case("terms-agreed", [*T[:6], rel], "ok", "a new deadline signed by both sides")
    self_signed = terms | {
        "consent": private_key("axis").sign(deadlines.terms_message(tv.TIMED_GAME, 6, terms["prev"], 2 * tv.HOUR))
    }
    variant(
        "terms-consent",
        6,
        signed(wire.pack(self_signed), "axis"),
        "terms-consent",
        "a new deadline signed by the proposer alone",
    )
    # New terms may change what a final claim does too: here to a forfeit, which the two
    # claims after them then apply (neither changes the state: the reminder's state hash).
    rule = terms | {"silence": "forfeit"}
    rule["consent"] = new.sign(deadlines.terms_message(tv.TIMED_GAME, 6, terms["prev"], 2 * tv.HOUR, "forfeit"))
    rule_file = signed(wire.pack(rule), "axis")
    rel = v.put("variant/terms-forfeit.pbem", rule_file)
    reminded = c6 | {"seq": 7, "prev": file_hash(rule_file), "time": terms["time"] + 2 * tv.HOUR}
    reminder = sign_as(reminded, by(claimant))
    final = c6 | {"seq": 8, "prev": file_hash(reminder), "time": reminded["time"] + 2 * tv.HOUR}
    claims = [
        v.put("variant/terms-forfeit-07.pbem", reminder),
        v.put("variant/terms-forfeit-08.pbem", sign_as(final, by(claimant))),
    ]
    v.case(
        "terms-silence-forfeit",
        [*T[:6], rel, *claims],
        "ok",
        "new terms change the silence rule to forfeit; a reminder and a final claim then forfeit",
    )
    after = c6 | {"seq": 9, "prev": file_hash(sign_as(final, by(claimant))), "side": silent}
    after["time"] = final["time"] + 60
    v.case(
        "terms-silence-forfeit-then-a-file",
        [*T[:6], rel, *claims, v.put("variant/terms-forfeit-09.pbem", sign_as(after, by(silent)))],
        "game-over",
        "a file of the side that forfeited under the new silence rule",
        bad=9,
    )
    unsigned_rule = rule | {"consent": ok["consent"]}
    variant(
        "terms-silence-not-consented",
        6,
        signed(wire.pack(unsigned_rule), "axis"),
        "terms-consent",
        "a new silence rule added to terms the other side signed for the deadline alone",
    )
    h2_mail = h2 | {"email": "newcomer@example.org"}
    h2_mail["accept"] = new.sign(handover.accept_message(h2_mail))
    rel = v.put("variant/handover-email.pbem", signed(wire.pack(h2_mail), "allies"))
    v.case(
        "handover-email",
        [*T[:2], rel],
        "ok",
        "a hand-over naming the new holder's address, countersigned with it",
    )
    variant(
        "handover-email-not-countersigned",
        2,
        signed(wire.pack(h2 | {"email": "mallory@example.org"}), "allies"),
        "handover-accept",
        "an address added to a hand-over after the new key countersigned it",
    )
    base_claim = {"v": 1, "type": "claim", "game": body_of(v.base[0])["game"], "seq": 2, "prev": file_hash(v.base[1])}
    base_claim |= {"side": "axis", "time": tv.T0 + 99 * tv.HOUR, "due": "commit", "state": body_of(v.base[1])["state"]}
    rel = v.put("variant/claim-no-deadline.pbem", signed(wire.pack(base_claim), "axis"))
    v.case("claim-no-deadline", [*v.b(0, 1), rel], "claim-no-deadline", "a claim in a game without a deadline", bad=2)
    half = body_of(t[0])
    half["options"] = {"deadline": tv.HOUR}
    rel = v.put("variant/options-half-terms.pbem", signed(wire.pack(half), "axis"))
    v.case("options-half-terms", [rel], "options", "a deadline without what a final claim does", bad=0)


if __name__ == "__main__":
    cases = build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
    print(f"{len(cases)} cases written")
