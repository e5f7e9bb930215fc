"""Hand-over from a workspace: the old holder's offer, the new holder's acceptance, the seal.

The offer directory holds ``offer`` (the hand-over body without its countersignature)
and ``files/`` (the game's accepted files), so that the new holder verifies the whole
game before it signs anything; ``accepted`` is what it gives back.  The protocol rules
are in :mod:`pbem.protocol.handover`.

By mail (a bot mailbox takes a side without its operator): the offer and the game's
files travel as one file ``<game>-<seq>-offer.pbem`` to the new key's address
(:func:`offer_by_mail`), the receiver keeps it as an offer directory
(:func:`keep_offer`) and, if it is a bot, accepts it at once into
``<game>-<seq>-accept.pbem`` back to the old holder (:func:`accept`), whose import seals
the hand-over (:func:`seal_received`), which goes to the new holder.  The new holder
plays only once that sealed file has arrived (``handover_pending`` in its meta).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.play import audit, games, history, report, turn
from pbem.protocol import dice, gamesecrets, handover, machine, turnfile, wire
from pbem.protocol.turnfile import TurnFile
from pbem.store import keys, overview
from pbem.store.localgame import LocalGame
from pbem.store.store import STORE_DIR, Transaction, Workspace, atomic_write, read_bytes

OFFER, ACCEPTED, FILES, FROM = "offer", "accepted", "files", "from"
_LIMIT = 4096
OFFER_MAGIC = b"pbem handover offer 1\n"
ACCEPT_MAGIC = b"pbem handover acceptance 1\n"


def offer_rel(gid: str) -> str:
    return f"{STORE_DIR}/offers/{gid}"


def mail_name(gid: str, seq: int, what: str) -> str:
    return f"{gid}-{seq:05d}-{what}.pbem"


def offer_by_mail(ws: Workspace, gid: str, to: keys.PublicKey, home: Path | None = None) -> Path:
    """Put my offer and the game's files into outbox/, for the new key's address."""
    if not to.email:
        raise PbemError("the new holder's key names no e-mail address: write the offer with -o DIR instead", "usage")
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        lg.check_mine()
        game = lg.joined_game(no_pending=True)
        body = handover.offer(game, lg.me, to.raw, to.email)
        files = [tf for s in range(game.seq + 1) if (tf := lg.history_file(s)) is not None]
        doc = wire.pack({OFFER: body, FROM: lg.meta.get("my_email", "")})
        data = OFFER_MAGIC + len(doc).to_bytes(4, "big") + doc + turnfile.join_files(files)
        if len(data) > turnfile.MAX_FILE:
            raise PbemError("the game's files are too large to mail: write the offer with -o DIR instead", "usage")
        tx = Transaction()
        rel = f"outbox/{mail_name(gid, game.seq + 1, 'offer')}"
        tx.put(rel, data)
        lg.meta["handover_offer"] = _offered(body)
        lg.meta["handover_peer"] = to.email
        lg.stage_meta(tx)
        ws.commit(tx)
    return ws.root / rel


def _offered(body: Mapping[str, object]) -> dict[str, object]:
    """What my meta keeps of an offer, to seal only an acceptance by the key offered, there."""
    key = body["key"]
    assert isinstance(key, bytes), "an offer names its key"
    return {"key": keys.fingerprint(key), "seq": body["seq"]}


def _check_offered(lg: LocalGame, accepted: Mapping[str, object], name: str) -> None:
    key = accepted.get("key")
    offered = lg.meta.get("handover_offer") or {}
    if not isinstance(key, bytes) or offered != {"key": keys.fingerprint(key), "seq": accepted.get("seq")}:
        raise PbemError(
            f"{name}: I offered no hand-over of game {lg.gid} to that key at that point "
            f"(offered: {offered.get('key', 'nothing')}); ask the new holder for its acceptance of my offer",
            "handover",
        )


def read_offer(data: bytes, name: str) -> tuple[dict[str, Any], str, list[TurnFile]]:
    """A mailed offer's body, its sender's address and the game's files it carries (unverified)."""
    at = len(OFFER_MAGIC)
    n = int.from_bytes(data[at : at + 4], "big")
    ok = data.startswith(OFFER_MAGIC) and len(data) <= turnfile.MAX_FILE
    doc: Any = wire.unpack(data[at + 4 : at + 4 + n]) if ok else None
    if not isinstance(doc, dict) or set(doc) != {OFFER, FROM} or not isinstance(doc[OFFER], dict):
        raise PbemError(f"{name}: not a hand-over offer", "parse")
    body, sender = doc[OFFER], doc[FROM]
    files = turnfile.split_files(data[at + 4 + n :], name)
    gid = body.get("game")
    if not isinstance(gid, str) or not turnfile.GID_RE.match(gid) or not isinstance(sender, str):
        raise PbemError(f"{name}: not a hand-over offer", "parse")
    return body, sender, files


