"""Turn reports: what each file of a game did, in full, for people and programs.

A file is re-executed record by record (:func:`pbem.protocol.machine.apply_turn` with a watcher); a
whole game by :mod:`pbem.protocol.replay` with :class:`Reports`.
Its records fall into entries: a run of sequential orders within one phase, a hidden
list opened, a commitment, a dice value.  Each entry reports the orders that the changes
do not show by themselves (declarations, attacks, purchases...), what the dice did
(every combat in full: strengths and modifiers, odds, draws, losses, retreats), and
every change of the position that followed (the engine's ``changes``: wars entered,
units placed, moved or eliminated, hexes taken, money, supply, the month).

Nothing is stored: reports are worked out from the files whenever they are asked for.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pbem.play import sittings
from pbem.protocol import advance, deadlines, engine_link, machine, replay, turnfile
from pbem.protocol.jsondoc import Doc, Json
from pbem.protocol.machine import Game
from pbem.protocol.records import Act, React, ReactionWire, Record, Reveal, Sim, Wire
from pbem.protocol.rules import Snapshot
from pbem.protocol.turnfile import Sign, TurnFile, other
from pbem.protocol.words import phase_name, sides_of
from pbem.store import keys
from pbem.store.store import GamePaths, Transaction

#: Order kinds whose effect the changes of the position report (a unit placed, moved...).
SHOWN_BY_CHANGES = frozenset({"pass", "move", "rail", "place", "place_land", "embark", "disembark"})

_RECORD_NAMES = {"act": "orders", "sim": "orders", "reveal": "orders revealed", "commit": "sealed orders"}
#: What an ending record (pbem/protocol/endings.py) says, after its side.
_ENDINGS = {
    "resign": "resign: the other side wins",
    "offer-draw": "offer a draw",
    "accept-draw": "accept the draw: the game ends drawn",
    "decline-draw": "decline the draw offer",
    "withdraw-draw": "withdraw their draw offer",
}


@dataclass
class Entry:
    """What one record, or one run of sequential orders in one phase, did."""

    when: str  # the month, YYYY-MM
    phase: str  # the engine's phase name when the record was applied
    side: str
    record: str  # the record kind: act, sim, reveal, commit, dice
    orders: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    data: list[dict[str, Json]] = field(default_factory=list)
    #: who gave it when the file says (its side's standing orders), else judged by ``record``
    by: str = ""

    def heading(self) -> str:
        return f"{self.when} {phase_name(self.phase)} - {self.side}"

    def body(self) -> list[str]:
        out = []
        if self.record == "commit":
            out.append(f"{self.side} seal their orders (revealed once both sides have handed theirs in)")
        elif self.record == "seal":
            out.append(f"{self.side} seal their reaction orders (opened only when they decide something)")
        elif self.record == "react":
            out.append(f"{self.side} open their reaction orders ({self.orders[0]}), which decide:")
            out += [f"  {order}" for order in self.orders[1:]] or ([] if self.lines else ["  nothing: a pass"])
        elif self.record == "dice" and not self.lines:
            out.append(f"{self.side} hand in their dice value; the roll follows with the other side's")
        elif self.record in _ENDINGS:
            out.append(f"{self.side} {_ENDINGS[self.record]}")
        if self.orders and self.record != "react":
            what = "standing orders" if self.by == sittings.STANDING else _RECORD_NAMES.get(self.record, "orders")
            out.append(f"{self.side} {what}: " + "; ".join(self.orders))
        out += self.lines
        return out or [f"{self.side}: no change"]

    def to_json(self) -> Doc:
        return {
            "when": self.when,
            "phase": self.phase,
            "side": self.side,
            "record": self.record,
            "by": self.by or sittings.by(self.record),
            "orders": [*self.orders],
            "events": [*self.data],
        }


@dataclass
class FileReport:
    """The report of one file of a game."""

    game: str
    seq: int
    side: str
    name: str
    entries: list[Entry]
    next_up: str = ""  # what the game awaits after this file, for people
    subject: str = ""  # the date and phase a mail carrying this file names (see subject_tag)

    @property
    def months(self) -> set[str]:
        return {e.when for e in self.entries}

    def text(self) -> str:
        """The whole report, never cut: a heading line, then each entry's lines indented."""
        out = [f"file {self.seq} of game {self.game} ({self.side}): {self.name}"]
        heading = ""
        for e in self.entries:
            if e.heading() != heading:
                heading = e.heading()
                out.append(f"  {heading}")
            out += [f"    {line}" for line in e.body()]
        if self.next_up:
            out.append(f"  now: {self.next_up}")
        return "\n".join(out)

    def to_json(self) -> Doc:
        return {
            "game": self.game,
            "seq": self.seq,
            "side": self.side,
            "file": self.name,
            "entries": [e.to_json() for e in self.entries],
            "next": self.next_up,
        }


