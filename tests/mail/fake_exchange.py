"""A small file-backed stand-in for pbem.play.exchange, with the same two functions.

It keeps the promises the daemon relies on — a file already applied is a
"duplicate", a file ahead of its predecessor is "stored" and applied when the
gap closes, a mangled file is "rejected", and applying is durable and one step
with the answer it calls for (the real store's transaction) — so the mail layer
can be tested before, and independently of, the real game layer. Its durable
steps are crash points of the kill tests, like the daemon's.
Sides alternate: odd sequence numbers are axis files, even ones allies files.

State lives in ``<workspace>/.fake/``: ``games.json`` (who plays what) and
``ledger.json`` (every applied file, in order). The ledger is what the tests
inspect for "nothing lost, nothing applied twice". Like the real game store,
each call holds a lock on the workspace, so several worker processes may share
one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pbem.mail.message import parse_turn_name
from pbem.mail.store import crash_point, write_atomic
from pbem.store.durable import flock

F = TypeVar("F", bound=Callable[..., Any])
_held: dict[str, int] = {}


@contextlib.contextmanager
def _locked(ws: Path) -> Iterator[None]:
    key = str(Path(ws).resolve())
    if _held.get(key):
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    with flock(_dir(ws) / "lock"):
        _held[key] = 1
        try:
            yield
        finally:
            _held.pop(key, None)


def locked(fn: F) -> F:
    @functools.wraps(fn)
    def inner(ws: Path, *args: Any, **kwargs: Any) -> Any:
        with _locked(ws):
            return fn(ws, *args, **kwargs)

    return inner  # type: ignore[return-value]


MAGIC = b"PBEM-TEST-TURN\n"


@dataclass
class ImportResult:
    status: str
    game_id: str
    seq: int
    message: str
    replies: list[Path] = field(default_factory=list)


@dataclass
class GameInfo:
    my_side: str
    my_email: str
    opponent_email: str
    my_turn: bool
    status_line: str


class FakeError(Exception):
    pass


def side_of(seq: int) -> str:
    return "axis" if seq % 2 == 1 else "allies"


def _dir(ws: Path) -> Path:
    path = ws / ".fake"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _load(ws: Path, name: str, default: object) -> object:
    try:
        return json.loads((_dir(ws) / name).read_text())
    except FileNotFoundError:
        return default


def _save(ws: Path, name: str, value: object) -> None:
    write_atomic(_dir(ws) / name, json.dumps(value, sort_keys=True).encode())


def games(ws: Path) -> dict[str, dict[str, object]]:
    return _load(ws, "games.json", {})  # type: ignore[return-value]


def ledger(ws: Path) -> list[dict[str, object]]:
    return _load(ws, "ledger.json", [])  # type: ignore[return-value]


def history(ws: Path) -> list[tuple[object, object, object]]:
    """The ledger without timestamps: what both sides must agree on."""
    return [(e["game"], e["seq"], e["sha"]) for e in ledger(ws)]


def make_turn(game_id: str, seq: int, payload: dict[str, object] | None = None, pad: int = 0) -> tuple[str, bytes]:
    """A turn-shaped file: deterministic bytes, so re-making it gives the very same file."""
    side = side_of(seq)
    body = {"game": game_id, "seq": seq, "side": side, **(payload or {})}
    data = MAGIC + json.dumps(body, sort_keys=True).encode() + b"\n" + b"x" * pad
    return f"{game_id}-{seq:05d}-{side}.pbem", data


@locked
def new_game(
    ws: Path,
    game_id: str,
    my_side: str,
    my_email: str,
    opponent_email: str,
    autoplay_until: int = 0,
    opponent_autoplay: int | None = None,
) -> Path | None:
    """Start a game here; the axis side writes the invitation (seq 1) into outbox/."""
    table = games(ws)
    table[game_id] = {
        "my_side": my_side,
        "my_email": my_email,
        "opponent_email": opponent_email,
        "autoplay_until": autoplay_until,
    }
    _save(ws, "games.json", table)
    if my_side != "axis":
        return None
    axis, allies = (my_email, opponent_email)
    theirs = autoplay_until if opponent_autoplay is None else opponent_autoplay
    return seal(ws, game_id, invite={"axis": axis, "allies": allies, "autoplay_until": theirs})


@locked
def seal(ws: Path, game_id: str, invite: dict[str, object] | None = None, pad: int = 0) -> Path:
    """Make my next move: apply it locally, then put its file into outbox/ (like `pbem send`)."""
    seq = _last_seq(ws, game_id) + 1
    path, data = _write_answer(ws, game_id, seq, {"invite": invite} if invite else None, pad)
    _append(ws, game_id, [(seq, data)])
    return path


def _write_answer(
    ws: Path, game_id: str, seq: int, payload: dict[str, object] | None = None, pad: int = 0
) -> tuple[Path, bytes]:
    """Put my file ``seq`` into outbox/ before the ledger records it: its bytes are
    deterministic, so a kill in between only means the same file is written again."""
    name, data = make_turn(game_id, seq, payload, pad)
    outbox = ws / "outbox"
    outbox.mkdir(exist_ok=True)
    write_atomic(outbox / name, data)
    crash_point()
    return outbox / name, data


def _last_seq(ws: Path, game_id: str) -> int:
    seqs = [int(e["seq"]) for e in ledger(ws) if e["game"] == game_id]  # type: ignore[call-overload]
    return max(seqs, default=0)


def _append(ws: Path, game_id: str, files: list[tuple[int, bytes]]) -> None:
    """Record ``files`` as applied, all in one atomic write of the ledger."""
    entries = ledger(ws)
    for seq, data in files:
        entries.append({"game": game_id, "seq": seq, "sha": hashlib.sha256(data).hexdigest(), "t": time.time()})
    _save(ws, "ledger.json", entries)
    crash_point()


def _parse(data: bytes) -> dict[str, object]:
    if not data.startswith(MAGIC):
        raise FakeError("not a turn file (bad magic)")
    try:
        head = data[len(MAGIC) :].split(b"\n", 1)[0]
        body = json.loads(head)
    except ValueError as err:
        raise FakeError(f"corrupt turn file: {err}") from err
    if not isinstance(body, dict):
        raise FakeError("corrupt turn file")
    return body


def key_of(address: str) -> str:
    """A player's key fingerprint in this stand-in, where files carry no signature."""
    digits = hashlib.sha256(address.lower().encode()).hexdigest()[:32]
    return " ".join(digits[i : i + 4] for i in range(0, 32, 4))


