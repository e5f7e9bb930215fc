"""A reference verifier written from docs/turn-file-format.md alone: no engine, no pbem codec.

It exists to show that the document is enough to check a game's files.  It decodes
msgpack itself (the canonical rules of the document, not a library's re-encoding),
checks every limit, the schema, signatures, the chain of files, the order of arrival,
commitments and reveals, the dice chains and the seed of every roll, and the pinned
scenario data, the signed times (against the clock it is given) and the state hash of
a file that leaves the state unchanged.  What only the rules engine can decide (whether
an action is legal, which decision comes next, the state hash after a change) it does
not check, and says so.

Each refusal carries the slug the document and the conformance vectors use.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypedDict, TypeGuard

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

MAGIC = b"pbem turn file 1\n"
MAX_FILE = 4 * 1024 * 1024
MAX_DEPTH, MAX_ITEMS, MAX_STR, MAX_BIN, MAX_LIST, MAX_MAP = 8, 400_000, 4096, 4096, 100_000, 64
MAX_RECORDS, MAX_ARGS, MAX_CHAIN, MAX_SEQ = 20_000, 64, 1 << 20, 99_999
SIDES = ("axis", "allies")
COMMON = ("v", "type", "game", "seq", "prev", "side")
FIELDS = {
    "genesis": {*COMMON, "scenario", "digest", "engine", "options", "keys", "names", "emails", "anchor", "chain"},
    "join": {*COMMON, "anchor", "chain", "state"},
    "turn": {*COMMON, "records", "state"},
    "decline": set(COMMON),
    "claim": {*COMMON, "time", "due", "state"},
    "handover": {*COMMON, "key", "anchor", "chain", "accept"},
    "terms": {*COMMON, "deadline", "consent"},
}
TIMED = ("join", "turn", "handover", "terms")  # carry "time" exactly in a game with a deadline
OPTIONAL = {"genesis": "parent", "handover": "email", "terms": "silence", "claim": "dice", "turn": "standing"}
MIN_DEADLINE, MAX_DEADLINE, MAX_TIME = 3600, 366 * 86400, (1 << 40) - 1
TOLERANCE = 600  # seconds a file's time may lie ahead of the receiver's clock
MAX_WAITING = 64  # files kept beyond a gap, per game
ENDINGS = ("resign", "offer-draw", "accept-draw", "decline-draw", "withdraw-draw")
RECORD_LEN = {"act": 2, "commit": 2, "sim": 2, "reveal": 3, "dice": 3, "seal": 2, "react": 3} | dict.fromkeys(
    ENDINGS, 1
)

# The pinned data of the shipped release (the document's table "Pinned scenarios"):
# scenario -> one (engine version, scenario digest, state hash at the start of the game)
# per packaged map, the newest (the one new games use) first; a game begun on an older
# map keeps it.
PINNED = {
    "1937": (
        (
            "0.3.0",
            "34f55debf07c6b18e5057617d2e95de21a262d2e510755e696911c5a2ca9a4a4",
            "c029bcbb89c26ee3fcb7c4f4199ffec112f5f804f189fe273dfdbfca0324dae8",
        ),
        (
            "0.3.0",
            "e1464ab7dbf8b42902b8d351b10e1866ac47a09ffa08b97c3735181399eaca78",
            "9ba210f60b0d9bbad294f712a4087d7286aa4fc3a986dcb5481cbfe9291aa3f4",
        ),
    ),
    "1939": (
        (
            "0.3.0",
            "92513ae801535c596bbf72148b555e4245d5b06852b913e32fb6ccbd65831eef",
            "69235fca7563113c75caf89cc091c1cd3f2b988c0534a61668bf9222b5a2ab20",
        ),
        (
            "0.3.0",
            "a4ef554248ca8c98704a2385b5876f6a865bed2e769f2f5fc67ca1929771e2ca",
            "696267480a159b99f30c0f129d771b86c4bd5bc2424746c6f4ef5329e025648d",
        ),
    ),
}
_ADDRESS = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@"
    r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?){0,8}"
)


class Refused(Exception):
    def __init__(self, slug: str, message: str) -> None:
        super().__init__(message)
        self.slug = slug


# -- canonical msgpack ---------------------------------------------------------------


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.pos, self.items = data, 0, 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise Refused("truncated", "a declared length runs past the end of the body")
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def uint(self, n: int) -> int:
        return int.from_bytes(self.take(n), "big")


def _shortest(ok: bool) -> None:
    if not ok:
        raise Refused("non-canonical", "a value is not in its shortest encoding")


def decode(data: bytes) -> object:
    """Decode one canonical msgpack object filling ``data`` exactly, within the limits."""
    r = _Reader(data)
    obj = _value(r, 0)
    if r.pos != len(data):
        raise Refused("trailing-bytes", "bytes follow the body's single object")
    return obj


def _value(r: _Reader, depth: int) -> object:
    b = r.take(1)[0]
    r.items += 1
    if r.items > MAX_ITEMS:
        raise Refused("limit-items", f"more than {MAX_ITEMS} elements")
    if b <= 0x7F:
        return b
    if b >= 0xE0:
        return b - 0x100
    if b == 0xC0:
        return None
    if b in (0xC2, 0xC3):
        return b == 0xC3
    if b in (0xCC, 0xCD, 0xCE, 0xCF):
        n = 1 << (b - 0xCC)
        v = r.uint(n)
        _shortest(v >= (0x80 if n == 1 else 1 << (4 * n)))
        return v
    if b in (0xD0, 0xD1, 0xD2, 0xD3):
        n = 1 << (b - 0xD0)
        v = int.from_bytes(r.take(n), "big", signed=True)
        _shortest(v < (-32 if n == 1 else -(1 << (4 * n - 1))))
        return v
    if 0xA0 <= b <= 0xBF or b in (0xD9, 0xDA, 0xDB):
        n = b & 0x1F if b <= 0xBF else r.uint(1 << (b - 0xD9))
        if n > MAX_STR:
            raise Refused("limit-string", f"a string of more than {MAX_STR} bytes")
        _shortest(b <= 0xBF or n >= (32, 256, 65536)[b - 0xD9])
        try:
            return r.take(n).decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("malformed", "a string is not UTF-8") from None
    if b in (0xC4, 0xC5, 0xC6):
        n = r.uint(1 << (b - 0xC4))
        if n > MAX_BIN:
            raise Refused("limit-bin", f"a byte string of more than {MAX_BIN} bytes")
        _shortest(n >= (0, 256, 65536)[b - 0xC4])
        return r.take(n)
    if 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):
        n = b & 0x0F if b <= 0x9F else r.uint(2 if b == 0xDC else 4)
        if n > MAX_LIST:
            raise Refused("limit-list", f"a list of more than {MAX_LIST} elements")
        _shortest(b <= 0x9F or n >= (16 if b == 0xDC else 65536))
        _open(n, depth)
        return [_value(r, depth + 1) for _ in range(n)]
    if 0x80 <= b <= 0x8F or b in (0xDE, 0xDF):
        n = b & 0x0F if b <= 0x8F else r.uint(2 if b == 0xDE else 4)
        if n > MAX_MAP:
            raise Refused("limit-map", f"a map of more than {MAX_MAP} entries")
        _shortest(b <= 0x8F or n >= (16 if b == 0xDE else 65536))
        _open(n, depth)
        out: dict[str, object] = {}
        last: bytes | None = None
        for _ in range(n):
            key = _value(r, depth + 1)
            if not isinstance(key, str):
                raise Refused("malformed", "a map key is not a string")
            enc = key.encode()
            if last is not None and enc <= last:
                raise Refused("non-canonical", "map keys are repeated or not in sorted order")
            last = enc
            out[key] = _value(r, depth + 1)
        return out
    if b in (0xCA, 0xCB):
        raise Refused("float", "a floating-point number")
    raise Refused("msgpack-type", f"msgpack type 0x{b:02x} is never used")


def _open(n: int, depth: int) -> None:
    if n and depth >= MAX_DEPTH:
        raise Refused("limit-depth", f"non-empty containers nested more than {MAX_DEPTH} deep")


# -- hashes ----------------------------------------------------------------------------


def pack(obj: object) -> bytes:
    """The canonical encoding (only what the hashes need: str, bytes, int, bool, list)."""
    if isinstance(obj, bool):
        return b"\xc3" if obj else b"\xc2"
    if isinstance(obj, int):
        if 0 <= obj <= 0x7F or -32 <= obj < 0:
            return (obj & 0xFF).to_bytes(1, "big")
        if obj >= 0:
            for head, n in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8)):
                if obj < 1 << (8 * n):
                    return bytes([head]) + obj.to_bytes(n, "big")
        for head, n in ((0xD0, 1), (0xD1, 2), (0xD2, 4), (0xD3, 8)):
            if obj >= -(1 << (8 * n - 1)):
                return bytes([head]) + obj.to_bytes(n, "big", signed=True)
        raise ValueError("integer out of range")
    if isinstance(obj, str):
        raw = obj.encode()
        return _head(len(raw), 0xA0, 31, (0xD9, 0xDA, 0xDB)) + raw
    if isinstance(obj, bytes):
        return _head(len(obj), None, -1, (0xC4, 0xC5, 0xC6)) + obj
    if isinstance(obj, list):
        return _head(len(obj), 0x90, 15, (None, 0xDC, 0xDD)) + b"".join(pack(x) for x in obj)
    raise TypeError(type(obj).__name__)


def _head(n: int, fix: int | None, fix_max: int, heads: tuple[int | None, int | None, int | None]) -> bytes:
    if fix is not None and n <= fix_max:
        return bytes([fix | n])
    for head, size in zip(heads, (1, 2, 4), strict=True):
        if head is not None and n < 1 << (8 * size):
            return bytes([head]) + n.to_bytes(size, "big")
    raise ValueError("too long")


def h(*parts: object) -> bytes:
    return hashlib.sha256(pack(list(parts))).digest()


def step(value: bytes) -> bytes:
    return hashlib.sha256(b"pbem/chain/v1\x00" + value).digest()


def file_hash(body_bytes: bytes) -> bytes:
    return h("pbem/file/v1", body_bytes)


def commitment(game: str, seq: int, side: str, actions: list[object], salt: bytes) -> bytes:
    return h("pbem/commit/v1", game, seq, side, actions, salt)


def seal_digest(game: str, seq: int, side: str, orders: list[object], salt: bytes) -> bytes:
    return h("pbem/seal/v1", game, seq, side, orders, salt)


def seed(game: str, k: int, trigger: bytes, v_axis: bytes, v_allies: bytes) -> bytes:
    return h("pbem/seed/v1", game, k, trigger, v_axis, v_allies)


def fingerprint(public: bytes) -> str:
    digest = hashlib.sha256(b"pbem/fingerprint/v1\x00" + public).hexdigest()[:32]
    return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


def signature_ok(public: bytes, signature: bytes, body_bytes: bytes) -> bool:
    return verifies(public, signature, b"pbem/sign/v1\x00" + body_bytes)


def verifies(public: bytes, signature: bytes, message: bytes) -> bool:
    """Ed25519 as section 2.4 accepts it, over a message given whole."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


