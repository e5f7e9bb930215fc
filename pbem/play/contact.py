"""Contact statements: "my address is now X", signed with the identity key.

An opponent must not take a new address from an unsigned mail (anyone can write one),
so `pbem key set-email` writes a small statement signed with the same Ed25519 key the
games know, and `pbem import` accepts it for every game played against that key.

Layout (integers big-endian), like a turn file but with its own magic and signing
domain, so neither can ever be taken for the other::

    magic      15 bytes  b"pbem contact 1\\n"
    length      4 bytes  length of body
    body       length    canonical msgpack map {v: 1, type: "contact", key, email, counter}
    signature  64 bytes  Ed25519 over b"pbem/contact/v1\\0" + body

``key`` is the 32-byte public key (its fingerprint is the game-independent name of the
identity), ``counter`` counts the identity's statements from 1: a receiver keeps the
highest counter it accepted per game and refuses any statement that is not newer, so
an old statement cannot bring an old address back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.protocol import wire
from pbem.protocol.hashing import D_CONTACT
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace, atomic_write

MAGIC = b"pbem contact 1\n"
SIG_LEN = 64
MAX_STATEMENT = 1024
FIELDS = {"v", "type", "key", "email", "counter"}
#: The meta.json field holding the highest counter accepted from the opponent.
SEEN = "opponent_contact_counter"


@dataclass(frozen=True)
class Statement:
    key: bytes
    email: str
    counter: int
    raw: bytes

    @property
    def fingerprint(self) -> str:
        return keys.fingerprint(self.key)


def is_statement(data: bytes) -> bool:
    return data.startswith(MAGIC)


def seal(ident: keys.Identity, email: str, counter: int) -> Statement:
    body = {"v": 1, "type": "contact", "key": ident.public.raw, "email": keys.check_email(email), "counter": counter}
    body_bytes = wire.pack(body)
    raw = MAGIC + len(body_bytes).to_bytes(4, "big") + body_bytes + ident.sign(D_CONTACT + body_bytes)
    return Statement(ident.public.raw, email, counter, raw)


def parse(data: bytes) -> Statement:
    """Read untrusted bytes strictly and check the signature against the key they carry
    (which proves only who signed: the receiver must still know that key)."""
    if len(data) > MAX_STATEMENT or not is_statement(data) or len(data) < len(MAGIC) + 4 + SIG_LEN:
        raise PbemError("not a pbem contact statement", "parse")
    n = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "big")
    start = len(MAGIC) + 4
    if start + n + SIG_LEN != len(data):
        raise PbemError("the contact statement's declared length does not match its size", "parse")
    body_bytes = data[start : start + n]
    body: Any = wire.unpack(body_bytes, wire.Limits(max_bytes=MAX_STATEMENT))
    if not isinstance(body, dict) or set(body) != FIELDS or body["v"] != 1 or body["type"] != "contact":
        raise PbemError("the contact statement's fields are not the expected ones", "parse")
    key, email, counter = body["key"], body["email"], body["counter"]
    if not isinstance(key, bytes) or len(key) != 32 or not isinstance(email, str):
        raise PbemError("the contact statement's key or address is malformed", "parse")
    if not isinstance(counter, int) or isinstance(counter, bool) or not 1 <= counter < 2**31:
        raise PbemError("the contact statement's counter is malformed", "parse")
    if wire.pack(body) != body_bytes:
        raise PbemError("the contact statement is not canonically encoded", "parse")
    keys.check_email(email)
    if not keys.PublicKey("x", "", key).verify(data[start + n :], D_CONTACT + body_bytes):
        raise PbemError("the contact statement's signature is not valid", "signature")
    return Statement(key, email, counter, data)


def set_email(name: str, email: str, directory: Path | None = None) -> Statement:
    """Change my identity's e-mail (its settings and public key file) and sign the
    statement that tells opponents; each call counts one more statement."""
    if not email:
        raise PbemError("give the new e-mail address", "usage")
    keys.check_email(email)
    ident = keys.load(name, directory)  # the private key signs: its passphrase is needed
    d = keys.home(directory)
    settings_path = d / f"{name}.json"
    try:
        settings = json.loads(settings_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        settings = {"name": name, "passphrase_env": ""}
    counter = int(settings.get("contact_counter", 0)) + 1
    statement = seal(ident, email, counter)
    settings.update(email=email, contact_counter=counter)
    atomic_write(settings_path, json.dumps(settings, sort_keys=True).encode())
    atomic_write(d / f"{name}.pub", keys.PublicKey(name, email, ident.public.raw).to_text().encode())
    return statement


def outbox_name(gid: str, counter: int) -> str:
    """The name of the copy for one game: the mail daemon carries it like a turn file."""
    return f"{gid}-{counter:05d}-contact.pbem"


def publish(ws: Workspace, name: str, statement: Statement) -> list[str]:
    """Record my new address in every game of ``ws`` that I play as ``name``, and put a
    copy of the statement into outbox/ for each opponent; returns those games."""
    with ws.locked():
        tx = Transaction()
        games = []
        for gid in ws.games():
            lg = LocalGame(ws, gid)
            if lg.meta.get("me") != name or lg.meta.get("handed_over_to"):
                continue  # a side handed over is another key's: its mail goes where it says
            games.append(gid)
            lg.meta = dict(lg.meta, my_email=statement.email)
            lg.stage_meta(tx)
            tx.put(f"outbox/{outbox_name(gid, statement.counter)}", statement.raw)
        if games:
            ws.commit(tx)
    return games


def accept(ws: Workspace, data: bytes, tx: Transaction, home: Path | None = None) -> tuple[str, str]:
    """Verify a received statement and stage the opponent's new address in every game
    played against its key; returns (status, message): "applied", or "duplicate" for the
    statement accepted last (each game's copy brings it again).  Raises PbemError (code
    "contact") for an unknown key or a statement older than the last one accepted."""
    st = parse(data)
    known, updated, newest, same = 0, [], 0, True
    for gid in ws.games():
        lg = LocalGame(ws, gid, home)
        opponent = "allies" if lg.me == "axis" else "axis"
        game = lg.game()
        # The key in force: after a hand-over the new holder's, never the old one's.
        in_force = game.keys[opponent] if game is not None else lg.genesis().body["keys"][opponent]
        if in_force != st.key:
            continue
        known += 1
        seen = int(lg.meta.get(SEEN, 0))
        newest = max(newest, seen)
        if st.counter <= seen:
            same = same and st.counter == seen and lg.meta.get("opponent_email") == st.email
            continue
        lg.meta = dict(lg.meta, opponent_email=st.email, **{SEEN: st.counter})
        lg.stage_meta(tx)
        updated.append(gid)
    if not known:
        raise PbemError(f"contact statement from key {st.fingerprint}, which no game here plays against", "contact")
    if not updated and same:
        return "duplicate", f"contact statement {st.counter} of key {st.fingerprint} was already accepted"
    if not updated:
        raise PbemError(
            f"contact statement {st.counter} of key {st.fingerprint} is not newer than statement {newest}, "
            "already accepted (an old statement replayed?)",
            "contact",
        )
    return "applied", f"opponent {st.fingerprint} now writes from {st.email} (game {', '.join(updated)})"
