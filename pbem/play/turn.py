"""My pending turn: the orders I give, take back and send, the bot playing for me, and
the records I owe automatically.

My turn is kept as *pending* records in the store until ``send`` seals them into a
signed file in ``outbox/``.  Records I owe that need no judgement (dice values,
opening my commitment), and the decisions my reaction orders answer (pbem/play/reactions.py),
are produced automatically; they are sent at once when control
then passes to the opponent, or staged at the head of my pending turn when a decision
of mine follows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import ahead, carry, crowded, levels, reactions, report
from pbem.play.status import Standing, awaited, said, standing_of
from pbem.protocol import commit, engine_link, machine
from pbem.protocol.machine import Expectation, Game
from pbem.protocol.records import Act, Commit, Ending, Record, Sim, Wire
from pbem.protocol.rules import Action, Draft, PassWarning, refusal_rule
from pbem.protocol.turnfile import TurnFile
from pbem.protocol.words import sides_of
from pbem.store import overview
from pbem.store.localgame import LocalGame, PendingTurn
from pbem.store.store import Transaction, Workspace

MAX_ORDERS = 20_000


def answer(
    lg: LocalGame,
    game: Game,
    tx: Transaction,
    kept: list[report.FileReport] | None = None,
    told: list[str] | None = None,
) -> list[Path]:
    """After ``game`` changed, produce what I owe automatically; stages snapshot, pending, outbox.

    Mutates ``game``: the records I owe are applied to it, my lists given ahead among them
    (pbem/play/ahead.py; what became of them is added to ``told``).  Records that wait for my
    next decision are reported into ``kept`` when it is given (the results of a roll my own
    dice value finished, which I should see before deciding what follows).
    """
    lg.stage_snapshot(tx, game)  # the game as accepted; replaced below if I answer at once
    records: list[Record] = []
    standing: list[int] = []  # the positions of the records my standing orders gave (reactions, lists given ahead)
    recorder = report.kept_recorder(lg.me) if kept is not None else None
    rounds = 0  # the decisions my reaction orders answered so far
    plan = ahead.Plan(lg)
    while True:
        answered: list[Record]
        if (opening := reactions.before_roll(lg, game)) is not None:
            answered, marked = [opening], False  # a react is a standing order's by its kind
        elif (rec := lg.auto_record(game)) is not None:
            answered, marked = [rec], False
        elif (given := plan.record(game)) is not None:
            answered, marked = [given], True
        else:
            answered, marked = reactions.answer(lg, game, rounds)
            rounds += 1
        if not answered:
            break
        if marked:
            standing += range(len(records), len(records) + len(answered))
        for owed in answered:
            owed = machine.spelled(game, lg.me, owed)
            if recorder is not None:
                recorder.standing = frozenset(standing)
                recorder.watch(game, owed)
            machine.apply_record(game, lg.me, game.seq + 1, owed, "automatic answer")
            records.append(owed)
    plan.stage(tx)
    if told is not None:
        told += plan.told
    exp = machine.expected(game)
    if records and (exp is None or exp.side != lg.me):
        sealing = None if exp is None else reactions.seal(lg, game, tx)
        if sealing is not None:
            machine.apply_record(game, lg.me, game.seq + 1, sealing, "the seal of my reaction orders")
            records.append(sealing)
        tf = machine.seal_turn(game, lg.me, records, lg.identity().sign, standing)
        lg.stage_pending(tx, None)
        return [stage_sealed(lg, tx, tf, game)]  # its report is made by the caller, from the outbox
    if records and kept is not None and recorder is not None:
        kept.append(report.kept_report(game, recorder))
    lg.stage_pending(tx, PendingTurn(game.seq, records, len(records), standing=standing) if records else None)
    overview.stage(tx, lg.ws, lg.gid, lg.me, game)
    return []


@dataclass
class Turn:
    """The game as it stands, and my unsent turn on top of it."""

    lg: LocalGame
    game: Game  # after the last accepted file
    work: Game  # after my pending records too
    pending: PendingTurn
    draft: Draft | None = None  # my simultaneous list, checked as it grows (opened when needed)


def my_turn(lg: LocalGame) -> Turn:
    lg.check_mine()
    game = lg.game()
    if game is None:
        raise PbemError(f"game {lg.gid} has not started: the opponent has not joined yet", "turn")
    pending = lg.pending()
    if pending.base not in (-1, game.seq):  # cannot happen: pending is always cleared when a file lands
        raise PbemError(f"game {lg.gid}: pending orders do not fit the game; run `pbem undo` to clear them", "store")
    work = game.clone()
    for i, rec in enumerate(pending.records, 1):
        machine.apply_record(work, lg.me, game.seq + 1, rec, f"pending record {i}")
    pending.base = game.seq
    return Turn(lg, game, work, pending)


def need_my_decision(t: Turn) -> Expectation:
    exp = machine.expected(t.work)
    if exp is None:
        raise PbemError(f"game {t.lg.gid} is over", "turn")
    if exp.side != t.lg.me:
        lg = t.lg
        owed = carry.owed(lg.ws, lg.gid, lg.meta, t.game.seq)
        then = f"; {carry.line(owed)}" if owed is not None and not lg.meta.get("solo") else ""
        raise PbemError(
            f"it is not your turn in game {lg.gid}: waiting for {exp.side} ({awaited(exp.kind)}){then}", "turn"
        )
    return exp


def _list_label(t: Turn) -> str:
    return f"your orders for {engine_link.api().decision(t.work.state).phase}"


def list_draft(t: Turn) -> Draft:
    """My simultaneous list as a draft: opened once per command, from the orders listed so far."""
    if t.draft is None:
        where = _list_label(t)
        draft = machine.open_draft(t.work, t.lg.me, where)
        for action in machine.actions_of(t.pending.sim or [], where):
            machine.offer(draft, action, where)
        t.draft = draft
    return t.draft


def add_action(t: Turn, action: Action, where: str, hint: bool = True) -> None:
    """Add one of my actions: applied at once in a sequential decision, listed in a simultaneous one.
    A refusal for a full hex names the free hexes near it unless ``hint`` is False (a
    program fitting a long list it did not write, which only names what is left out)."""
    exp = need_my_decision(t)
    if t.pending.sim is not None or exp.kind in ("commit", "sim"):
        # A simultaneous list is checked in order (an order may rely on the ones before
        # it, e.g. a merge that makes room), each order against the draft of those before.
        draft = list_draft(t)
        try:
            machine.offer(draft, action, _list_label(t))
        except PbemError as exc:
            # A hex already full: name the free hexes nearest it, so one run finds a place.
            free = crowded.full_hint(draft.state, t.lg.me, action, exc) if hint else ""
            raise PbemError(f"{where}: {exc}" + (f"; {free}" if free else ""), exc.code, exc.rule) from None
        t.pending.sim = [*(t.pending.sim or []), action.to_wire()]
        return
    if exp.kind != "act":
        raise PbemError(f"{where}: the game awaits an automatic {exp.kind} first", "turn")
    rec = Act(action.to_wire())
    machine.apply_record(t.work, t.lg.me, t.game.seq + 1, rec, where, actions=[action])
    t.pending.records.append(rec)


def warn_before_pass(t: Turn) -> None:
    """Refuse to end my decision when the engine says it would cost something overlooked.

    A pass stays legal (a turn file with it verifies): this guards a person at the
    keyboard only.  The refusal (code ``pass-warning``) says what it would cost; each face
    adds how to pass anyway there (:data:`PASS_WARNING`)."""
    api = engine_link.api()
    # My list so far is weighed through its draft: no second preview of the whole list.
    state = list_draft(t).state if t.pending.sim else t.work.state
    found = api.pass_warnings(state, t.lg.me)
    if found:
        said = "; ".join(w.sentence for w in found)
        raise PbemError(f"passing now would cost you: {said}", PASS_WARNING, found[0].slug)


#: The code of the refusal to pass at a cost (:func:`warn_before_pass`).
PASS_WARNING = "pass-warning"


def order_lines(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """The orders of an orders file with their line numbers: blank lines and comments left out."""
    for n, line in enumerate(lines, 1):
        text = line.strip()
        if text and not text.startswith("#"):
            yield n, text


@dataclass(frozen=True)
class Added:
    """Orders added to my pending turn: the lines as given, and where the game stands after them."""

    orders: list[str]
    standing: Standing

    def words(self) -> str:
        """What the command line says."""
        return f"{len(self.orders)} order(s) added to game {self.standing.gid}; {said(self.standing)}"


def orders(ws: Workspace, gid: str, lines: Iterable[str], home: Path | None = None, force: bool = False) -> Added:
    """Apply a text file of orders (all or nothing) to my pending turn; a ``pass`` that
    would cost something (:func:`warn_before_pass`) is refused unless ``force``."""
    api = engine_link.api()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        added: list[str] = []
        wrong: list[PbemError] = []
        for n, text in order_lines(lines):
            if n > MAX_ORDERS:
                raise PbemError(f"line {n}: too many orders in one file", "usage")
            need_my_decision(t)
            # A wrong line leaves the turn as it was, so the lines after it are still
            # checked: the player sees every mistake of the file in one run.
            try:
                action = api.parse_order(t.work.state, lg.me, text)
            except (api.OrderError, api.IllegalAction) as exc:
                wrong.append(PbemError(f"line {n}: {exc}", "order", refusal_rule(exc)))
                continue
            try:
                if action.kind == "pass" and not force:
                    warn_before_pass(t)
                add_action(t, action, f"line {n}")
            except PbemError as exc:
                msg = str(exc).removeprefix(f"line {n}: ")
                wrong.append(PbemError(f"line {n}: {msg}", exc.code, exc.rule))
                continue
            added.append(text)
        if wrong:
            raise all_wrong(wrong)
        tx = Transaction()
        lg.stage_pending(tx, t.pending)
        overview.stage(tx, ws, gid, lg.me, t.work)
        ws.commit(tx)
    return Added(added, standing_of(lg, t.work, t.pending))


#: Wrong lines listed in one refusal; a file with more is mostly wrong, and the first ones say why.
WRONG_LINES_SHOWN = 20


def all_wrong(wrong: list[PbemError]) -> PbemError:
    """One refusal for every wrong line of an orders file (the first line's code and rule)."""
    if len(wrong) == 1:
        return wrong[0]
    shown = [str(e) for e in wrong[:WRONG_LINES_SHOWN]]
    if len(wrong) > WRONG_LINES_SHOWN:
        shown.append(f"and {len(wrong) - WRONG_LINES_SHOWN} more wrong line(s)")
    head = f"{len(wrong)} wrong lines, nothing added (fix them all, then give the file again)"
    return PbemError(head, wrong[0].code, wrong[0].rule, details=tuple(shown))


def pending_lines(t: Turn) -> list[str]:
    """My pending orders as listed to me, in the order given: those applied, then my list."""
    api = engine_link.api()
    out = []
    for rec in t.pending.records[t.pending.auto :]:
        if isinstance(rec, Act):
            out.append(api.format_action(t.game.state, api.Action.from_wire(rec.action)))
        elif isinstance(rec, Ending):
            out.append(f"your {rec.kind}")
        else:
            out.append(f"your orders in the clear ({rec.KIND})")
    out += [api.format_action(t.work.state, api.Action.from_wire(w)) for w in t.pending.sim or []]
    return out


@dataclass(frozen=True)
class TakenBack:
    """What taking back a pending order did: the order taken back, how many of those after it
    were given again, and those the engine now refuses (each with its reason), dropped."""

    taken: str
    again: int = 0
    dropped: tuple[str, ...] = ()


def take_back(ws: Workspace, gid: str, home: Path | None = None, index: int | None = None) -> TakenBack:
    """Take back my pending order ``index`` as :func:`pending_lines` lists them (None: the
    last; automatic records cannot be taken back).  The orders after it are given again in
    their order, each checked by the engine as when it was first given; those it now
    refuses are dropped."""
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        p = t.pending
        listed = pending_lines(t)
        if index is None and p.sim == []:
            p.sim = None
            _save_pending(lg, p)
            return TakenBack("the empty order list")
        if index is None and not listed:
            raise PbemError(f"nothing to undo in game {gid}", "turn")
        index = len(listed) - 1 if index is None else index
        if not 0 <= index < len(listed):
            raise PbemError(f"there is no pending order {index + 1}: {len(listed)} are listed", "usage")
        acts = len(p.records) - p.auto
        if index < acts:
            later_records = p.records[p.auto + index + 1 :]
            if p.sim or not all(isinstance(r, Act) for r in later_records):
                raise PbemError("only your orders can be given again: take back the last ones first", "turn")
            later = [rec.action for rec in later_records if isinstance(rec, Act)]
            del p.records[p.auto + index :]
        else:
            assert p.sim is not None
            later = p.sim[index - acts + 1 :]
            p.sim = p.sim[: index - acts] or None
        _save_pending(lg, p)
        if not later:
            return TakenBack(listed[index])
        return TakenBack(listed[index], *_give_again(lg, later, index + 2))


def _give_again(lg: LocalGame, later: list[Wire], first: int) -> tuple[int, tuple[str, ...]]:
    """Give ``later`` (orders numbered from ``first``) again; those refused now are dropped."""
    api = engine_link.api()
    t = my_turn(lg)
    again, dropped = 0, []
    for n, wire in enumerate(later, first):
        action = api.Action.from_wire(wire)
        text = api.format_action(t.work.state, action)
        try:
            add_action(t, action, f"order {n}")
            again += 1
        except PbemError as exc:
            dropped.append(f"{text}: {str(exc).removeprefix(f'order {n}: ')}")
    tx = Transaction()
    lg.stage_pending(tx, t.pending)
    overview.stage(tx, lg.ws, lg.gid, lg.me, t.work)
    lg.ws.commit(tx)
    return again, tuple(dropped)


def _save_pending(lg: LocalGame, p: PendingTurn) -> None:
    tx = Transaction()
    lg.stage_pending(tx, p)
    overview.stage(tx, lg.ws, lg.gid, lg.me)
    lg.ws.commit(tx)


def seal_pending(t: Turn, force: bool = True, plan: ahead.Plan | None = None) -> tuple[TurnFile, Transaction]:
    """Seal my pending turn, with my simultaneous list as its last record; consumes ``t``.
    A list sealed without a ``pass`` ends the decision as one does, so unless ``force`` it
    is weighed first (:func:`warn_before_pass`).  ``plan``: my lists given ahead, when
    they are being given with this file (else the store's)."""
    lg = t.lg
    exp = machine.expected(t.work)
    records = list(t.pending.records)
    seq = t.game.seq + 1
    if exp is not None and exp.side == lg.me:
        if exp.kind == "act":
            d = engine_link.api().decision(t.work.state)
            raise PbemError(
                f"your decision is not finished ({d.phase}): add orders, ending with the phase's "
                "end order (e.g. 'pass'), or run `pbem bot play`",
                "turn",
            )
        if exp.kind in ("commit", "sim") and t.pending.sim is not None:
            # Only a list the player has started is sealed; to decide "nothing", order `pass`.
            sim = t.pending.sim
            listed = list_draft(t).actions  # a list read back from the store is checked again
            if not force and not any(w[0] == "pass" for w in sim):
                # Sealing a hidden list ends the decision as a pass does (a listed pass was
                # already weighed when it was given).
                warn_before_pass(t)
            last: Record
            if exp.kind == "commit":
                salt = lg.derived().salt(seq)
                last = Commit(commit.commitment(lg.gid, seq, lg.me, sim, salt))
            else:
                last = Sim(sim)
            machine.apply_record(t.work, lg.me, seq, last, _list_label(t), actions=listed)
            records.append(last)
    if not records:
        owed = carry.owed(lg.ws, lg.gid, lg.meta, t.game.seq)
        if exp is not None and exp.side == lg.me:
            hint = f": give orders for {engine_link.api().decision(t.work.state).phase} (`pass` alone means none)"
        elif exp is not None and owed is not None and not lg.meta.get("solo"):
            hint = f": it is {sides_of(exp.side)} turn; {carry.line(owed)}"
        else:
            hint = ""
        raise PbemError(f"nothing to send in game {lg.gid}{hint}", "turn")
    plan = plan or ahead.Plan(lg)
    if isinstance(records[-1], Commit):
        # The committed actions must be on disk before the commitment can leave: without
        # them the reveal would be impossible and the game stuck.
        plan.secrets[str(seq)] = t.pending.sim or []
    # A step of mine that follows at once, with my list given ahead for it, goes in this file.
    given_ahead: list[int] = []
    while (rec := plan.record(t.work)) is not None:
        machine.apply_record(t.work, lg.me, seq, rec, "your list given ahead")
        given_ahead.append(len(records))
        records.append(rec)
    # Sealed on the game as accepted (``t`` is consumed), record by record as the receiver
    # will apply them, so that the file's report is built the same way; it ends where my
    # working game does.
    game = t.game
    tx = Transaction()
    plan.stage(tx)
    # My reaction orders ride sealed with the file, unless the file ends the game or with an ending.
    sealing = None
    if not isinstance(records[-1], Ending) and machine.expected(t.work) is not None:
        sealing = reactions.seal(lg, t.work, tx)  # after my pending records, which may open my seal
    if sealing is not None:
        records.append(sealing)
    standing = [*t.pending.standing, *given_ahead]
    tf, made = report.build_reported(game, lg.me, records, lg.identity().sign, standing)
    t.work = game
    lg.stage_pending(tx, None)
    stage_sealed(lg, tx, tf, t.work, made)
    return tf, tx


def stage_sealed(
    lg: LocalGame, tx: Transaction, tf: TurnFile, game: Game, made: report.FileReport | None = None
) -> Path:
    """Stage the file ``tf`` I just sealed: its report (which the mail carrying it quotes),
    its place in the history, ``game`` as it leaves, the overview and the copy for outbox/.
    Stage my pending turn first: the overview is made from what ``tx`` leaves."""
    if made is not None:
        report.stage(tx, lg.paths, [made])
    lg.stage_history(tx, tf)
    lg.stage_snapshot(tx, game)
    overview.stage(tx, lg.ws, lg.gid, lg.me, game)
    return lg.stage_outbox(tx, tf)


def send(ws: Workspace, gid: str, home: Path | None = None, force: bool = False) -> Path:
    """Seal my pending turn; a hidden list whose sealing would cost something
    (:func:`warn_before_pass`) is refused unless ``force``."""
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        tf, tx = seal_pending(my_turn(lg), force)
        ws.commit(tx)
    return ws.outbox / tf.name


def _bot_thinks(t: Turn, player: str) -> None:
    """The computer player's decisions of my side, applied to ``t`` (nothing is stored)."""
    lg = t.lg
    if t.pending.empty:
        need_my_decision(t)
    for rounds in range(10_000):
        exp = machine.expected(t.work)
        if exp is None or exp.side != lg.me or t.pending.sim is not None:
            break
        if exp.kind not in ("act", "commit", "sim"):
            raise PbemError(f"game {lg.gid}: an automatic {exp.kind} is owed first; run `pbem import`", "turn")
        if rounds and ahead.Plan(lg).due(t.work):
            break  # my list given ahead for it goes with this file (seal_pending)
        actions = bot_decides(t, rounds, player)
        if exp.kind == "sim":
            # A list in the clear binds nothing hidden: record it now and play on.
            rec = Sim([a.to_wire() for a in actions])
            machine.apply_record(t.work, lg.me, t.game.seq + 1, rec, _list_label(t), actions=actions)
            t.pending.records.append(rec)
            continue
        if exp.kind == "commit":
            t.pending.sim = []
        elif not actions:
            raise PbemError("the computer player returned no action for a decision of its own", "bot")
        for i, action in enumerate(actions, 1):
            add_action(t, action, f"{lg.me} computer player, {exp.kind} action {i}")
            if exp.kind == "act" and machine.expected(t.work) != Expectation(lg.me, "act"):
                break  # control has left this decision; anything after belongs to a later one


def bot_decides(t: Turn, rounds: int, player: str) -> list[Action]:
    """The computer player's actions for my decision now; ``rounds`` counts the decisions
    it has already made in this turn (each gets its own seed)."""
    lg = t.lg
    seed = lg.derived().bot_seed(t.game.seq, rounds)
    try:
        return engine_link.ai().decide(t.work.state, lg.me, seed, player=player)
    except PbemError:
        raise
    except Exception as exc:
        raise PbemError(f"the computer player failed: {type(exc).__name__}: {str(exc)[:160]}", "bot") from None


def suggest(ws: Workspace, gid: str, home: Path | None = None, player: str = "bot") -> str:
    """The computer player's proposal for my current decision, as an order file that
    `pbem orders` reads back: what `bot play` would give first, nothing applied."""
    api = engine_link.api()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        what = need_my_decision(t).kind
        if what not in ("act", "commit", "sim"):
            raise PbemError(f"game {gid}: an automatic {what} is owed first; run `pbem import`", "turn")
        actions = bot_decides(t, 0, player)
    d = api.decision(t.work.state)
    lines = [
        f"# game {gid}, {d.when}, {d.phase}: {d.prompt}",
        f"# the computer player's proposal for the {lg.me} ({len(actions)} orders); edit it, then give it with",
        f"#   pbem orders {gid} FILE",
    ]
    if t.pending.sim:
        lines.append(
            f"# you have already listed {len(t.pending.sim)} orders; this proposal is a whole list "
            "and comes after them: take yours back with `pbem undo` or delete what repeats them"
        )
    before = next((i for i, a in enumerate(actions) if a.kind == "pass"), None)
    if before is not None:
        lines += [f"# passing now would cost you: {w.sentence}" for w in _passing_after(t, actions[:before])]
    # The order of the proposal stays: a list may rely on the orders before (a merge makes room).
    lines += [api.format_action(t.work.state, a, named=True) for a in actions]
    return "\n".join(lines) + "\n"


def _passing_after(t: Turn, actions: list[Action]) -> Sequence[PassWarning]:
    """What the engine warns a pass would cost once ``actions`` are given (on a copy)."""
    api = engine_link.api()
    if t.pending.sim is not None or machine.expected(t.work) != Expectation(t.lg.me, "act"):
        listed = [api.Action.from_wire(w) for w in t.pending.sim or []]
        try:
            return api.pass_warnings(api.preview(t.work.state, t.lg.me, listed + actions), t.lg.me)
        except api.IllegalAction:
            # The proposal is a whole list: after orders already listed it may not fit
            # (the header says so), and then there is no pass of it to weigh.
            return []
    work = t.work.clone()
    for i, action in enumerate(actions, 1):
        machine.apply_record(work, t.lg.me, t.game.seq + 1, Act(action.to_wire()), f"proposed order {i}", [action])
    return api.pass_warnings(work.state, t.lg.me)


def bot_play(ws: Workspace, gid: str, home: Path | None = None, player: str | None = None, ahead: bool = False) -> Path:
    """The computer makes my side's pending decisions, then the turn is sent.

    It thinks without the game's lock, so that a file of this game arriving meanwhile is
    not held up (the workspace's other games never wait for it: they have locks of their
    own); the turn is sealed under the lock if the game is still as it read it, and
    otherwise thought out again under the lock (where the game may since say it is not
    my turn).  With ``ahead``, after a hidden list it also gives my lists for the month's coming hidden
    steps, and at the end of my last sitting before the next month's steps their lists (a person
    who plays the month in one sitting; pbem/play/ahead.py): my program seals each as its step comes.
    ``player`` None: the player of the game's recorded level (:func:`recorded_player`)."""
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = my_turn(lg)
        read = lg.version()
        player = player or levels.recorded_player(lg)
    _bot_thinks(t, player)
    planned = _bot_ahead(t, player) if ahead else None
    with ws.game_locked(gid):
        if LocalGame(ws, gid, home).version() != read:
            t = my_turn(LocalGame(ws, gid, home))
            _bot_thinks(t, player)
            planned = _bot_ahead(t, player) if ahead else None
        tf, tx = seal_pending(t, plan=planned)
        ws.commit(tx)
    return ws.outbox / tf.name


def computer_side(ws: Workspace, gid: str, home: Path | None = None, player: str | None = None) -> list[Path]:
    """The computer playing a side on its own (the bot mailbox, the computer of a solo game):
    its pending decisions as `pbem bot play --ahead` makes them, after giving its reaction
    orders (the computer decides interceptions and landings, the engine picks retreats) if the side never gave any, so
    that its opponent waits for it no more than for a person with standing orders.  Returns
    the files written: none when no decision of the side is due.  ``player`` None: the player
    of the game's recorded level."""
    written: list[Path] = []
    if "reactions" not in LocalGame(ws, gid, home).meta:
        # Given once: the side's own choice, if it made one, stays.
        _, written = react(ws, gid, home, intercept="bot", land="bot", retreat="bot")
    lg = LocalGame(ws, gid, home)
    exp = machine.expected(my_turn(lg).work)
    if exp is None or exp.side != lg.me or exp.kind not in ("act", "commit", "sim"):
        return written
    return [*written, bot_play(ws, gid, home, player, ahead=True)]


def _bot_ahead(t: Turn, player: str) -> ahead.Plan | None:
    """The computer player's lists for my coming simultaneous steps: the month's, when the
    decision it has just made is one of them; the next month's, when this is my last sitting
    before them (ahead.worth_giving_ahead); None otherwise (it decides them as they come)."""
    records = t.pending.records
    if t.pending.sim is not None or (records and isinstance(records[-1], Sim)):
        return ahead.bot_ahead(t.lg, t.work, t.pending.sim, t.game.seq, player)
    if ahead.worth_giving_ahead(t.work.state, t.lg.me, t.lg.genesis().body["scenario"]):
        return ahead.bot_ahead(t.lg, t.work, None, t.game.seq, player)
    return None


def react(
    ws: Workspace,
    gid: str,
    home: Path | None = None,
    intercept: str | None = None,
    land: str | None = None,
    only: tuple[int, ...] | None = None,
    retreat: str | None = None,
) -> tuple[reactions.Reactions, list[Path]]:
    """Set my reaction orders (None: keep that part).  When my decision now is one they
    answer and I have not begun it, they answer it at once: the files written are returned."""
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        lg.check_mine()
        tx = Transaction()
        given = reactions.set_orders(lg, tx, intercept, land, only, retreat)
        written: list[Path] = []
        game = lg.game()
        if game is not None and lg.pending().empty:
            written = answer(lg, game, tx)
        ws.commit(tx)
    return given, written