# -- one file: layout and schema -------------------------------------------------------------


@dataclass(frozen=True)
class File:
    body: dict[str, Any]
    body_bytes: bytes
    signature: bytes

    @property
    def hash(self) -> bytes:
        return file_hash(self.body_bytes)

    @property
    def seq(self) -> int:
        return int(self.body["seq"])

    @property
    def side(self) -> str:
        return str(self.body["side"])


def parse(data: bytes) -> File:
    if len(data) > MAX_FILE:
        raise Refused("file-too-large", f"the file is larger than {MAX_FILE} bytes")
    if not data.startswith(MAGIC):
        raise Refused("bad-magic", "not a pbem turn file")
    if len(data) < len(MAGIC) + 4 + 64:
        raise Refused("truncated", "the file is shorter than its fixed parts")
    n = int.from_bytes(data[17:21], "big")
    if 21 + n + 64 != len(data):
        raise Refused("bad-length", "the declared body length does not match the file size")
    body_bytes = data[21 : 21 + n]
    body = decode(body_bytes)
    schema(body)
    assert isinstance(body, dict)  # schema() refuses anything else
    return File(body, body_bytes, data[21 + n :])


def _int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _kind(x: object, known: Mapping[str, object]) -> bool:
    """``x`` is a text naming one of ``known`` (a list or map there names nothing)."""
    return isinstance(x, str) and x in known