class _Recorder:
    """Watches the records of one file as they are applied and cuts them into entries."""

    def __init__(self, side: str, standing: Collection[int] = ()) -> None:
        self.api = engine_link.api()
        self.side = side
        self.standing = frozenset(standing)  # the positions of the records standing orders gave
        self.seen = 0
        self.entries: list[Entry] = []
        self.open: Entry | None = None
        self.before: Snapshot | None = None

    def watch(self, game: Game, rec: Record) -> None:
        d = self.api.decision(game.state)
        e = self.open
        by = sittings.STANDING if self.seen in self.standing else ""
        self.seen += 1
        if (
            e is not None
            and isinstance(rec, Act)
            and e.record == "act"
            and (e.when, e.phase, e.by) == (d.when, d.phase, by)
        ):
            self._orders(game, [rec.action])
            return
        self.close(game)
        self.open = Entry(d.when, d.phase, self.side, rec.KIND, by=by)
        self.before = self.api.snapshot(game.state)
        game.events = []
        if isinstance(rec, Act):
            self._orders(game, [rec.action])
        elif isinstance(rec, Sim | Reveal):
            self._orders(game, rec.actions)
        elif isinstance(rec, React):
            self.open.orders.append(reaction_words(rec.orders))

    def _orders(self, game: Game, wires: list[Wire]) -> None:
        assert self.open is not None
        for w in wires:
            try:
                action = self.api.Action.from_wire(w)
            except Exception:  # the record is refused when applied; this only reads it
                continue
            if action.kind not in SHOWN_BY_CHANGES:
                self.open.orders.append(self.api.format_action(game.state, action))

    def report(self, game: Game, tf: TurnFile) -> FileReport:
        self.close(game)
        made = FileReport(game.gid, tf.seq, tf.side, tf.name, self.entries, awaited(game), subject_tag(game))
        if tf.type != "turn":
            d = self.api.decision(game.state)
            made.entries.insert(0, Entry(d.when, d.phase, tf.side, tf.type, lines=[_about(tf, game)]))
        return made

    def close(self, game: Game) -> None:
        e = self.open
        if e is None:
            return
        if e.record == "react":
            shown = [a for a in game.reacted if a.kind not in SHOWN_BY_CHANGES]
            e.orders += [self.api.format_action(game.state, a) for a in shown]
        told = list(game.events)
        events = told + self.api.changes(self.before, game.state, told)
        e.lines = [self.api.event_text(game.state, x) for x in events]
        p = game.pending
        if e.record == "sim" and isinstance(p, machine.SimStep) and p.clear is not None:
            e.lines.insert(0, f"{self.side} hand in their orders in the clear; they take effect with the other side's")
        e.data = [self.api.event_json(game.state, x) for x in events]
        self.entries.append(e)
        self.open = None


def reaction_words(orders: ReactionWire) -> str:
    """Reaction orders ``[intercept, land, only]`` (and the retreat part, if any) for people."""
    who = {"ask": "the player", "bot": "the computer", "pass": "nobody"}
    intercept, land, only = orders[:3]
    aircraft = f" (only {', '.join(f'#{u}' for u in only)})" if only else ""
    text = f"interceptions by {who[str(intercept)]}{aircraft}, landings by {who[str(land)]}"
    if len(orders) < 4:
        return text
    retreat = "picked by the engine" if orders[3] == "bot" else "toward the hexes their order names"
    return f"{text}, retreats {retreat}"


