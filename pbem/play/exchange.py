"""Receiving files: verify, apply atomically, answer automatically (the mail daemon's entry point).

A file's way is one straight line, :func:`receive`: read and parsed (``turnfile``),
authenticated once and placed in the history (``placement.place``: duplicate,
equivocation, taken, early, next), re-executed (``machine.start``/``apply_turn``), the waiting
files it unblocks after it, then my automatic answer; the store sees only the staged
transaction, committed whole by :func:`import_locked`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

from pbem.errors import PbemError
from pbem.play import branch, claim, contact, decline, games, passing, placement, report, since, status, turn
from pbem.play.mailcheck import foreign as foreign  # optional functions of the daemon's game layer
from pbem.play.mailcheck import signer as signer
from pbem.play.placement import Place
from pbem.protocol import gameoptions, machine, turnfile
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame
from pbem.store.store import MAX_REJECTED, MAX_REJECTED_BYTES, Transaction, Workspace

log = logging.getLogger("pbem")


@dataclass
class ImportResult:
    status: str  # "applied" | "duplicate" | "rejected" | "stored"
    game_id: str | None
    seq: int | None
    message: str
    replies: list[Path] = field(default_factory=list)
    code: str = ""  # the reason's short word when rejected
    report: str = ""  # what the applied files (and my automatic answers) did, in full

    @property
    def ok(self) -> bool:
        return self.status != "rejected"


@dataclass
class GameInfo:
    my_side: str
    my_email: str
    opponent_email: str
    my_turn: bool
    status_line: str
    # A hand-over in progress: my offer and acceptance files, and my sealed hand-over
    # (number handed_over_at), go to the other holder's address, not to the opponent.
    handed_over_at: int = 0
    handover_peer: str = ""


@dataclass(frozen=True, slots=True)
class Incoming:
    """A received file, read once on its way in: its bytes, what kind of file they make,
    and a turn file's parsed form, or the one line saying why the file cannot be taken."""

    path: Path
    kind: str  # "turn" | "contact" | "parent" | "offer" | "accept" | "unreadable"
    data: bytes = b""
    tf: TurnFile | None = None
    refusal: PbemError | None = None


#: The files other than turn files that arrive in an inbox, by the bytes they begin with.
_KINDS = (
    (contact.MAGIC, "contact"),
    (branch.PARENT_MAGIC, "parent"),
    (passing.OFFER_MAGIC, "offer"),
    (passing.ACCEPT_MAGIC, "accept"),
)


def read_incoming(path: Path) -> Incoming:
    """Read ``path`` once and tell what it is; never raises (a refusal is kept for the
    import to report)."""
    try:
        data = turnfile.load(path)
    except PbemError as exc:
        return Incoming(path, "unreadable", refusal=exc)
    kind = next((k for magic, k in _KINDS if data.startswith(magic)), "turn")
    if kind != "turn":
        return Incoming(path, kind, data)
    try:
        return Incoming(path, kind, data, turnfile.parse_named(data, path.name))
    except PbemError as exc:
        return Incoming(path, kind, data, refusal=exc)


def import_file(workspace: Path, path: Path, home: Path | None = None) -> ImportResult:
    """Verify ``path`` and apply it to its game, all or nothing; see docs/turn-file-format.md.

    The file is read and parsed once.  A file of a game this workspace plays is imported
    under that game's lock, beside the steps of its other games; any other file (an
    invitation, a contact statement, parent files, an offer) under the workspace lock.  So
    is setting a refused file aside: ``.pbem/rejected/`` is shared by all games and pruned
    as a whole."""
    ws = Workspace(workspace)
    path = Path(path)
    incoming = read_incoming(path)
    # A game once joined stays (its meta.json is never removed), so the lock chosen holds.
    gid = incoming.tf.game if incoming.tf is not None and LocalGame.has_game(ws, incoming.tf.game) else None
    if gid is None:
        with ws.locked():
            return import_locked(ws, incoming, home)
    with ws.game_locked(gid):
        result = import_locked(ws, incoming, home, set_aside=False)
    src = ws.inbox_rel(path)
    if not result.ok and src is not None:
        with ws.locked():
            if path.exists():  # else set aside meanwhile by an import of the same file
                tx = Transaction()
                dropped = _stage_set_aside(ws, incoming, src, tx)
                ws.commit(tx)
                _log_dropped(ws, dropped)
    return result


