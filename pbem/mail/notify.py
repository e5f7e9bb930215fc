"""Telling the player it is their move: a log line, and optionally a mail to themselves.

A player sits at a game a few times a month (a sitting is a run of their decisions that only
the other side's automatic answers interrupt, see :mod:`pbem.play.sittings`), and each
automatic answer that arrives while they sit makes it their move again.  So a notice is held for
``notify.hold_seconds`` before it is mailed: a newer notice of the same game replaces a held
one, and when the hold is over the notice is dropped if the player sealed a file of the game
since (they are at the table) or it is no longer their move, and otherwise sent once, naming
the decision awaited then.  The held notice lives in the send queue, so a restart neither
loses it nor sends it twice.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pbem.mail.config import MailConfig
from pbem.mail.exchange_api import Exchange, GameInfoLike
from pbem.mail.message import TurnName, parse_turn_name, turn_subject
from pbem.mail.outqueue import Entry, SendQueue
from pbem.mail.threads import ThreadBook

log = logging.getLogger("pbem.mail")

NOTICE_BODY = """\
It is your move in pbem game {game} (you play {side}).

{status}

{report}

What to do: look at the game, give your orders, and seal them with `pbem send`.
The sealed file lands in outbox/ and the mail daemon sends it to {opponent}.
"""
SINCE_BODY = """\
It is your move in pbem game {game} (you play {side}): {decision}.

Since your last decision:
{short}

{status}

What to do: look at the game (`pbem status {game}`, `pbem show {game}`), give your orders,
and seal them with `pbem send {game}`. The sealed file lands in outbox/ and the mail daemon
sends it to {opponent}.

What happened since your last decision, in full (`pbem log {game} --since-mine`):

{full}
"""


TURN_HOWTO = (
    "This mail carries file {seq} of the pbem game {game} ({file}).\n"
    "If you run `pbem mail run`, it is fetched and checked automatically. Otherwise save the\n"
    "attachment into the inbox/ folder of your game workspace and run `pbem import`.\n"
)
BUNDLE_HOWTO = (
    "This mail carries files {seqs} of the pbem game {game} ({files}): a side's files that\n"
    "follow each other travel together. If you run `pbem mail run`, they are fetched and checked\n"
    "automatically. Otherwise save the attachments into the inbox/ folder of your game workspace\n"
    "and run `pbem import`.\n"
)


def turn_mail_text(
    exchange: Exchange, workspace: Path, turn: TurnName, home_kw: dict[str, Path], earlier: Sequence[TurnName] = ()
) -> tuple[str, str]:
    """The subject and body of the mail carrying ``turn`` (after the ``earlier`` files of the
    same game that travel with it): the date and phase the game awaits and the full report
    of what each file did (or, for an invitation, what it is and the command that joins it),
    from the game layer's ``file_report`` when it has one."""
    if earlier:
        files = [*earlier, turn]
        howto = BUNDLE_HOWTO.format(
            seqs=", ".join(str(t.seq) for t in files), game=turn.game_id, files=", ".join(t.filename for t in files)
        )
    else:
        howto = TURN_HOWTO.format(seq=turn.seq, game=turn.game_id, file=turn.filename)
    found = _kept_report(exchange, workspace, turn, home_kw)
    if found is None:
        return turn_subject(turn), howto
    subject, text = found
    if turn.seq == 0:
        return f"[pbem] {subject} - game {turn.game_id}", text
    texts = [kept[1] for t in earlier if (kept := _kept_report(exchange, workspace, t, home_kw)) is not None]
    return turn_subject(turn, subject), "\n\n".join([*texts, text, howto])


def notice_game(key: str) -> str:
    """The game of a notice's queue key (``notify:<game>:<seq>``)."""
    return key.split(":")[1] if key.startswith("notify:") and key.count(":") == 2 else ""


def _kept_report(
    exchange: Exchange, workspace: Path, turn: TurnName, home_kw: dict[str, Path]
) -> tuple[str, str] | None:
    lookup = getattr(exchange, "file_report", None)
    if not callable(lookup):
        return None
    try:
        found = lookup(workspace, turn.game_id, turn.seq, **home_kw)
    except Exception as err:  # a mail goes out even when its report cannot be read
        log.warning("no report for %s: %s", turn.filename, err)
        return None
    if not isinstance(found, dict):
        return None
    return str(found.get("subject", "")), str(found.get("text", ""))


