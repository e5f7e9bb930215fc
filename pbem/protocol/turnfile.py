"""The signed turn file: layout, strict bounded parsing, signing.

Layout (all integers big-endian)::

    magic      17 bytes  b"pbem turn file 1\\n"
    length      4 bytes  length of body
    body       length    canonical msgpack map (see below)
    signature  64 bytes  Ed25519 over b"pbem/sign/v1\\0" + body

The file hash, which the next file names as ``prev``, is
``sha256(pack(["pbem/file/v1", body]))``; it covers the body only, so the
signature's encoding can never make one content look like two files.

Body fields by ``type`` (no other field is accepted):

    every file: v=1, type, game (12 hex), seq, prev (32 bytes), side
    genesis   : scenario, digest, engine, options, keys, names, emails, anchor, chain,
                and for a branch of another game: parent {game, seq, file, state}
    join      : anchor, chain, state
    turn      : records, state
    decline   : nothing more (the invited player's refusal, in the join's place)
    claim     : time, due, state [, dice]     (a missed deadline: pbem/protocol/deadlines.py)
    handover  : key, anchor, chain, accept    (a side passes to a new key: pbem/protocol/handover.py)
    terms     : deadline, consent             (a deadline both players signed)

join, turn, handover and terms files carry ``time`` exactly when the game has a
deadline (that is checked against the genesis, not here).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, cast

from pbem.errors import PbemError
from pbem.protocol import clock, records, wire
from pbem.protocol.address import is_address
from pbem.protocol.hashing import D_FILE, D_SIGN, h
from pbem.protocol.records import MAX_CHAIN, Record, bin32, is_int, malformed

MAGIC = b"pbem turn file 1\n"
SIG_LEN = 64
MAX_FILE = 4 * 1024 * 1024
VERSION = 1
SIDES = ("axis", "allies")
GID_RE = re.compile(r"^[0-9a-f]{12}$")
MAX_RECORDS = 20_000
#: Signs a message with a side's key: ``sign(message) -> 64 bytes`` (pbem/protocol/identity.py).
Sign = Callable[[bytes], bytes]

_COMMON = {"v", "type", "game", "seq", "prev", "side"}
FIELDS = {
    "genesis": _COMMON | {"scenario", "digest", "engine", "options", "keys", "names", "emails", "anchor", "chain"},
    "join": _COMMON | {"anchor", "chain", "state"},
    "turn": _COMMON | {"records", "state"},
    "decline": _COMMON,
    "claim": _COMMON | {"time", "due", "state"},
    "handover": _COMMON | {"key", "anchor", "chain", "accept"},
    "terms": _COMMON | {"deadline", "consent"},
}
#: The one optional field of a type besides ``time`` (a genesis's is ``parent``): the new
#: holder's address in a hand-over, a new silence rule in new terms, the claimant's dice-chain
#: value in a final claim under the bot rule, and which records of a turn its side's standing
#: orders gave (informational: the rules ignore it).
OPTIONAL = {"handover": "email", "terms": "silence", "claim": "dice", "turn": "standing"}
#: Types whose ``time`` is present exactly in games with a deadline.
TIMED = ("join", "turn", "handover", "terms")
#: What a claim may say the silent side owes: the record kinds.
DUE = records.KINDS


def other(side: str) -> str:
    return "allies" if side == "axis" else "axis"


def filename(game: str, seq: int, side: str) -> str:
    return f"{game}-{seq:05d}-{side}.pbem"


@dataclass(frozen=True)
class TurnFile:
    body: dict[str, Any]
    body_bytes: bytes
    signature: bytes
    raw: bytes
    records: tuple[Record, ...] = ()  # a turn file's, read once from ``body["records"]``

    @property
    def hash(self) -> bytes:
        return h(D_FILE, self.body_bytes)

    @property
    def type(self) -> str:
        return cast(str, self.body["type"])

    @property
    def game(self) -> str:
        return cast(str, self.body["game"])

    @property
    def seq(self) -> int:
        return cast(int, self.body["seq"])

    @property
    def side(self) -> str:
        return cast(str, self.body["side"])

    @property
    def prev(self) -> bytes:
        return cast(bytes, self.body["prev"])

    @property
    def name(self) -> str:
        return filename(self.game, self.seq, self.side)

    def verify_signature_ok(self, public_raw: bytes) -> bool:
        from pbem.protocol.identity import PublicKey

        return PublicKey("x", "", public_raw).verify(self.signature, D_SIGN + self.body_bytes)

    def verify_signature(self, public_raw: bytes) -> None:
        if not self.verify_signature_ok(public_raw):
            raise PbemError(f"{self.name}: the signature is not valid for the {self.side} player's key", "signature")


def seal(body: Mapping[str, object], sign: Sign) -> TurnFile:
    """Encode ``body`` canonically and sign it with ``sign(message) -> 64 bytes``."""
    validate(body)  # refuse to sign what no receiver would accept
    body_bytes = wire.pack(body)
    if len(body_bytes) + len(MAGIC) + 4 + SIG_LEN > MAX_FILE:
        raise PbemError("the turn is too large for one file", "usage")
    signature = sign(D_SIGN + body_bytes)
    raw = MAGIC + len(body_bytes).to_bytes(4, "big") + body_bytes + signature
    sealed = wire.unpack(body_bytes)
    return TurnFile(sealed, body_bytes, signature, raw, validate(sealed))


def parse(data: bytes) -> TurnFile:
    """Parse untrusted bytes into a structurally valid (not yet authenticated) turn file."""
    if len(data) > MAX_FILE:
        raise PbemError(f"the file is larger than the {MAX_FILE // 1024 // 1024} MiB a turn file may have", "parse")
    if not data.startswith(MAGIC):
        raise PbemError("this is not a pbem turn file (wrong magic bytes)", "parse")
    if len(data) < len(MAGIC) + 4 + SIG_LEN:
        raise PbemError("the turn file is truncated", "parse")
    n = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "big")
    start = len(MAGIC) + 4
    if start + n + SIG_LEN != len(data):
        raise PbemError("the turn file's declared length does not match its size", "parse")
    body_bytes = data[start : start + n]
    body = wire.unpack(body_bytes, wire.Limits(max_bytes=MAX_FILE))
    return TurnFile(body, body_bytes, data[start + n :], data, validate(body))


def join_files(files: list[TurnFile]) -> bytes:
    """Whole turn files one after the other: each is delimited by its own length field."""
    return b"".join(tf.raw for tf in files)


def split_files(data: bytes, where: str) -> list[TurnFile]:
    """The turn files :func:`join_files` put together (each parsed, none authenticated)."""
    files, at, head = [], 0, len(MAGIC) + 4
    while at < len(data):
        size = head + int.from_bytes(data[at + head - 4 : at + head], "big") + SIG_LEN
        try:
            files.append(parse(data[at : at + size]))
        except PbemError as exc:
            raise PbemError(f"{where}: a file in it is damaged: {exc}", "parse") from None
        at += size
    return files


def read(path: Path) -> TurnFile:
    """Read and parse a file, turning every I/O problem into one line."""
    return parse_named(load(path), path.name)


def load(path: Path) -> bytes:
    """A file's bytes, at most one past the largest turn file (so that a larger file is
    refused by its size, not cut); every I/O problem one line."""
    try:
        if path.is_dir():
            raise PbemError(f"{path.name} is a directory, not a turn file", "parse")
        with path.open("rb") as f:
            return f.read(MAX_FILE + 1)
    except OSError as exc:
        raise PbemError(f"cannot read {path.name}: {exc.strerror}", "io") from None


def parse_named(data: bytes, name: str) -> TurnFile:
    """:func:`parse`, its refusals naming the file ``name``."""
    if not data:
        raise PbemError(f"{name} is empty", "parse")
    try:
        return parse(data)
    except PbemError as exc:
        raise PbemError(f"{name}: {exc}", exc.code, exc.rule) from None


# -- schema -------------------------------------------------------------------


def _text(x: object, what: str, limit: int) -> None:
    if not isinstance(x, str) or len(x) > limit:
        raise malformed(f"'{what}' must be a string of at most {limit} characters")


def _email(x: object) -> None:
    # An invitation's addresses are where turn files will be mailed: one plain address each.
    if not isinstance(x, str) or (x and not is_address(x)):
        raise malformed("'email' must be empty or one plain e-mail address")


def _sig(x: object, what: str) -> None:
    if not isinstance(x, bytes) or len(x) != SIG_LEN:
        raise malformed(f"'{what}' must be a 64-byte signature")


def _side_map(x: object, what: str, check: Callable[[object], object]) -> None:
    if not isinstance(x, dict) or set(x) != set(SIDES):
        raise malformed(f"'{what}' must name exactly 'axis' and 'allies'")
    for v in x.values():
        check(v)


class Parent(TypedDict):
    """Where a branch starts (a genesis' ``parent``): after file ``seq`` of game ``game``,
    whose hash is ``file``, in the state whose hash is ``state``."""

    game: str
    seq: int
    file: bytes
    state: bytes


def _parent(x: object) -> None:
    # A branch names the position it starts from: file ``seq`` of game ``game``, by its hash,
    # and the state hash after it.
    if not isinstance(x, dict) or set(x) != {"game", "seq", "file", "state"}:
        raise malformed("'parent' must name exactly game, seq, file and state")
    if not isinstance(x["game"], str) or not GID_RE.match(x["game"]):
        raise malformed("the parent's game id must be 12 lowercase hex characters")
    if not is_int(x["seq"]) or not 1 <= x["seq"] < 10**5:
        raise malformed("the parent's file number is out of range")
    bin32(x["file"], "parent file")
    bin32(x["state"], "parent state")


def validate(body: object) -> tuple[Record, ...]:
    """Check fields, types and bounds of a decoded body (never its meaning); returns the
    records a turn file carries (none for the other types)."""
    try:
        return _validate(body)
    except (TypeError, KeyError, ValueError, AttributeError):  # belt and braces: a type we did not foresee
        raise malformed("a field has the wrong type") from None


def _validate(body: object) -> tuple[Record, ...]:
    if not isinstance(body, dict) or not isinstance(body.get("type"), str) or body["type"] not in FIELDS:
        raise malformed("unknown file type")
    t = body["type"]
    fields = FIELDS[t] | ({"time"} if t in TIMED and "time" in body else set())
    fields |= {"parent"} if t == "genesis" and "parent" in body else set()
    fields |= {OPTIONAL[t]} if t in OPTIONAL and OPTIONAL[t] in body else set()
    if set(body) != fields:
        extra = sorted(set(body) - fields)
        raise malformed(f"unexpected field '{extra[0][:30]}'" if extra else "a required field is missing")
    if body["v"] != VERSION or isinstance(body["v"], bool):
        raise malformed(f"format version {str(body['v'])[:10]} is not supported")
    if not isinstance(body["game"], str) or not GID_RE.match(body["game"]):
        raise malformed("the game id must be 12 lowercase hex characters")
    if not is_int(body["seq"]) or not 0 <= body["seq"] < 10**5:
        raise malformed("the sequence number is out of range")
    bin32(body["prev"], "prev")
    if not isinstance(body["side"], str) or body["side"] not in SIDES:
        raise malformed("the side must be 'axis' or 'allies'")
    expect_seq = {"genesis": 0, "join": 1, "decline": 1}.get(t)
    if expect_seq is not None and body["seq"] != expect_seq:
        raise malformed(f"a {t} file has sequence number {expect_seq}")
    if t not in ("genesis", "join", "decline") and body["seq"] < 2:
        raise malformed(f"a {t} file has a sequence number of 2 or more")
    if "time" in body and (not is_int(body["time"]) or not 0 <= body["time"] <= clock.MAX_TIME):
        raise malformed("the time is out of range")
    if t in ("genesis", "join", "handover"):
        bin32(body["anchor"], "anchor")
        if not is_int(body["chain"]) or not 1 <= body["chain"] <= MAX_CHAIN:
            raise malformed("the dice chain length is out of range")
    if t in ("join", "turn", "claim"):
        bin32(body["state"], "state")
    if t == "claim" and body["due"] not in DUE:
        raise malformed("a claim's 'due' must name a record kind")
    if t == "claim" and "dice" in body:
        bin32(body["dice"], "dice")
    if t == "handover":
        bin32(body["key"], "key")
        _sig(body["accept"], "accept")
        if "email" in body and (not isinstance(body["email"], str) or not is_address(body["email"])):
            raise malformed("a hand-over's 'email' must be one plain e-mail address")
    if t == "terms":
        _sig(body["consent"], "consent")
        if not is_int(body["deadline"]) or not clock.MIN_DEADLINE <= body["deadline"] <= clock.MAX_DEADLINE:
            raise malformed("the deadline is out of range")
        if "silence" in body and body["silence"] not in clock.SILENCE_MODES:
            raise malformed("the silence rule must be 'bot' or 'forfeit'")
    if t == "genesis":
        if body["prev"] != bytes(32):
            raise malformed("genesis has no previous file")
        _text(body["scenario"], "scenario", 64)
        _text(body["engine"], "engine", 64)
        if not isinstance(body["digest"], str) or not re.fullmatch(r"[0-9a-f]{64}", body["digest"]):
            raise malformed("the scenario digest must be 64 hex characters")
        opts = body["options"]
        if not isinstance(opts, dict) or any(not isinstance(v, int | str) for v in opts.values()):
            raise malformed("options must map names to integers, strings or booleans")
        _side_map(body["keys"], "keys", lambda v: bin32(v, "key"))
        _side_map(body["names"], "names", lambda v: _text(v, "name", 64))
        _side_map(body["emails"], "emails", _email)
        if body["keys"]["axis"] == body["keys"]["allies"]:
            raise malformed("the two sides must have different keys")
        if "parent" in body:
            _parent(body["parent"])
    if t != "turn":
        return ()
    recs = body["records"]
    if not isinstance(recs, list) or not recs or len(recs) > MAX_RECORDS:
        raise malformed("a turn file carries between 1 and 20000 records")
    if "standing" in body:
        marks = body["standing"]
        if (
            not isinstance(marks, list)
            or not marks
            or not all(is_int(i) and 0 <= i < len(recs) for i in marks)
            or any(a >= b for a, b in itertools.pairwise(marks))
        ):
            raise malformed("'standing' must list record positions of the file, in increasing order")
    return tuple(records.from_wire(r) for r in recs)