def _bad(why: str) -> Refused:
    return Refused("schema", why)


def _need(ok: bool, why: str) -> None:
    if not ok:
        raise _bad(why)


def _b32(x: object, what: str) -> None:
    _need(isinstance(x, bytes) and len(x) == 32, f"'{what}' must be 32 bytes")


def _text(x: object, what: str, limit: int) -> None:
    _need(isinstance(x, str) and len(x) <= limit, f"'{what}' must be a string of at most {limit} code points")


def _action(x: object) -> None:
    if not (isinstance(x, list) and 1 <= len(x) <= 1 + MAX_ARGS and isinstance(x[0], str)):
        raise _bad("misshapen action")
    _need(all(isinstance(a, int | str) for a in x[1:]), "action arguments must be int, str or bool")


def _sides(x: object, what: str) -> None:
    _need(isinstance(x, dict) and sorted(x) == sorted(SIDES), f"'{what}' must name exactly axis and allies")


def _retreat_part(x: object) -> bool:
    """Section 5.8: the fourth element of reaction orders, ``bot`` or 1 to 8 distinct hexes."""
    if x == "bot":
        return True
    return (
        isinstance(x, list)
        and 1 <= len(x) <= 8
        and all(_int(h) and 0 <= h < 1 << 31 for h in x)
        and len(set(x)) == len(x)
    )


def record_schema(rec: object) -> None:
    if not (isinstance(rec, list) and rec and _kind(rec[0], RECORD_LEN) and len(rec) == RECORD_LEN[rec[0]]):
        raise _bad("unknown or misshapen record")
    kind = rec[0]
    if kind == "act":
        _action(rec[1])
    elif kind == "commit":
        _b32(rec[1], "commit")
    elif kind in ("sim", "reveal"):
        _need(isinstance(rec[1], list), f"'{kind}' carries a list of actions")
        for a in rec[1]:
            _action(a)
        if kind == "reveal":
            _b32(rec[2], "salt")
    elif kind == "dice":
        _need(_int(rec[1]) and 1 <= rec[1] <= MAX_CHAIN, "dice index out of range")
        _b32(rec[2], "dice value")
    elif kind == "seal":
        _b32(rec[1], "seal")
    elif kind == "react":
        o = rec[1]
        _need(
            isinstance(o, list)
            and len(o) in (3, 4)
            and (len(o) == 3 or _retreat_part(o[3]))
            and o[0] in ("ask", "bot", "pass")
            and o[1] in ("ask", "bot")
            and isinstance(o[2], list)
            and len(o[2]) <= 1000
            and all(_int(u) and 0 <= u < 1 << 31 for u in o[2])
            and o[2] == sorted(set(o[2])),
            "reaction orders must be [intercept mode, landing mode, [unit numbers in increasing order]], "
            "then possibly the retreat order: bot or 1 to 8 distinct hexes",
        )
        _b32(rec[2], "salt")