def kept_recorder(side: str) -> _Recorder:
    """A watcher for automatic records that stay unsent until my next decision (see
    :func:`kept_report`); set its ``standing`` before watching a record my standing orders gave."""
    return _Recorder(side)


def kept_report(game: Game, recorder: _Recorder) -> FileReport:
    """What my automatic records did that wait in my pending turn, to go out with my next
    decision: a roll my own dice value finished is shown now, before I decide what follows."""
    recorder.close(game)
    seq = game.seq + 1
    name = "your automatic answer (it goes out with your next file)"
    return FileReport(game.gid, seq, recorder.side, name, recorder.entries, awaited(game), subject_tag(game))


def apply_reported(game: Game, file: machine.Authentic) -> FileReport:
    """Verify and apply ``file`` to ``game`` (as :func:`pbem.protocol.advance.apply_file`) and report it."""
    rec = _Recorder(file.tf.side, file.tf.body.get("standing", ()))
    advance.apply_file(game, file, rec.watch)
    return rec.report(game, file.tf)


def _about(tf: TurnFile, game: Game) -> str:
    """What a claim, new terms or a hand-over did, for people."""
    side, silent = tf.side, other(tf.side)
    if tf.type == "claim" and game.reminded:
        until = deadlines.when(deadlines.due_at(game))
        line = f"{side} claim that {silent} missed their deadline: a reminder; {silent} decide until {until}"
        due = tf.body["due"]
        return line + (f" ({deadlines.automatic_note(due)})" if due in deadlines.AUTOMATIC else "")
    if tf.type == "claim":
        if game.forfeited:
            return f"{side} claim again: {silent} forfeit the game"
        return f"{side} claim again: the bot made {sides_of(silent)} decision"
    if tf.type == "terms":
        rule = {"bot": "the bot plays", "forfeit": "the silent side forfeits"}.get(tf.body.get("silence", ""))
        then = f"; after a missed deadline and a reminder, {rule}" if rule else ""
        return f"both sides agree on a new deadline: {tf.body['deadline'] / 3600:g} hours per decision{then}"
    at = f" ({tf.body['email']})" if "email" in tf.body else ""
    return f"{side} hand their side over to the key {keys.fingerprint(tf.body['key'])}{at}"


def build_reported(
    game: Game, side: str, records: Sequence[Record], sign: Sign, standing: Sequence[int] = ()
) -> tuple[TurnFile, FileReport]:
    """Apply my ``records`` and seal them (as :func:`pbem.protocol.machine.build_turn`), with the report."""
    rec = _Recorder(side, standing)
    tf = machine.build_turn(game, side, records, sign, rec.watch, standing)
    return tf, rec.report(game, tf)


def start_reported(genesis: TurnFile, join: machine.Authentic, base: bytes | None = None) -> tuple[Game, FileReport]:
    """The game set up by its join file (from ``base`` for a branch), and the report of that file."""
    game = machine.start(genesis, join, base)
    return game, _joined(game, join.tf)


def _joined(game: Game, tf: TurnFile) -> FileReport:
    """The report of the join file ``tf``, which set ``game`` up."""
    d = engine_link.api().decision(game.state)
    parent = game.genesis.parent
    begins = f"the game begins: scenario {game.genesis.body['scenario']}, {d.when}"
    if parent is not None:
        begins += f", from game {parent['game']} after its file {parent['seq']}"
    entry = Entry(d.when, d.phase, tf.side, "join", lines=[begins])
    return FileReport(game.gid, tf.seq, tf.side, tf.name, [entry], awaited(game), subject_tag(game))


class Reports(replay.Visitor):
    """The report of each file of a replay, in order (:attr:`made`)."""

    def __init__(self) -> None:
        self.made: list[FileReport] = []
        self._recorder: _Recorder | None = None

    def before(self, game: Game, tf: TurnFile) -> machine.Watcher:
        self._recorder = _Recorder(tf.side, tf.body.get("standing", ()))
        return self._recorder.watch

    def after(self, game: Game, tf: TurnFile) -> None:
        if tf.type == "join":
            self.made.append(_joined(game, tf))
            return
        assert self._recorder is not None
        self.made.append(self._recorder.report(game, tf))
        self._recorder = None


