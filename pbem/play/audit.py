"""Re-verifying a whole game from its files, and checking one file against the local game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ParamSpec, TypeVar

from pbem.errors import PbemError
from pbem.play import branch, decline, placement
from pbem.play.placement import Place
from pbem.protocol import advance, deadlines, machine, replay, turnfile
from pbem.protocol.records import Reveal
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

MAX_AUDIT_FILES = 200_000


@dataclass
class AuditReport:
    game_id: str
    files: int
    rolls: int
    commitments: int
    last: str
    over: bool
    result: str = ""  # how the players ended it (resignation, draw, declined invitation)

    def line(self) -> str:
        end = f"game over: {self.result}" if self.result else "game over" if self.over else f"last file {self.last}"
        return (
            f"audit OK: game {self.game_id}: {self.files} files, {self.rolls} rolls and {self.commitments} "
            f"commitments verified; {end}"
        )


def audit_dir(directory: Path, progress: Callable[[str], None] = lambda s: None) -> list[AuditReport]:
    """Verify every game found in ``directory`` from genesis on; raises PbemError naming the bad file.
    A branch is verified from its parent's files, which must be in ``directory`` too.
    ``progress`` hears each file verified."""
    found = _signed_files(directory)

    def source(gid: str) -> list[TurnFile] | None:
        return [file.tf for _, file in _in_order(gid, found[gid])] if gid in found else None

    return [_audit_game(gid, entries, source, progress) for gid, entries in sorted(found.items())]


def game_files(directory: Path) -> dict[str, list[TurnFile]]:
    """Each game's files in ``directory``, signatures checked and without gaps, in sequence order
    (re-executing them is the caller's part).  Where a claim and the other side's file cross,
    the one section 12.3 refuses is set aside and the game read on with the other."""
    found = _signed_files(directory)
    read: dict[str, list[TurnFile]] = {}

    def files_of(gid: str) -> list[TurnFile]:
        if gid not in read:
            read[gid] = [file.tf for _, file in _read_on(gid, found[gid], source)]
        return read[gid]

    def source(gid: str) -> list[TurnFile] | None:
        return files_of(gid) if gid in found else None

    return {gid: files_of(gid) for gid in found}


def _signed_files(directory: Path) -> dict[str, list[tuple[Path, TurnFile]]]:
    if not directory.is_dir():
        raise PbemError(f"{directory.name or directory}: not a directory", "usage")
    paths = sorted(p for p in directory.iterdir() if p.suffix == ".pbem" and not p.name.startswith("."))
    if not paths:
        raise PbemError(f"no .pbem files in {directory.name or directory}", "usage")
    if len(paths) > MAX_AUDIT_FILES:
        raise PbemError("too many files to audit", "usage")
    games: dict[str, list[tuple[Path, TurnFile]]] = {}
    for p in paths:
        tf = turnfile.read(p)  # names the file on error
        games.setdefault(tf.game, []).append((p, tf))
    # A file whose game has no genesis here is named first: a damaged game id would
    # otherwise show up only as a gap in the game it came from.
    for entries in games.values():
        for p, tf in entries:
            if tf.seq == 0:
                _named(p, machine.check_genesis, tf)
    for gid, entries in sorted(games.items()):
        if not any(tf.seq == 0 for _, tf in entries):
            p = entries[0][0]
            raise PbemError(f"{p.name}: belongs to game {gid}, whose genesis file (number 0) is not here", "sequence")
    return games


P = ParamSpec("P")
R = TypeVar("R")


def _named(p: Path, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run a check; an error names the file as it is on disk."""
    try:
        return fn(*args, **kwargs)
    except PbemError as exc:
        raise _naming(p, exc) from None


def _naming(p: Path, exc: PbemError) -> PbemError:
    msg = str(exc)
    return PbemError(msg if msg.startswith(p.name) else f"{p.name}: {msg}", exc.code, exc.rule)


Entry = tuple[Path, machine.Authentic]


def _in_order(gid: str, entries: list[tuple[Path, TurnFile]], claims: dict[int, Entry] | None = None) -> list[Entry]:
    """The files of one game from its genesis on: one genesis, signatures valid, no fork, no gap.
    With ``claims``, a claim for a position the other side's file also fills is put there
    instead of refused, which of the two stands to be told by the times (:class:`_Verified`)."""
    geneses = [(p, tf) for p, tf in entries if tf.seq == 0]
    if not geneses:
        p = entries[0][0]
        raise PbemError(f"{p.name}: belongs to game {gid}, whose genesis file (number 0) is not here", "sequence")
    # Every genesis was checked (self-signed by its creator's key) when the files were read.
    if len({g.hash for _, g in geneses}) > 1:
        raise PbemError(
            f"{geneses[1][0].name}: a second, different genesis for game {gid} ({geneses[0][0].name})", "equivocation"
        )
    genesis = geneses[0][1]
    g = machine.Genesis(genesis.body)
    # A side handed over signs with its new key: each file is checked against the keys its
    # side may have held here first, and against the key in force when it is re-executed.
    handed: dict[str, list[bytes]] = {}
    for _, tf in entries:
        if tf.type == "handover":
            handed.setdefault(tf.side, []).append(tf.body["key"])
    by_seq: dict[int, Entry] = {}
    for p, tf in entries:
        # Signatures first, so that a damaged file is named as such and never mistaken for a fork.
        file = _named(p, _authentic, g, tf, handed.get(tf.side, []))
        old = by_seq.get(tf.seq)
        if old is not None and old[1].tf.hash != tf.hash:
            by_seq[tf.seq] = _rival(old, (p, file), claims)
        else:
            by_seq[tf.seq] = (p, file)
    last = max(by_seq)
    missing = [s for s in range(last + 1) if s not in by_seq]
    if missing:
        raise PbemError(f"game {gid}: file {missing[0]} is missing (files up to {last} are present)", "sequence")
    return [by_seq[s] for s in range(last + 1)]


def _rival(old: Entry, new: Entry, claims: dict[int, Entry] | None) -> Entry:
    """Two different files for one position: the one the game holds while the times are not
    yet known, the claim put aside in ``claims``; raises PbemError for the other cases."""
    (p_old, f_old), (p, f) = old, new
    tf = f.tf
    if f_old.tf.side == tf.side:
        raise PbemError(
            f"{p.name}: {tf.side} signed two different files for position {tf.seq} ({p_old.name} "
            "and this one): equivocation",
            "equivocation",
        )
    kinds = {f_old.tf.type, tf.type}
    if claims is not None and "claim" in kinds and kinds != {"claim"}:
        held, claim = (old, new) if tf.type == "claim" else (new, old)
        other = claims.setdefault(tf.seq, claim)
        if other[1].tf.hash != claim[1].tf.hash:
            _rival(other, claim, None)  # the claimant signed two claims there: equivocation
        return held
    raise PbemError(
        f"{p.name}: position {tf.seq} is already filled by {f_old.tf.side}'s file {p_old.name} (out of turn)",
        "sequence",
    )


def _authentic(g: machine.Genesis, tf: TurnFile, later_keys: list[bytes]) -> machine.Authentic:
    """``tf`` signed by its side's genesis key, or by a key that side may have been handed to."""
    for key in later_keys:
        if tf.verify_signature_ok(key):
            return machine.Authentic(tf)
    return machine.authenticate(g, tf)


def _audit_game(
    gid: str, entries: list[tuple[Path, TurnFile]], source: branch.Source, progress: Callable[[str], None]
) -> AuditReport:
    claims: dict[int, Entry] = {}
    files = _in_order(gid, entries, claims)
    if len(files) == 1:
        return AuditReport(gid, 1, 0, 0, files[0][1].tf.name, False)
    p1, join = files[1]
    if join.tf.type == "decline":
        _named(p1, decline.check, files[0][1].tf, join.tf)
        if len(files) > 2:
            p2 = files[2][0]
            raise PbemError(f"{p2.name}: game {gid} ended when {join.tf.side} declined it; nothing may follow", "over")
        return AuditReport(gid, 2, 0, 0, join.tf.name, True, f"{join.tf.side} declined the invitation")
    parent = machine.Genesis(files[0][1].tf.body).parent
    base = None if parent is None else _named(files[0][0], branch.verified_base, source, parent)
    seen = _Verified(claims, lambda seq: progress(f"audit: game {gid}, file {seq} of {len(files) - 1}"))
    try:
        game = replay.replay([file.tf for _, file in files], base=base, visitor=seen)
    except _Crossed as exc:
        raise refused(exc.before, files[exc.seq], claims[exc.seq])[1] from None
    except PbemError as exc:
        raise _naming(files[seen.last + 1][0], exc) from None
    over = machine.expected(game) is None
    return AuditReport(gid, len(files), game.k, seen.commitments, files[-1][1].tf.name, over, machine.outcome(game))


def _read_on(gid: str, entries: list[tuple[Path, TurnFile]], source: branch.Source) -> list[Entry]:
    """The files of one game as :func:`_in_order` puts them, each crossed claim told by the times
    (:func:`refused`): set aside if the other side's file was in time, else put in its place."""
    claims: dict[int, Entry] = {}
    files = _in_order(gid, entries, claims)
    if not claims:
        return files
    parent = machine.Genesis(files[0][1].tf.body).parent
    base = None if parent is None else _named(files[0][0], branch.verified_base, source, parent)
    while True:  # a crossing stops the replay; it starts again with the file that stands there
        seen = _Verified(claims, lambda seq: None)
        try:
            replay.replay([file.tf for _, file in files], base=base, visitor=seen)
        except _Crossed as exc:
            claim = claims.pop(exc.seq)
            if refused(exc.before, files[exc.seq], claim)[0] is not claim:
                files[exc.seq] = claim
            continue
        except PbemError as exc:
            raise _naming(files[seen.last + 1][0], exc) from None
        return files


class _Crossed(Exception):
    """A claim and the other side's file for position ``seq``, reached by the replay: ``before`` is
    the game before it."""

    def __init__(self, before: machine.Game, seq: int) -> None:
        self.before = before
        self.seq = seq


class _Verified(replay.Visitor):
    """The last file re-executed (the one after it is the one refused) and the commitments opened;
    stops the replay (:class:`_Crossed`) before a position that a claim and the other side's
    file both fill.  ``told`` hears of each file re-executed (the progress line)."""

    def __init__(self, claims: dict[int, Entry], told: Callable[[int], None]) -> None:
        self.last = 0
        self.commitments = 0
        self.claims = claims
        self.told = told

    def after(self, game: machine.Game, tf: TurnFile) -> None:
        self.last = tf.seq
        self.told(tf.seq)
        self.commitments += sum(1 for r in tf.records if isinstance(r, Reveal))
        if tf.seq + 1 in self.claims:
            raise _Crossed(game.clone(), tf.seq + 1)


def refused(before: machine.Game, held: Entry, claim: Entry) -> tuple[Entry, PbemError]:
    """Of a claim and the other side's file for the position after ``before``, the one section
    12.3 refuses, and why: the claim if the file was sent in time (``claim-crossed``), else the
    file (the claim wins).  Raises PbemError when either is not valid there, whatever the times."""
    (p_held, f_held), (p_claim, f_claim) = held, claim
    for p, f in (held, claim):
        _named(p, advance.apply_file, before.clone(), f)
    seq, due = f_held.tf.seq, deadlines.when(deadlines.due_at(before))
    sent = deadlines.when(f_held.tf.body["time"]) if "time" in f_held.tf.body else "without a time"
    if deadlines.in_time(before, f_held.tf):
        return claim, PbemError(
            f"{p_claim.name}: {f_claim.tf.side}'s claim for position {seq} crossed {f_held.tf.side}'s file "
            f"{p_held.name}, sent in time at {sent} (the deadline was {due}): the claim is void",
            "claim-crossed",
        )
    return held, PbemError(
        f"{p_held.name}: position {seq} is {f_claim.tf.side}'s claim's ({p_claim.name}): this file was "
        f"sent at {sent}, after the deadline ({due})",
        "sequence",
    )


def verify_file(ws: Workspace, path: Path) -> str:
    """Check one file against the local game without changing anything."""
    tf = turnfile.read(path)
    if not LocalGame.has_game(ws, tf.game):
        if tf.type == "genesis":
            g = machine.check_genesis(tf)
            return f"{tf.name}: valid invitation to game {tf.game} from {g.body['names'][g.creator]} ({g.creator})"
        raise PbemError(f"{tf.name}: game {tf.game} is not in this workspace", "game")
    with ws.game_locked(tf.game):
        lg = LocalGame(ws, tf.game)
        game = lg.game()
        at = placement.place(lg, tf, game)
        if at.place == Place.DUPLICATE:
            return f"{tf.name}: valid; already applied"
        if at.place == Place.EQUIVOCATION:
            raise PbemError(
                f"{tf.name}: EQUIVOCATION: differs from the file {tf.seq} already applied, yet is signed by {tf.side}",
                "equivocation",
            )
        if at.place == Place.TAKEN:
            return _taken(lg, tf)
        if at.place == Place.EARLY:
            return f"{tf.name}: signature valid; it can be re-executed once file {at.head + 1} arrives"
        file = at.file
        assert file is not None
        genesis = at.genesis
        if tf.type == "decline":
            decline.check(genesis, tf)
            return f"{tf.name}: valid: {tf.side} declines the invitation"
        if game is None:
            machine.start(genesis, file, lg.base())
        else:
            advance.apply_file(game, file)
        return f"{tf.name}: valid: re-executed {len(tf.records)} record(s); state hash matches"


def _taken(lg: LocalGame, tf: TurnFile) -> str:
    """A file for a position my own file fills: a claim crossing it is told by the times as
    :func:`pbem.play.exchange.receive` tells it (section 12.3), anything else is out of turn."""
    held = lg.history_file(tf.seq)
    if tf.type == "claim" and held is not None and held.side == lg.me != tf.side:
        before = replay.replay([f for s in range(tf.seq) if (f := lg.history_file(s))], base=lg.base())
        claim = (Path(tf.name), machine.authenticate(before.genesis, tf, before))
        mine = (Path(held.name), machine.Authentic(held))
        loser, why = refused(before, mine, claim)
        if loser is claim:
            raise why
        if all((f := lg.history_file(s)) is not None and f.side == lg.me for s in range(tf.seq, lg.head() + 1)):
            return (
                f"{tf.name}: valid: the claim wins over your file {tf.seq}, sent after the deadline "
                f"({deadlines.when(deadlines.due_at(before))}); receiving it withdraws your files from "
                f"{tf.seq} on and you decide again"
            )
    raise PbemError(f"{tf.name}: position {tf.seq} is already filled (out of turn)", "sequence")