def offering_key(data: bytes, name: str) -> bytes | None:
    """The key that holds the side a mailed offer hands over, as the game's files it carries
    show it: the genesis key of that side, then the key of each hand-over of it, each file of
    the side signed by the key in force; None unless one file at least shows it so.  The
    offer itself is not signed: a hand-over takes effect only once this key seals it."""
    body, _, files = read_offer(data, name)
    side = body.get("side")
    genesis = next((tf for tf in files if tf.seq == 0), None)
    if genesis is None or side not in turnfile.SIDES or genesis.game != body["game"]:
        return None
    g = machine.check_genesis(genesis)
    key: bytes = g.key(side)
    shown = genesis.side == side
    for tf in sorted((tf for tf in files if tf.seq > 0 and tf.side == side and tf.game == g.game), key=lambda f: f.seq):
        if not tf.verify_signature_ok(key):
            return None
        shown = True
        if tf.type == "handover":
            key = tf.body["key"]
    return key if shown else None


def keep_offer(ws: Workspace, name: str, data: bytes, tx: Transaction) -> tuple[str | None, str, str]:
    """Keep a mailed offer (the bytes of a file called ``name``) as an offer directory under
    .pbem/offers/; (game, status, message)."""
    body, sender, files = read_offer(data, name)
    gid = body["game"]
    if LocalGame.has_game(ws, gid):
        return gid, "duplicate", f"{name}: game {gid} is already here"
    rel = offer_rel(gid)
    kept = ws.root / rel / FILES
    for stale in kept.glob("*.pbem") if kept.is_dir() else ():  # an earlier offer's files
        tx.delete(f"{rel}/{FILES}/{stale.name}")
    tx.put(f"{rel}/{OFFER}", wire.pack(body))
    tx.put(f"{rel}/{FROM}", keys.check_email(sender).encode())
    for tf in files:
        tx.put(f"{rel}/{FILES}/{tf.name}", tf.raw)
    side = body.get("side", "?")
    return gid, "stored", f"kept the offer of {side} in game {gid} from {sender or 'an unnamed sender'}"


def kept_offer(ws: Workspace, gid: str) -> Path | None:
    path = ws.root / offer_rel(gid)
    return path if (path / OFFER).is_file() else None


def offer(ws: Workspace, gid: str, to: keys.PublicKey, out: Path, home: Path | None = None) -> Path:
    """Write my offer of my side to ``to`` and the game's files into directory ``out``."""
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        lg.check_mine()
        game = lg.joined_game(no_pending=True)
        body = handover.offer(game, lg.me, to.raw, to.email)
        history_files = [lg.history_file(s) for s in range(game.seq + 1)]
        tx = Transaction()
        lg.meta["handover_offer"] = _offered(body)
        lg.stage_meta(tx)
        ws.commit(tx)
    (out / FILES).mkdir(parents=True, exist_ok=True)
    for tf in history_files:
        assert tf is not None  # the accepted history has no gap
        atomic_write(out / FILES / tf.name, tf.raw)
    atomic_write(out / OFFER, wire.pack(body))
    return out


def _read(path: Path, what: str) -> dict[str, Any]:
    data = read_bytes(path, _LIMIT)
    if data is None:
        raise PbemError(f"no {what} file at {path.name}", "usage")
    body = wire.unpack(data)
    if not isinstance(body, dict) or body.get("type") != "handover":
        raise PbemError(f"{path.name} is not a hand-over {what}", "usage")
    return body