def schema(body: object) -> None:
    if not (isinstance(body, dict) and _kind(body.get("type"), FIELDS)):
        raise _bad("unknown file type")
    t = body["type"]
    allowed = FIELDS[t] | ({"time"} if t in TIMED else set()) | ({OPTIONAL[t]} if t in OPTIONAL else set())
    _need(FIELDS[t] <= set(body) <= allowed, "missing or unexpected field")
    _need(_int(body["v"]) and body["v"] == 1, "unsupported version")
    _need(isinstance(body["game"], str) and re.fullmatch(r"[0-9a-f]{12}", body["game"]) is not None, "bad game id")
    _need(_int(body["seq"]) and 0 <= body["seq"] <= MAX_SEQ, "seq out of range")
    _b32(body["prev"], "prev")
    _need(body["side"] in SIDES, "bad side")
    _need(
        body["seq"] == {"genesis": 0, "join": 1, "decline": 1}.get(t, max(body["seq"], 2)), "seq does not fit the type"
    )
    if "time" in body:
        _need(_int(body["time"]) and 0 <= body["time"] <= MAX_TIME, "time out of range")
    if t in ("genesis", "join", "handover"):
        _b32(body["anchor"], "anchor")
        _need(_int(body["chain"]) and 1 <= body["chain"] <= MAX_CHAIN, "chain length out of range")
    if t in ("join", "turn", "claim"):
        _b32(body["state"], "state")
    if t == "claim":
        _need(_kind(body["due"], RECORD_LEN), "a claim's due must be a record kind")
        if "dice" in body:
            _b32(body["dice"], "dice")
    if t == "handover":
        _b32(body["key"], "key")
        _need(isinstance(body["accept"], bytes) and len(body["accept"]) == 64, "accept must be 64 bytes")
        _need("email" not in body or (isinstance(body["email"], str) and _email(body["email"])), "email")
    if t == "terms":
        _need(isinstance(body["consent"], bytes) and len(body["consent"]) == 64, "consent must be 64 bytes")
        _need(_int(body["deadline"]) and MIN_DEADLINE <= body["deadline"] <= MAX_DEADLINE, "deadline out of range")
        _need(body.get("silence", "bot") in ("bot", "forfeit"), "silence must be 'bot' or 'forfeit'")
    if t == "genesis":
        _need(body["prev"] == bytes(32), "genesis prev must be zero")
        _text(body["scenario"], "scenario", 64)
        _text(body["engine"], "engine", 64)
        _need(isinstance(body["digest"], str) and re.fullmatch(r"[0-9a-f]{64}", body["digest"]) is not None, "digest")
        opts = body["options"]
        _need(isinstance(opts, dict) and all(isinstance(v, int | str) for v in opts.values()), "options")
        for what in ("keys", "names", "emails"):
            _sides(body[what], what)
        for s in SIDES:
            _b32(body["keys"][s], "key")
            _text(body["names"][s], "name", 64)
            email = body["emails"][s]
            _need(isinstance(email, str) and (not email or _email(email)), "email")
        _need(body["keys"]["axis"] != body["keys"]["allies"], "the two sides' keys must differ")
        if "parent" in body:
            _parent(body["parent"])
    if t == "turn":
        recs = body["records"]
        _need(isinstance(recs, list) and 1 <= len(recs) <= MAX_RECORDS, "1 to 20000 records")
        for rec in recs:
            record_schema(rec)
        marks = body.get("standing", [0])
        _need(
            isinstance(marks, list)
            and len(marks) > 0
            and all(_int(i) and 0 <= i < len(recs) for i in marks)
            and all(a < b for a, b in itertools.pairwise(marks)),
            "standing must list record positions in increasing order",
        )


def _parent(x: object) -> None:
    if not (isinstance(x, dict) and set(x) == {"game", "seq", "file", "state"}):
        raise _bad("'parent' names game, seq, file, state")
    _need(isinstance(x["game"], str) and re.fullmatch(r"[0-9a-f]{12}", x["game"]) is not None, "bad parent game id")
    _need(_int(x["seq"]) and 1 <= x["seq"] <= MAX_SEQ, "parent seq out of range")
    _b32(x["file"], "parent file")
    _b32(x["state"], "parent state")


def _email(text: str) -> bool:
    return len(text) <= 254 and _ADDRESS.fullmatch(text) is not None


# -- a game: arrival, chain of files, protocol without the engine ---------------------------------------


def other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


class Pending(TypedDict, total=False):
    """The protocol step in progress (section 6): its ``step`` (``clear``: a commitment awaits
    the other side's list; ``played``: the bot's list for a silent side, awaiting the other
    side's; ``reveal``; ``dice``: a roll's first value awaits the second) and what it needs."""

    step: str
    committer: str  # clear, played, reveal: the side that committed
    commit: bytes  # the commitment
    seq: int  # the file of the commitment
    trigger_author: str  # dice: the side that made the roll current
    trigger_seq: int  # and its file
    first: bytes  # dice: the first value given


@dataclass
class Game:
    """What the document lets a receiver track without the engine."""

    genesis: File
    hashes: list[bytes] = field(default_factory=list)
    chain: dict[str, bytes] = field(default_factory=dict)
    k: int = 0
    last_author: str = ""
    last_seq: int = 1
    pending: Pending | None = None
    seeds: list[bytes] = field(default_factory=list)
    state_hashes: int = 0
    offer: str = ""  # the side whose draw offer is open
    # Why no record may follow: a resignation, a draw, a declined invitation, a forfeit.
    ended: str = ""
    keys: dict[str, bytes] = field(default_factory=dict)  # in force: a hand-over replaces one
    deadline: int = 0  # seconds per decision; 0: the game has no deadline
    clock: int = 0  # the time of the last file
    reminded: bool = False  # the last file is a reminder claim
    silence: str = ""  # the silence rule new terms set; "": the genesis's
    now: int = 0  # the receiver's clock: no file may be dated more than TOLERANCE after it
    state: bytes = b""  # the state hash of the last file that carries one
    seen: list[bytes] = field(default_factory=list)  # every anchor and dice value so far
    seals: dict[str, tuple[bytes, int]] = field(default_factory=dict)  # reaction orders sealed: (digest, seq)
    # The last author and file before the record just made, when that record is a react: a
    # react just before its author's first dice value leaves them as they were (section 5.8).
    before_react: tuple[str, int] | None = None

    @property
    def gid(self) -> str:
        return str(self.genesis.body["game"])

    def key(self, side: str) -> bytes:
        return self.keys[side] if self.keys else bytes(self.genesis.body["keys"][side])