def import_locked(ws: Workspace, incoming: Incoming, home: Path | None = None, set_aside: bool = True) -> ImportResult:
    """:func:`receive` a file read by :func:`read_incoming` and commit the outcome.  A
    rejection keeps only its evidence and, with ``set_aside``, moves an inbox file to
    ``.pbem/rejected/`` (which needs the workspace lock); without it, the file stays in the
    inbox."""
    tx = Transaction()
    path, name, data, tf = incoming.path, incoming.path.name, incoming.data, incoming.tf
    src = ws.inbox_rel(path)
    dropped: list[str] = []
    if src is not None and src in ws.recovered_deletions and not path.exists():
        # The file was saved again (a mail fetched again, say) just before the lock rolled
        # forward the interrupted import that had consumed it: it is applied already.
        return ImportResult("duplicate", None, None, f"{name}: already applied by an interrupted import, completed now")
    try:
        if incoming.refusal is not None:
            raise incoming.refusal
        if incoming.kind == "contact":
            done, message = contact.accept(ws, data, tx, home)
            result = ImportResult(done, None, None, message)
        elif incoming.kind == "parent":
            done, message = branch.keep_parent_files(ws, name, data, tx)
            result = ImportResult(done, None, None, message)
        elif incoming.kind == "offer":
            gid, done, message = passing.keep_offer(ws, name, data, tx)
            result = ImportResult(done, gid, None, message)
        elif incoming.kind == "accept":
            gid, message = passing.seal_received(ws, name, data, home)
            result = ImportResult("applied", gid, None, message)
        else:
            assert tf is not None
            result = receive(ws, tf, tx, home)
    except PbemError as exc:
        result = ImportResult("rejected", tf.game if tf else None, tf.seq if tf else None, str(exc), code=exc.code)
        # A rejection changes nothing but the inbox, and keeps the evidence of an equivocation.
        tx = exc.tx if isinstance(exc, _Kept) else Transaction()
        if src is not None and set_aside:
            dropped = _stage_set_aside(ws, incoming, src, tx)
    else:
        if src is not None:
            tx.delete(src)
    ws.commit(tx)
    _log_dropped(ws, dropped)
    return result


def _stage_set_aside(ws: Workspace, incoming: Incoming, src: str, tx: Transaction) -> list[str]:
    """Stage moving the refused inbox file to ``.pbem/rejected/`` (its bytes as read, if
    they could be and are not too many to keep), dropping the oldest kept ones beyond its
    limits; returns the names dropped."""
    dropped: list[str] = []
    if incoming.kind != "unreadable" and len(incoming.data) <= turnfile.MAX_FILE:
        dropped = ws.stage_rejected(tx, incoming.path.name, incoming.data)
    tx.delete(src)
    return dropped


def _log_dropped(ws: Workspace, dropped: list[str]) -> None:
    if dropped:
        shown = ", ".join("".join(c if c.isprintable() else "?" for c in name) for name in dropped[:5])
        more = f" and {len(dropped) - 5} more" if len(dropped) > 5 else ""
        log.warning(
            "%s: removed the %d oldest refused file(s) to keep within %d files and %d MiB: %s%s",
            ws.rejected_rel("").rstrip("/"),
            len(dropped),
            MAX_REJECTED,
            MAX_REJECTED_BYTES >> 20,
            shown,
            more,
        )