def signer(ws: Path, data: bytes, home: Path | None = None) -> str | None:
    """Who signed a file, as the real game layer says it: an invitation counts as signed
    by its axis player's key; anything else by no key this stand-in could check."""
    try:
        invite = _parse(data).get("invite")
    except FakeError:
        return None
    return key_of(str(invite["axis"])) if isinstance(invite, dict) else None


@locked
def import_file(ws: Path, path: Path, home: Path | None = None) -> ImportResult:
    turn = parse_turn_name(path.name.split(".")[0] + ".pbem")
    data = path.read_bytes()
    try:
        body = _parse(data)
    except FakeError as err:
        return ImportResult("rejected", turn.game_id if turn else "", turn.seq if turn else 0, str(err))
    game_id, seq = str(body.get("game")), int(body.get("seq", 0))  # type: ignore[call-overload]
    if turn is None or turn.game_id != game_id or turn.seq != seq or side_of(seq) != body.get("side"):
        return ImportResult("rejected", game_id, seq, "file name and contents disagree")
    table = games(ws)
    if game_id not in table:
        invite = body.get("invite")
        if seq != 1:  # may be overtaken by its invitation: keep it
            write_atomic(_dir(ws) / "stored" / path.name, data)
            return ImportResult("stored", game_id, seq, "waits for the invitation")
        if not isinstance(invite, dict):
            return ImportResult("rejected", game_id, seq, f"unknown game {game_id}")
        table[game_id] = {
            "my_side": "allies",
            "my_email": invite["allies"],
            "opponent_email": invite["axis"],
            "autoplay_until": int(invite.get("autoplay_until", 0)),
        }
        _save(ws, "games.json", table)
    game = table[game_id]
    if side_of(seq) == game["my_side"]:
        return ImportResult("rejected", game_id, seq, "this is a file of my own side")
    digest = hashlib.sha256(data).hexdigest()
    for entry in ledger(ws):
        if entry["game"] == game_id and entry["seq"] == seq:
            if entry["sha"] == digest:
                return ImportResult("duplicate", game_id, seq, "already applied")
            return ImportResult("rejected", game_id, seq, "equivocation: a different file for the same step")
    last = _last_seq(ws, game_id)
    if seq > last + 1:
        write_atomic(_dir(ws) / "stored" / path.name, data)
        return ImportResult("stored", game_id, seq, f"waits for file {last + 1}")
    if seq <= last:
        return ImportResult("rejected", game_id, seq, "older than the current position")
    replies: list[Path] = []
    _apply(ws, game_id, seq, data, game, replies)
    # Close gaps: stored successors become applicable now.
    while True:
        nxt = _last_seq(ws, game_id) + 1
        stored = _dir(ws) / "stored" / f"{game_id}-{nxt:05d}-{side_of(nxt)}.pbem"
        if side_of(nxt) == game["my_side"] or not stored.exists():
            break
        _apply(ws, game_id, nxt, stored.read_bytes(), game, replies)
    return ImportResult("applied", game_id, seq, f"applied file {seq}", replies)


def _apply(ws: Path, game_id: str, seq: int, data: bytes, game: dict[str, object], replies: list[Path]) -> None:
    """Apply a file and write the answer it calls for as one step, like the real game store's
    transaction: the answer is in outbox/ before the ledger holds either."""
    files = [(seq, data)]
    # Autoplay stands in for the automatic answers (reveals) of the real game layer.
    until = int(game.get("autoplay_until", 0))  # type: ignore[call-overload]
    if seq + 1 <= until and side_of(seq + 1) == game["my_side"]:
        path, answer = _write_answer(ws, game_id, seq + 1)
        files.append((seq + 1, answer))
        replies.append(path)
    _append(ws, game_id, files)


@locked
def game_info(ws: Path, game_id: str, home: Path | None = None) -> GameInfo:
    table = games(ws)
    if game_id not in table:
        raise FakeError(f"unknown game {game_id}")
    game = table[game_id]
    nxt = _last_seq(ws, game_id) + 1
    return GameInfo(
        str(game["my_side"]),
        str(game["my_email"]),
        str(game["opponent_email"]),
        side_of(nxt) == game["my_side"],
        f"file {nxt} is {side_of(nxt)}'s to write",
    )


def accept(ws: Path, game_id: str, identity: str, home: Path | None = None) -> list[Path]:
    """Invitations are accepted on import already (seq 1 carries them)."""
    return []


@locked
def play(ws: Path, game_id: str, home: Path | None = None) -> list[Path]:
    """The bot player's stand-in: make the next move if it is ours."""
    info = game_info(ws, game_id)
    if not info.my_turn:
        return []
    return [seal(ws, game_id)]