class Notifier:
    def __init__(self, config: MailConfig, exchange: Exchange, queue: SendQueue, threads: ThreadBook) -> None:
        self.config = config
        self.exchange = exchange
        self.queue = queue
        self.threads = threads
        self.enabled = True  # the bot mailbox switches this off: nobody reads its notices
        self.clock: Callable[[], float] = time.time

    def after_import(self, game_id: str, status: str, result: object) -> None:
        if not self.enabled or status != "applied":
            return
        home_kw = {"home": self.config.home} if self.config.home is not None else {}
        info = self.exchange.game_info(self.config.workspace, game_id, **home_kw)
        if not info.my_turn:
            return
        status = " ".join(str(info.status_line).split())
        log.info(
            "YOUR MOVE in game %s (%s): %s — give your orders and seal them with `pbem send`",
            game_id,
            info.my_side,
            status,
        )
        if not self.config.notify_mail:
            return
        # One notice per received file: the queue key makes a restart resend nothing twice.
        seq = int(getattr(result, "seq", 0))
        key = f"notify:{game_id}:{seq:05d}"
        if key in self.queue:
            return
        subject, body = self.notice(game_id, seq, info, result, home_kw)
        entry = Entry(
            key=key,
            kind="notify",
            recipient=self.config.address,
            message_id="",
            references=self.threads.references(game_id),
            subject=subject,
            body=body,
        )
        hold = self.config.notify_hold_seconds
        if hold <= 0:
            self.queue.add(entry)
            return
        now = self.clock()
        # My automatic answers to the received file were written with it: only a later file is a decision.
        replies = [t.seq for p in getattr(result, "replies", []) if (t := parse_turn_name(Path(p).name)) is not None]
        entry.after_seq, entry.held_until, entry.next_at = max([seq, *replies]), now + hold, now + hold
        with self.queue.locked():
            for earlier in self.held_of(game_id):
                self.queue.drop(earlier.key)
                log.info("notice %s replaced by the notice of file %d", earlier.key, seq)
            self.queue.add(entry, save=False)

    def held_of(self, game_id: str) -> list[Entry]:
        """The notices of a game still held in the queue."""
        return [e for e in self.queue.pending() if e.held_until and notice_game(e.key) == game_id]

    def release(self) -> None:
        """Send or drop each held notice whose hold is over (before the queue's due mails are sent)."""
        if not self.queue.held(self.clock()):
            return
        with self.queue.locked():
            for entry in self.queue.held(self.clock()):
                game_id = notice_game(entry.key)
                reason = self.needless(entry, game_id)
                if reason:
                    self.queue.drop(entry.key)
                    log.info("notice of game %s not sent: %s", game_id, reason)
                    continue
                self.refresh(entry, game_id)
                entry.held_until, entry.next_at = 0.0, 0.0

    def needless(self, entry: Entry, game_id: str) -> str:
        """Why a held notice is not to be sent, or "" when it is."""
        for other in self.queue.entries.values():
            turn = parse_turn_name(other.filename) if other.kind == "turn" else None
            if turn is not None and turn.game_id == game_id and turn.seq > entry.after_seq:
                return f"{turn.filename} was sealed since"
        home_kw = {"home": self.config.home} if self.config.home is not None else {}
        try:
            info = self.exchange.game_info(self.config.workspace, game_id, **home_kw)
        except Exception as err:  # a player is never left un-notified for a game layer's trouble
            log.warning("game %s unreadable when its notice fell due (%s): sent as it was queued", game_id, err)
            return ""
        return "" if info.my_turn else "it is no longer my move"

    def refresh(self, entry: Entry, game_id: str) -> None:
        """Name the decision awaited now, from a game layer that tells it (else the queued text stays)."""
        if not callable(getattr(self.exchange, "notice", None)):
            return
        home_kw = {"home": self.config.home} if self.config.home is not None else {}
        try:
            info = self.exchange.game_info(self.config.workspace, game_id, **home_kw)
            entry.subject, entry.body = self.notice(game_id, entry.after_seq, info, None, home_kw)
        except Exception as err:  # the notice queued is still worth sending
            log.warning("notice of game %s not re-read: %s", game_id, err)

    def notice(
        self, game_id: str, seq: int, info: GameInfoLike, result: object, home_kw: dict[str, Path]
    ) -> tuple[str, str]:
        """The subject and body of a notice: the decision awaited and what happened since my
        last one, as the game layer's ``notice`` says (after my automatic records); from a game
        layer without it, the received file's report."""
        opponent = info.opponent_email or "your opponent"
        lookup = getattr(self.exchange, "notice", None)
        found = None
        if callable(lookup):
            try:
                found = lookup(self.config.workspace, game_id, **home_kw)
            except Exception as err:  # a notice goes out even when the summary cannot be read
                log.warning("no summary for the notice of game %s: %s", game_id, err)
        if isinstance(found, dict):
            short = (
                "\n".join(f"  {line}" for line in found.get("short", []))
                or "  no combat, war, conquest or change of money"
            )
            body = SINCE_BODY.format(
                game=game_id,
                side=info.my_side,
                decision=found["decision"],
                short=short,
                status=found["status"],
                opponent=opponent,
                full=str(found.get("full", "")).strip() or "(no report kept)",
            )
            return f"[pbem] your move: {found['decision']} - game {game_id}", body
        turn = TurnName(game_id, seq, info.my_side)
        subject, _ = turn_mail_text(self.exchange, self.config.workspace, turn, home_kw)
        body = NOTICE_BODY.format(
            game=game_id,
            side=info.my_side,
            status=" ".join(str(info.status_line).split()),
            report=str(getattr(result, "report", "") or "").strip(),
            opponent=opponent,
        )
        return subject.replace("[pbem] ", "[pbem] your move: ", 1), body