def receive(ws: Workspace, tf: TurnFile, tx: Transaction, home: Path | None = None) -> ImportResult:
    """A parsed file's way into its game, in order: authenticate it, place it in the history
    (duplicate, equivocation, early), re-execute it and the files it unblocks, answer what
    I owe automatically; every change is staged in ``tx``.  Raises PbemError to reject."""
    if not LocalGame.has_game(ws, tf.game):
        return _invitation(ws, tf, tx)
    lg = LocalGame(ws, tf.game, home)
    _second_genesis(lg, tf, tx)
    game = lg.game()
    at = placement.place(lg, tf, game)
    if at.place == Place.DUPLICATE:
        return ImportResult("duplicate", tf.game, tf.seq, f"{tf.name} was already applied (nothing to do)")
    file = at.file
    assert file is not None
    if at.place == Place.EQUIVOCATION:
        assert at.existing is not None
        raise _Equivocation(tf, lg.stage_evidence(tx, at.existing, tf), tx)
    if at.place == Place.TAKEN:
        return _taken(lg, file, at.existing, tx)
    if at.place == Place.EARLY:
        return _keep_waiting(lg, file, tx, at.head)
    genesis_tf = at.genesis
    if tf.type == "decline":
        return ImportResult("applied", tf.game, tf.seq, decline.receive(lg, genesis_tf, tf, tx))
    genesis = machine.Genesis(genesis_tf.body)
    reports: list[report.FileReport] = []
    if game is None:
        game, first = report.start_reported(genesis_tf, file, lg.base())
        reports.append(first)
    else:
        game = _reexecuted(game, file, reports)
    lg.stage_history(tx, tf)
    _follow_handover(lg, tf, tx)
    game, notes = _catch_up(lg, genesis, game, tx, tf, reports)
    before_answer = game.to_bytes()
    kept: list[report.FileReport] = []
    told: list[str] = []
    replies = turn.answer(lg, game, tx, kept, told)
    if replies:
        reports += report.of_replies(machine.Game.from_bytes(before_answer), tx, replies)
    report.stage(tx, lg.paths, reports)
    if kept:
        since.stage_kept(tx, lg.paths, game.seq, kept)
    reports += kept  # shown now, kept with the file that will carry them
    msg = f"applied {tf.name}" + (f" ({', '.join(notes)})" if notes else "")
    if replies:
        msg += f"; answered with {replies[0].name}"
    msg += f". {status.status_line(lg, game, lg.pending() if not replies else None, tx)}"
    msg += "".join(f"\n{note}" for note in told)
    text = "\n".join(r.text() for r in reports)
    return ImportResult("applied", tf.game, tf.seq, msg, replies, report=text)


def _invitation(ws: Workspace, tf: TurnFile, tx: Transaction) -> ImportResult:
    """A file of a game this workspace does not play: kept if it is an invitation to one."""
    gid = tf.game
    if tf.type != "genesis":
        raise PbemError(f"{tf.name}: file for game {gid}, which this workspace has not joined", "game")
    g = machine.check_genesis(tf)
    rel = ws.invitation_rel(gid)
    old = ws.root / rel
    if old.exists():
        if turnfile.read(old).hash != tf.hash:
            raise PbemError(games.reused_id(tf.name, gid), "game-id")
        return ImportResult("duplicate", gid, 0, f"invitation {gid} is already kept")
    tx.put(rel, tf.raw)
    return ImportResult(
        "stored",
        gid,
        0,
        f"{games.inviter_of(g).text()}; you would play {turnfile.other(g.creator)}: "
        f"accept with `pbem join {rel} --me NAME`, or refuse with `pbem decline {gid} --me NAME`",
    )


def _reexecuted(game: machine.Game, file: machine.Authentic, reports: list[report.FileReport]) -> machine.Game:
    reports.append(report.apply_reported(game, file))
    return game


def _catch_up(
    lg: LocalGame,
    genesis: machine.Genesis,
    game: machine.Game,
    tx: Transaction,
    first: TurnFile,
    reports: list[report.FileReport],
) -> tuple[machine.Game, list[str]]:
    """Re-execute the files that arrived early and now follow on, in sequence order."""
    applied = {first.seq: first}
    notes: list[str] = []
    for wf in lg.waiting():
        if wf.seq > game.seq + 1:
            break  # still a gap before this one: it stays stored
        lg.stage_unwait(tx, wf)
        if wf.seq <= game.seq:  # overtaken: a duplicate, or a second version of that position
            existing = applied.get(wf.seq) or lg.history_file(wf.seq)
            if existing is not None and existing.hash != wf.hash and existing.side == wf.side:
                lg.stage_evidence(tx, existing, wf)
                notes.append(f"EQUIVOCATION: {wf.side} also signed another file {wf.seq}; both kept as evidence")
            continue
        try:
            more: list[report.FileReport] = []
            game = _reexecuted(game.clone(), machine.authenticate(genesis, wf, game), more)
            reports += more
        except PbemError as exc:
            notes.append(f"dropped waiting file {wf.seq}: {exc}")
            continue
        applied[wf.seq] = wf
        lg.stage_history(tx, wf)
        _follow_handover(lg, wf, tx)
        notes.append(f"then file {wf.seq}")
    return game, notes