def check_genesis(f: File) -> None:
    b = f.body
    if b["type"] != "genesis":
        raise Refused("no-genesis", "the first file of a game must be its genesis")
    if not signature_ok(b["keys"][b["side"]], f.signature, f.body_bytes):
        raise Refused("signature", "the genesis is not signed by its creator's key")
    pins = PINNED.get(b["scenario"], ())
    if pins and b["engine"] != pins[0][0]:
        raise Refused("engine-version", f"the game needs engine {b['engine']}, the pinned one is {pins[0][0]}")
    if _pin(b["scenario"], b["digest"]) is None:
        raise Refused("scenario-digest", "the scenario or its digest is not a pinned one")
    terms(b["options"])


def _pin(scenario: object, digest: object) -> tuple[str, str, str] | None:
    """The pinned values of a scenario on the packaged map its digest names, if any."""
    return next((pin for pin in PINNED.get(str(scenario), ()) if pin[1] == digest), None)


def terms(options: Mapping[str, object]) -> tuple[int, str] | None:
    """(deadline, silence) of a genesis's options; the pinned engine defines no options of its
    own, and the level asked of a computer opponent (section 6.1) is one whole number."""
    if "level" in options:
        level = options["level"]
        if not _int(level) or not 1 <= level <= 4:
            raise Refused("options", "'level' must be a whole number from 1 to 4")
        options = {k: v for k, v in options.items() if k != "level"}
    if not options:
        return None
    d, s = options.get("deadline", 0), options.get("silence")
    if set(options) != {"deadline", "silence"} or not _int(d) or not MIN_DEADLINE <= d <= MAX_DEADLINE:
        raise Refused(
            "options", "the only options are 'deadline' (3600 to 31622400 seconds) with 'silence', and 'level'"
        )
    if s not in ("bot", "forfeit"):
        raise Refused("options", "'silence' must be 'bot' or 'forfeit'")
    return int(d), str(s)


def start(genesis: File, join: File, now: int) -> Game:
    b = join.body
    game = Game(genesis, now=now)
    game.keys = {s: bytes(genesis.body["keys"][s]) for s in SIDES}
    t = terms(genesis.body["options"])
    game.deadline = 0 if t is None else t[0]
    _link(game, join, [genesis.hash])
    if b["side"] != other(genesis.side):
        raise Refused("join-side", "the join file must come from the side that did not create the game")
    if b["type"] == "decline":
        _timing(game, join)
        game.hashes = [genesis.hash, join.hash]
        game.ended = f"{join.side} declined the invitation"
        return game
    parent = genesis.body.get("parent")
    pin = _pin(genesis.body["scenario"], genesis.body["digest"])  # found by check_genesis
    start_state = parent["state"].hex() if parent is not None else "" if pin is None else pin[2]
    if b["state"].hex() != start_state:
        raise Refused("join-state", "the join file's starting state is not the pinned one (or the branch's)")
    _timing(game, join)
    game.hashes = [genesis.hash, join.hash]
    game.chain = {genesis.side: genesis.body["anchor"], join.side: b["anchor"]}
    game.state = b["state"]
    game.seen = [genesis.body["anchor"], b["anchor"]]
    game.last_author, game.last_seq = join.side, 1
    game.clock = b.get("time", 0)
    return game


def _link(game: Game, f: File, hashes: list[bytes]) -> None:
    if f.body["game"] != game.gid:
        raise Refused("wrong-game", f"the file belongs to game {f.body['game']}, not {game.gid}")
    if not signature_ok(game.key(f.side), f.signature, f.body_bytes):
        raise Refused("signature", f"the signature is not the {f.side} key's")
    if f.body["prev"] != hashes[-1]:
        raise Refused("prev-mismatch", "prev is not the hash of the file before it")


def _timing(game: Game, f: File) -> None:
    """Section 7.1, step 7, after the link (and a join's side and state): a claim or new
    terms need a deadline, and the file's time (section 12.2)."""
    if f.body["type"] == "claim" and not game.deadline:
        raise Refused("claim-no-deadline", "a claim in a game without a deadline")
    if f.body["type"] == "terms" and not game.deadline:
        raise Refused("terms-no-deadline", "new terms in a game without a deadline")
    if ("time" in f.body) != (game.deadline != 0):
        raise Refused("time", "a file carries a time exactly when its game has a deadline")
    if f.body.get("time", game.clock) < game.clock:
        raise Refused("time", "the file's time is earlier than the time of the file before it")
    if f.body.get("time", 0) > game.now + TOLERANCE:
        raise Refused("time", f"the file is dated more than {TOLERANCE} seconds after this receiver's clock")