def accept(ws: Workspace, directory: Path, me: str, home: Path | None = None, mail: bool = False) -> tuple[str, Path]:
    """Verify the offered game from its files, take the game into my workspace and countersign:
    into ``directory``, or with ``mail`` (a kept mailed offer) into outbox/ for the old holder."""
    ident = keys.load(me, home)
    body = _read(directory / OFFER, "offer")
    files = history.record_files(directory / FILES)
    audit.audit_dir(directory / FILES)
    game = history.position(files)
    if body.get("game") != game.gid or body.get("seq") != game.seq + 1 or body.get("prev") != game.hashes[-1]:
        raise PbemError("the offer does not continue the game's files it came with", "usage")
    if body.get("key") != ident.public.raw:
        raise PbemError(f"the side is offered to another key, not to {me}'s", "usage")
    side = body["side"]
    handover.check_open(game, side, "hand-over")
    gid = game.gid
    g = files[0].body
    # Bound to this hand-over, not to the genesis: a key that held the side before would
    # otherwise start the very chain it revealed then (LocalGame.derived reads the binding back).
    bound = gamesecrets.handover_binding(body)
    secret = gamesecrets.GameSecrets(ident, gid, bound).dice()
    done = handover.accept(body, dice.anchor(secret, dice.DEFAULT_LENGTH), dice.DEFAULT_LENGTH, ident.sign)
    opp = turnfile.other(side)
    meta = games.game_meta(gid, me, side, ident.email, g["emails"][opp], g["names"][opp], g["scenario"])
    meta["binding"] = bound.hex()
    # Not mine to play until the old holder's sealed hand-over arrives (exchange.receive).
    meta["handover_pending"] = True
    path = directory / ACCEPTED
    with ws.locked():
        if LocalGame.has_game(ws, gid):
            raise PbemError(f"game {gid} is already in this workspace", "usage")
        tx = Transaction()
        if mail:
            meta["handover_peer"] = (directory / FROM).read_text(encoding="utf-8")
            path = ws.outbox / mail_name(gid, game.seq + 1, "accept")
            tx.put(f"outbox/{path.name}", ACCEPT_MAGIC + wire.pack(done))
        LocalGame.stage_create(ws, tx, meta, files, game)
        overview.stage(tx, ws, gid, side, game)
        ws.commit(tx)
    if not mail:
        atomic_write(path, wire.pack(done))
    return gid, path


def seal(ws: Workspace, gid: str, acceptance: Path, home: Path | None = None) -> tuple[Path, str]:
    """Seal the accepted hand-over as the next file of my game, into outbox/: only an
    acceptance by the key I offered the side to, at the position offered; (path, its fingerprint)."""
    accepted = _read(acceptance, "acceptance")
    _check_offered(LocalGame(ws, gid, home), accepted, acceptance.name)
    return _seal(ws, gid, accepted, home), keys.fingerprint(accepted["key"])


def seal_received(ws: Workspace, name: str, data: bytes, home: Path | None = None) -> tuple[str, str]:
    """A mailed acceptance of my offer (the bytes of a file called ``name``): seal the
    hand-over at once; (game, message)."""
    accepted: Any = wire.unpack(data[len(ACCEPT_MAGIC) : _LIMIT])
    if not isinstance(accepted, dict) or not isinstance(accepted.get("game"), str):
        raise PbemError(f"{name}: not a hand-over acceptance", "parse")
    gid = accepted["game"]
    if not LocalGame.has_game(ws, gid):
        raise PbemError(f"{name}: game {gid} is not here", "game")
    _check_offered(LocalGame(ws, gid, home), accepted, name)
    sealed = _seal(ws, gid, accepted, home)
    return gid, f"{name}: the new holder accepted; hand-over sealed into {sealed.name}"


def _seal(ws: Workspace, gid: str, accepted: dict[str, Any], home: Path | None) -> Path:
    with ws.locked():
        lg = LocalGame(ws, gid, home)
        game = lg.joined_game(no_pending=True)
        before = game.clone()
        tf = handover.seal(game, accepted, lg.identity().sign)
        tx = Transaction()
        lg.meta["handed_over_to"] = keys.fingerprint(accepted["key"])
        # The mail daemon sends the hand-over to the new holder's address, which passes it on
        # to the opponent with its first decision (exchange.receive).
        lg.meta["handed_over_at"] = tf.seq
        lg.meta["handover_peer"] = accepted.get("email", "")
        lg.stage_meta(tx)
        path = turn.stage_sealed(lg, tx, tf, game, report.apply_reported(before, machine.Authentic(tf)))
        ws.commit(tx)
    return path