def _follow_handover(lg: LocalGame, tf: TurnFile, tx: Transaction) -> None:
    """Mail follows a side to its new holder.  The opponent's files go to the address the
    hand-over names; the new holder, to whom the old one mails the hand-over, passes it on to
    the opponent (with its first decision, which is due next)."""
    if tf.type != "handover":
        return
    if tf.side != lg.me:
        # The new holder's contact statements count from its own first one.
        lg.meta.pop(contact.SEEN, None)
        if "email" in tf.body:
            lg.meta["opponent_email"] = tf.body["email"]
        lg.stage_meta(tx)
    elif tf.body["key"] == lg.identity().public.raw:
        lg.meta.pop("handover_pending", None)
        lg.stage_meta(tx)
        lg.stage_outbox(tx, tf)


def _taken(lg: LocalGame, file: machine.Authentic, existing: TurnFile | None, tx: Transaction) -> ImportResult:
    """A file for a position the other side's file fills: my late file overtaken by a
    claim, or a file out of turn."""
    tf = file.tf
    if tf.type == "claim" and existing is not None and existing.side == lg.me:
        crossed = claim.refuse_crossing(lg, file, tx)
        if crossed is not None:
            note, resent = crossed
            return ImportResult(
                "rejected", tf.game, tf.seq, f"{tf.name}: DISPUTE: {note}", resent, code="claim-crossed"
            )
        return _overtaken(lg, file, tx)
    voided = claim.void_my_claims(lg, file, tx)
    if voided is not None:
        game, note = voided
        replies = turn.answer(lg, game, tx)
        msg = f"applied {tf.name}: DISPUTE: {note}. {status.status_line(lg, game, lg.pending())}"
        return ImportResult("applied", tf.game, tf.seq, msg, replies)
    raise PbemError(
        f"{tf.name}: position {tf.seq} of game {tf.game} is already filled by a file from "
        f"{existing.side if existing else 'the other side'} (out of turn)",
        "sequence",
    )


def _keep_waiting(lg: LocalGame, file: machine.Authentic, tx: Transaction, head: int) -> ImportResult:
    tf = file.tf
    for wf in lg.waiting():
        if wf.seq == tf.seq:
            if wf.hash == tf.hash:
                return ImportResult("duplicate", tf.game, tf.seq, f"{tf.name} is already waiting for file {head + 1}")
            if wf.side == tf.side:
                where = lg.stage_evidence(tx, wf, tf)
                raise _Equivocation(tf, where, tx)
    lg.stage_waiting(tx, tf)
    return ImportResult("stored", tf.game, tf.seq, f"kept {tf.name}; it will be applied once file {head + 1} arrives")


def _overtaken(lg: LocalGame, file: machine.Authentic, tx: Transaction) -> ImportResult:
    """A valid claim for a position my own late file took: the claim wins (its signed time
    shows my deadline had passed), my files from there on are dropped and I decide again."""
    tf = file.tf
    game = claim.overtake(lg, file, tx)
    replies = turn.answer(lg, game, tx)
    msg = (
        f"applied {tf.name}: the opponent claimed your missed deadline before your file {tf.seq} arrived; "
        f"your file {tf.seq} is withdrawn: decide again. {status.status_line(lg, game, lg.pending())}"
    )
    return ImportResult("applied", tf.game, tf.seq, msg, replies)


def _second_genesis(lg: LocalGame, tf: TurnFile, tx: Transaction) -> None:
    """A second invitation to a game I hold, signed by the key that signed the first, is that
    player's equivocation: refused, and both kept as evidence like any other."""
    held = lg.genesis()
    if tf.type != "genesis" or tf.hash == held.hash or not tf.verify_signature_ok(held.body["keys"][held.side]):
        return
    where = lg.stage_evidence(tx, held, tf)
    raise _Kept(f"{games.reused_id(tf.name, tf.game)}; both invitations are kept as evidence in {where}", "game-id", tx)


class _Kept(PbemError):
    """Rejection that still commits its evidence."""

    def __init__(self, message: str, code: str, tx: Transaction) -> None:
        super().__init__(message, code)
        self.tx = tx


class _Equivocation(_Kept):
    def __init__(self, tf: TurnFile, where: str, tx: Transaction) -> None:
        super().__init__(
            f"{tf.name}: EQUIVOCATION: {tf.side} signed two different files for position {tf.seq} "
            f"of game {tf.game}; both are kept as evidence in {where}",
            "equivocation",
            tx,
        )