def apply_turn(game: Game, f: File) -> None:
    _link(game, f, game.hashes)
    _timing(game, f)
    if game.ended:
        raise Refused("game-over", f"a file after the end of the game ({game.ended})")
    t = f.body["type"]
    # Whether the file's records leave the engine's state as it was (section 8): its state
    # hash is then the last one, which needs no engine to check.
    unchanged = False
    if t == "claim":
        _claim(game, f)
        unchanged = game.reminded  # a reminder (every claim for a program's record is one) changes no state
    elif t == "handover":
        _handover(game, f)
    elif t == "terms":
        if not verifies(game.key(other(f.side)), f.body["consent"], terms_message(f.body)):
            raise Refused("terms-consent", "the new terms are not signed by the other side")
        game.deadline = f.body["deadline"]
        game.silence = f.body.get("silence", game.silence)
    else:
        # A list, not a generator: every record is applied, not only those up to a change.
        unchanged = all([_record(game, f.side, f.seq, rec) for rec in f.body["records"]])
    if "state" in f.body:
        if unchanged and f.body["state"] != game.state:
            raise Refused("state-mismatch", "records that leave the state unchanged, under another state hash")
        game.state_hashes += not unchanged
        game.state = f.body["state"]
    if t != "claim":
        game.reminded = False
    game.clock = f.body.get("time", game.clock)
    game.hashes.append(f.hash)


def terms_message(b: Mapping[str, object]) -> bytes:
    # The optional field is signed after the others when present; without it, the bytes of old.
    extra = [b["silence"]] if "silence" in b else []
    return b"pbem/terms/v1\x00" + pack([b["game"], b["seq"], b["prev"], b["deadline"], *extra])


def handover_message(b: Mapping[str, object]) -> bytes:
    extra = [b["email"]] if "email" in b else []
    return b"pbem/handover/v1\x00" + pack(
        [b["game"], b["seq"], b["prev"], b["side"], b["key"], b["anchor"], b["chain"], *extra]
    )


def _claim(game: Game, f: File) -> None:
    b, claimant = f.body, f.side
    silent = other(claimant)
    p, due = game.pending, b["due"]
    # Where a protocol step is open the document alone says who owes what; elsewhere only the engine does.
    owed = None
    if p is not None and p["step"] == "dice":
        owed = (p["trigger_author"], "dice")
    elif p is not None:
        owed = (p["committer"], "reveal") if p["step"] == "reveal" else (other(p["committer"]), "sim")
    if owed is not None and owed != (silent, due):
        raise Refused("claim-not-due", f"the game awaits '{owed[1]}' from {owed[0]}")
    if due == "dice" and p is None and silent == game.last_author:
        raise Refused("claim-not-due", "the first dice value of a roll is not the last author's")
    if due == "reveal" and p is None:
        raise Refused("claim-not-due", "nothing is committed, so no reveal is due")
    if b["time"] < game.clock + game.deadline:
        raise Refused("claim-early", "the claim is dated before the deadline")
    # A claim for what a program writes by itself (a dice value, a reveal) is never final.
    final = game.reminded and due not in ("dice", "reveal")
    mode = terms(game.genesis.body["options"])
    assert mode is not None
    bot = final and (game.silence or mode[1]) == "bot"
    if ("dice" in b) != bot:
        raise Refused("claim-dice", "a final claim under the bot rule carries the claimant's dice value; no other")
    game.reminded = not final
    if not final:
        return  # a reminder: nothing changes but the clock
    if not bot:
        game.ended = f"{silent} forfeited in file {f.seq}"
        return
    # The value seeds the bot and is spent: it is checked like a dice value.
    if step(b["dice"]) != game.chain[claimant]:
        raise Refused("dice-chain", f"{claimant}'s dice value in the claim does not hash to its previous chain value")
    game.chain[claimant] = b["dice"]
    # The bot plays the silent side's decision: its records count as the silent side's.
    if due == "commit":
        game.pending = {"step": "played", "committer": silent}
    elif due == "sim" and p is not None:
        p["step"] = "reveal"
    game.last_author, game.last_seq = silent, f.seq


def _handover(game: Game, f: File) -> None:
    b, side = f.body, f.side
    p = game.pending
    # While a commitment or a roll is open the document says who owes what: a hand-over
    # may come only from the side whose clear list is due (a sim).
    if p is not None and (p["step"] in ("reveal", "dice") or p["committer"] == side):
        raise Refused("handover-not-open", f"{side} is not the side to decide while a {p['step']} is due")
    if bytes(b["key"]) in game.keys.values():
        raise Refused("handover-key", "the new key already plays in this game")
    if not verifies(bytes(b["key"]), b["accept"], handover_message(b)):
        raise Refused("handover-accept", "the new key has not countersigned the hand-over")
    if b["anchor"] in game.seen:
        raise Refused("handover-anchor", "the new dice chain starts at an anchor or value seen in this game")
    game.keys[side] = bytes(b["key"])
    game.chain[side] = b["anchor"]
    game.seen.append(b["anchor"])