def awaited(game: Game) -> str:
    """What the game waits for now, for people: ``1939-10 Allied combat: allies``."""
    api = engine_link.api()
    d = api.decision(game.state)
    exp = machine.expected(game)
    if exp is None:
        ended = machine.outcome(game)
        winner = machine.winner(game)
        return f"the game is over: {ended}" if ended else f"the game is over{f': the {winner} win' if winner else ''}"
    return f"{d.when} {phase_name(d.phase)}: {exp.side}"


def reports(files: list[TurnFile], base: bytes | None = None) -> Iterator[FileReport]:
    """The report of every file of a game from its join on (``files`` from the genesis; a
    branch starts from ``base``)."""
    if len(files) < 2:
        return
    reporter = Reports()
    for _ in replay.walk(files, base=base, visitor=reporter):
        yield reporter.made[-1]


def subject_tag(game: Game) -> str:
    """The date and phase a mail's subject names: those of the decision now awaited."""
    api = engine_link.api()
    d = api.decision(game.state)
    if machine.expected(game) is None:
        return f"{d.when} game over"
    return f"{d.when} {phase_name(d.phase)}"


# --- reports kept with a game, for the mails ---------------------------------------------


def of_replies(before: Game, tx: Transaction, replies: list[Path]) -> list[FileReport]:
    """The reports of my automatic answers, staged in ``tx``, applied to ``before`` (changed)."""
    out = []
    for path in replies:
        data = tx.writes.get(f"outbox/{path.name}")
        if data is not None:
            out.append(apply_reported(before, machine.authenticate(before.genesis, turnfile.parse(data), before)))
    return out


def stage(tx: Transaction, paths: GamePaths, reports: list[FileReport]) -> None:
    """Keep each file's report with its game: the mail that carries the file quotes it."""
    for r in reports:
        doc = {"subject": r.subject, "text": r.text(), "report": r.to_json()}
        tx.put(paths.report(r.seq), json.dumps(doc, sort_keys=True, indent=1).encode())


def stored(paths: GamePaths, seq: int) -> Doc | None:
    """The kept report of file ``seq`` of a game ({"subject", "text", "report"}), if any."""
    path = paths.path(paths.report(seq))
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


#: How a person new to pbem installs it and makes a key, as the README's "Joining a game
#: you were invited to" says (tests/test_since.py holds the two together).
INSTALL = "python3 -m pip install -e .   # in a copy of pbem's source folder; Python 3.11 or newer"
KEYGEN = "pbem keygen YOUR-NAME --email YOUR-ADDRESS"


def invitation(
    gid: str, scenario: str, creator_name: str, creator_side: str, level: int | None = None
) -> dict[str, str]:
    """The subject and text of the mail carrying an invitation (a game's genesis file);
    ``level``: the level it asks of a computer opponent."""
    joiner = turnfile.other(creator_side)
    asked = "" if level is None else f"The invitation asks a computer opponent to play at level {level} (of 1 to 4).\n"
    text = (
        f"{creator_name} invites you to a game of pbem, World War 2 by e-mail: scenario {scenario}.\n"
        f"{creator_name} plays the {creator_side}; you would play the {joiner}.\n{asked}\n"
        f"The attached file is the invitation (game {gid}). New to pbem? Install it, then join\n"
        "with the saved attachment (the second line once makes your key, then joins):\n\n"
        f"    {INSTALL}\n"
        f"    {KEYGEN} && pbem join {gid}-00000-{creator_side}.pbem --me YOUR-NAME\n\n"
        "If you run `pbem mail run`, the invitation is kept for you; join with:\n\n"
        f"    pbem join .pbem/invitations/{gid}.pbem --me YOUR-NAME\n"
    )
    return {"subject": f"invitation to a {scenario} game as the {joiner}", "text": text}