def game_info(workspace: Path, game_id: str, home: Path | None = None) -> GameInfo:
    ws = Workspace(workspace)
    with ws.game_locked(game_id):
        lg = LocalGame(ws, game_id, home)
        line = status.lines(ws, game_id, home)[0]
        game = lg.game()
        exp = machine.expected(game) if game is not None else None
        return GameInfo(
            lg.me,
            lg.meta.get("my_email", ""),
            lg.meta.get("opponent_email", ""),
            exp is not None and exp.side == lg.me and not lg.meta.get("handover_pending"),
            line,
            lg.meta.get("handed_over_at", 0),
            lg.meta.get("handover_peer", ""),
        )


def file_report(workspace: Path, game_id: str, seq: int, home: Path | None = None) -> dict[str, str] | None:
    """What the mail carrying file ``seq`` of a game says: ``{"subject": ..., "text": ...}``;
    for the invitation (file 0), what it is and the command that joins it.  None if unknown."""
    ws = Workspace(workspace)
    if seq == 0:
        try:
            g = machine.Genesis(LocalGame(ws, game_id, home).genesis().body)
            level = gameoptions.level(g.body["options"])
        except (PbemError, OSError, KeyError):
            return None
        return report.invitation(g.game, g.body["scenario"], g.body["names"][g.creator], g.creator, level)
    doc = report.stored(ws.game_paths(game_id), seq)
    if doc is None:
        return None
    subject, text = doc.get("subject"), doc.get("text")
    if not isinstance(subject, str) or not isinstance(text, str):
        return None
    return {"subject": subject, "text": text}


def file_picture(workspace: Path, game_id: str, seq: int, home: Path | None = None) -> tuple[str, bytes] | None:
    """A PNG of the front for the mail that carries file ``seq``, as its receiver will see the
    position, around the places the file's events name: ``(file name, bytes)``, or None when
    the file moved nothing on the map, when the game has gone past it (the picture would
    show a later position than the file), or when the file awaits a roll (see below)."""
    doc = report.stored(Workspace(workspace).game_paths(game_id), seq)
    rep = doc.get("report") if doc else None
    places = sorted(since.places([rep])) if isinstance(rep, dict) else []
    if not places:
        return None
    try:
        lg = LocalGame(Workspace(workspace), game_id, home)
        game = lg.game()
    except (PbemError, OSError):
        return None
    if game is None or game.seq != seq:
        return None
    exp = machine.expected(game)
    if exp is not None and exp.kind == "dice" and exp.side != lg.me:
        # The receiver's client answers with its dice value at once, and my next mail shows
        # what the roll did: a picture of the position before it would be out of date on arrival.
        return None
    from pbem.play import gamemap  # the renderer and its fonts are loaded only when a picture is made

    png = gamemap.mail_picture(game, turnfile.other(lg.me), places)
    return (f"{game_id}-{seq:05d}-front.png", png) if png is not None else None


class NoticeDoc(TypedDict):
    """What :func:`notice` hands the mail service."""

    decision: str
    status: str
    short: list[str]
    full: str


def notice(workspace: Path, game_id: str, home: Path | None = None) -> NoticeDoc | None:
    """What the mail that says it is my move in a game says, as `pbem status` sees the game
    after my automatic records: ``{"decision": "1939-09 Axis advance", "status": the status
    line, "short": [lines], "full": text}``, the last two what happened since my last
    decision; None before the game began."""
    found = status.notice(Workspace(workspace), game_id)
    if found is None:
        return None
    return {"decision": found.decision, "status": found.status, "short": found.short, "full": found.full}


def notice_picture(workspace: Path, game_id: str, home: Path | None = None) -> tuple[str, bytes] | None:
    """A PNG of the position as I see it now, around the places of what happened since my
    last decision: ``(file name, bytes)``, or None when nothing happened on the map or the
    map renderer is not installed."""
    ws = Workspace(workspace)
    found = status.notice(ws, game_id)
    if found is None or not found.places:
        return None
    with ws.game_locked(game_id):
        t = turn.my_turn(LocalGame(ws, game_id, home))
    try:
        from pbem.play import gamemap  # the renderer and its fonts are loaded only when a picture is made

        png = gamemap.mail_picture(t.work, t.lg.me, found.places)
    except ImportError as err:
        log.warning("no picture for the notice of game %s: the map renderer is not installed (%s)", game_id, err)
        return None
    return (f"{game_id}-{t.game.seq:05d}-now.png", png) if png is not None else None