def _record(game: Game, author: str, seq: int, rec: list[Any]) -> bool:
    """Check and apply one record; whether it leaves the engine's state unchanged (section 8:
    a commitment, the clear list after it, the first dice value of a roll, an ending record,
    a seal)."""
    p, kind = game.pending, rec[0]
    before_react, game.before_react = game.before_react, None
    unchanged = kind in ("commit", *ENDINGS) or (p is None and kind == "dice")
    unchanged |= p is not None and p["step"] == "clear" and kind == "sim"

    def order(ok: bool, what: str) -> None:
        if not ok:
            raise Refused("record-out-of-turn", f"'{kind}' from {author} where {what} is awaited")

    if game.ended:
        raise Refused("game-over", f"'{kind}' after the end of the game ({game.ended})")
    if kind in ENDINGS:
        _ending(game, author, seq, kind, order)
        return True
    if kind == "seal":
        # First in its file only where its side is due (an open step tells; elsewhere the engine).
        if (game.last_author, game.last_seq) != (author, seq) and p is not None:
            order(author == _due(p), f"a record of {_due(p)}")
        game.seals[author] = (rec[1], seq)
        return True
    if p is not None and p["step"] == "played":
        order(kind == "sim" and author != p["committer"], f"the other side's list after the bot's for {p['committer']}")
        game.pending = None
    elif p is not None and p["step"] == "clear":
        order(kind == "sim" and author != p["committer"], f"the other side's list after {p['committer']}'s commitment")
        p["step"] = "reveal"
    elif p is not None and p["step"] == "reveal":
        order(kind == "reveal" and author == p["committer"], f"{p['committer']}'s reveal")
        if not hmac.compare_digest(p["commit"], commitment(game.gid, p["seq"], author, rec[1], rec[2])):
            raise Refused("reveal-mismatch", "the reveal does not open the commitment")
        game.pending = None
    elif p is not None and p["step"] == "dice":
        order(kind == "dice" and author == p["trigger_author"], f"{p['trigger_author']}'s dice value")
        _dice(game, author, rec[1], rec[2])
        values = {author: rec[2], other(author): p["first"]}
        game.seeds.append(seed(game.gid, game.k + 1, game.hashes[p["trigger_seq"]], values["axis"], values["allies"]))
        game.k += 1
        game.pending = None
    elif kind == "commit":
        order(author == game.last_author, "a record of the side that made the decision current")
        game.pending = {"step": "clear", "committer": author, "commit": rec[1], "seq": seq}
    elif kind == "reveal":
        order(False, "no reveal (nothing is committed)")
    elif kind == "react":
        sealed = game.seals.pop(author, None)
        if sealed is None or sealed[1] >= seq:
            raise Refused("react-not-sealed", f"{author}'s reaction orders were not sealed in an earlier file")
        if not hmac.compare_digest(sealed[0], seal_digest(game.gid, sealed[1], author, rec[1], rec[2])):
            raise Refused("react-mismatch", f"the reaction orders do not open {author}'s seal of file {sealed[1]}")
        game.before_react = (game.last_author, game.last_seq)
    elif kind == "dice":
        trigger = (game.last_author, game.last_seq)
        if before_react is not None and trigger == (author, seq):
            trigger = before_react  # a react just before the author's first value is not the trigger
        order(author != trigger[0], "the first dice value from the side that did not trigger the roll")
        _dice(game, author, rec[1], rec[2])
        # The roll was made current by the record just before this one (or by the join file).
        game.pending = {"step": "dice", "trigger_author": trigger[0], "trigger_seq": trigger[1], "first": rec[2]}
    game.last_author, game.last_seq = author, seq
    return unchanged


def _due(p: Pending) -> str:
    """The side whose record an open step awaits next."""
    if p["step"] in ("clear", "played"):
        return other(p.get("committer", ""))
    return str(p.get("committer") if p["step"] == "reveal" else p.get("trigger_author"))


def _ending(game: Game, author: str, seq: int, kind: str, order: Callable[[bool, str], None]) -> None:
    """An ending record (section 5.5): it changes neither the step in progress, nor the last
    author, nor the last file."""
    p = game.pending
    if p is not None:
        # While a commitment or a roll is open, the one side its next record is due from.
        order(author == _due(p), f"a record of {_due(p)}")
        # The bot's list for a silent side was played in the clear: nothing is hidden then.
        order(
            kind != "accept-draw" or p["step"] == "played",
            "the opening of the commitment or roll in progress (no acceptance before it)",
        )
    if kind == "resign":
        game.ended = f"{author} resigned in file {seq}"
    elif kind == "offer-draw":
        if game.offer:
            raise Refused("draw-offer", f"{game.offer} has a draw offer open already")
        game.offer = author
    elif kind == "withdraw-draw":
        if game.offer != author:
            raise Refused("draw-offer", f"{author} has no draw offer open")
        game.offer = ""
    else:
        if game.offer != other(author):
            raise Refused("draw-offer", f"{author} answers a draw offer nobody made to it")
        game.offer = ""
        if kind == "accept-draw":
            game.ended = f"drawn by agreement in file {seq}"


def _dice(game: Game, author: str, index: int, value: bytes) -> None:
    if index != game.k + 1:
        raise Refused("dice-index", f"dice value for event {index}, but event {game.k + 1} is being rolled")
    if step(value) != game.chain[author]:
        raise Refused("dice-chain", f"{author}'s dice value does not hash to its previous chain value")
    game.chain[author] = value
    game.seen.append(value)


@dataclass
class Verdict:
    valid: bool
    first_bad: int | None
    reason: str | None
    lines: list[str]
    seeds: list[bytes]
    unchecked: int  # state hashes that only the engine can check

    branch: bool = False  # a branch: its starting position is the parent's, unchecked here

    def summary(self) -> str:
        if not self.valid:
            return f"INVALID: file {self.first_bad}: {self.reason}"
        parent = "; nor the branch's starting position (the parent game's files and the engine)" if self.branch else ""
        return (
            f"valid as far as the document can check without the engine; {len(self.seeds)} roll seed(s) computed; "
            f"NOT checked: the legality of actions, the order of decisions and {self.unchecked} state hash(es)"
            f"{parent}"
        )


class Receiver:
    """Files of one game in arrival order, handled the way the document's receiver must."""

    def __init__(self, now: int) -> None:
        self.now = now
        self.game: Game | None = None
        self.genesis: File | None = None
        self.join: File | None = None
        self.accepted: dict[int, File] = {}
        self.after: dict[int, Game] = {}  # the game after each accepted file (never changed again)
        self.waiting: dict[int, tuple[int, File]] = {}  # seq -> (arrival index, file)
        self.lines: list[str] = []
        self.bad: dict[int, str] = {}

    def head(self) -> int:
        return max(self.accepted) if self.accepted else -1

    def receive(self, index: int, data: bytes) -> None:
        try:
            self._receive(index, parse(data))
        except Refused as exc:
            self.bad[index] = exc.slug
            self.lines.append(f"file {index}: refused ({exc.slug}): {exc}")

    def _receive(self, index: int, f: File) -> None:
        if self.genesis is None:
            check_genesis(f)
            self.genesis = self.accepted[0] = f
            self.lines.append(f"file {index}: genesis of game {f.body['game']} accepted")
            return
        g = self.genesis
        if f.body["game"] != g.body["game"]:
            raise Refused("wrong-game", f"the file belongs to game {f.body['game']}, not {g.body['game']}")
        same = self.accepted.get(f.seq)
        if same is not None and (same.body_bytes, same.signature) == (f.body_bytes, f.signature):
            # The very bytes accepted already: a duplicate, even if their key was handed over since.
            self.lines.append(f"file {index}: duplicate of file {f.seq}: nothing to do")
            return
        if not signature_ok(
            self.game.key(f.side) if self.game else bytes(g.body["keys"][f.side]), f.signature, f.body_bytes
        ):
            raise Refused("signature", f"the signature is not the {f.side} key's")
        held = self.accepted.get(f.seq) or (self.waiting[f.seq][1] if f.seq in self.waiting else None)
        if held is not None:
            if held.hash == f.hash:
                self.lines.append(f"file {index}: duplicate of file {f.seq}: nothing to do")
                return
            if held.side == f.side:
                raise Refused("equivocation", f"{f.side} signed two different files for position {f.seq}")
            if f.body["type"] == "claim" and self._in_time(held):
                raise Refused(
                    "claim-crossed", f"the claim crossed {held.side}'s file {f.seq}, sent in time: it is void"
                )
            raise Refused("position-taken", f"position {f.seq} is already filled by the other side")
        if f.seq > self.head() + 1:
            if len(self.waiting) >= MAX_WAITING:
                raise Refused("gap", f"{MAX_WAITING} files wait for file {self.head() + 1} already")
            self.waiting[f.seq] = (index, f)
            self.lines.append(f"file {index}: kept until file {self.head() + 1} arrives")
            return
        self._apply(f)
        self.lines.append(f"file {index}: file {f.seq} accepted")
        while self.head() + 1 in self.waiting:
            wi, wf = self.waiting.pop(self.head() + 1)
            try:
                self._apply(wf)
                self.lines.append(f"file {wi}: file {wf.seq} accepted once the gap filled")
            except Refused as exc:
                self.bad[wi] = exc.slug
                self.lines.append(f"file {wi}: dropped once the gap filled ({exc.slug}): {exc}")
                break

    def _in_time(self, held: File) -> bool:
        """An accepted file dated before the deadline of its position (section 12.3)."""
        before = self.after.get(held.seq - 1)
        t = held.body.get("time")
        return before is not None and before.deadline > 0 and t is not None and t < before.clock + before.deadline

    def _apply(self, f: File) -> None:
        assert self.genesis is not None
        if f.seq == 1:
            self.game = start(self.genesis, f, self.now)
        else:
            assert self.game is not None  # file 1 (the join) is always applied before file 2
            trial = _copy(self.game)
            apply_turn(trial, f)
            self.game = trial
        self.accepted[f.seq] = f
        self.after[f.seq] = self.game

    def verdict(self) -> Verdict:
        for wi, _ in self.waiting.values():
            self.bad.setdefault(wi, "gap")
        first = min(self.bad) if self.bad else None
        g = self.game
        return Verdict(
            first is None,
            first,
            None if first is None else self.bad[first],
            self.lines,
            g.seeds if g else [],
            g.state_hashes if g else 0,
            self.genesis is not None and "parent" in self.genesis.body,
        )


def _copy(game: Game) -> Game:
    pending = None if game.pending is None else game.pending.copy()
    return replace(
        game,
        hashes=list(game.hashes),
        chain=dict(game.chain),
        pending=pending,
        seeds=list(game.seeds),
        keys=dict(game.keys),
        seen=list(game.seen),
        seals=dict(game.seals),
    )


def verify(files: list[bytes], now: int | None = None) -> Verdict:
    """Verify one game's files given in arrival order, by a receiver whose clock reads ``now``
    (seconds since 1970; the computer's clock when not given)."""
    rx = Receiver(int(time.time()) if now is None else now)
    for i, data in enumerate(files):
        rx.receive(i, data)
    return rx.verdict()


def read_paths(paths: list[Path]) -> list[tuple[str, bytes]]:
    """The files named (a directory stands for its ``.pbem`` files in name order), read with a bound."""
    out: list[tuple[str, bytes]] = []
    for path in paths:
        for p in sorted(path.glob("*.pbem")) if path.is_dir() else [path]:
            with p.open("rb") as f:
                out.append((p.name, f.read(MAX_FILE + 1)))
    return out
