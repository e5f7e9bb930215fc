"""The bot as a mailbox: invite it by mail, it answers every move by mail.

The bot mailbox is the daemon with three differences: it accepts new games
only from invitations signed by a key of the allow list, or hand-over offers of a
side such a key holds (when one is set), it
plays its side with the bot player as soon as a received file has been verified
and applied, and it sends no "your move" notices (nobody reads them).  The default
player (pbem/mail/botplayer.py) gives reaction orders and its month's hidden steps
ahead, so most of its answers are the daemon's automatic ones, made at the import.

It never plays on a file it could not verify: a game is queued for play only
after the game layer imported a file of it. A game owed a look is one file,
``.pbem/mail/bot-owed/<game>``, written durably *before* the mail that brought
the file leaves the inbox and removed only after the look (the move made, or
none due): a bot killed at any point between receiving and answering finds the
mail again (and, being a duplicate now, it is still followed by the steps after
an import) or the file, and answers after its restart. Making the move is
itself safe to repeat: the bot only moves when the verified game says it is its
move. Several workers share the files; a per-game lock keeps two of them from
looking at one game at once, and a file written while a worker looks is kept
for the next look.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, cast

from pbem.errors import PbemError
from pbem.mail.config import MailConfig
from pbem.mail.daemon import DEFAULT_CLAIM_TIMEOUT, CycleReport, MailDaemon
from pbem.mail.exchange_api import Exchange, load_module
from pbem.mail.logline import game_context
from pbem.mail.message import TURN_NAME, Attachment, parse_turn_name
from pbem.mail.store import crash_point, load_json, mail_dir, write_atomic
from pbem.store.durable import flock

log = logging.getLogger("pbem.mail")

MAX_PLAYS_PER_GAME = 4  # a bound on moves in a row for one game within one cycle
# How often the bot looks for opponents' missed deadlines: deadlines are hours at least.
CLAIM_EVERY_SECONDS = 300.0
#: Seconds of play in a cycle after which the answers made so far are sent before the next
#: game owed a move is played.
SEND_EVERY = 5.0


class Player(Protocol):
    """What the bot mailbox needs from a computer player (``bot.player`` names the module).

    ``accept`` joins a game whose invitation was just received and kept by the
    game layer (it returns the files it wrote into outbox/, none if there is no
    invitation to accept); ``play`` makes the bot's pending decisions of a game
    and seals them into outbox/. Both must be safe to call again after a crash.
    A player may also claim missed deadlines: ``claim_overdue(workspace, home, games=None)``
    (every game of the workspace, or those of ``games``), and, for the PostgreSQL store,
    ``claim_due(workspace, game_id, home)`` (when a claim falls due, or None).
    """

    def accept(self, workspace: Path, game_id: str, identity: str, home: Path | None) -> list[Path]: ...

    def play(self, workspace: Path, game_id: str, home: Path | None) -> list[Path]: ...


def load_player(module_name: str) -> Player:
    module = load_module(module_name, ("accept", "play"), "the bot player", "bot.player", "mail-config")
    return cast(Player, module)  # load_module checked that it has the protocol's functions


def owed_dir(workspace: Path) -> Path:
    path = mail_dir(workspace) / "bot-owed"
    path.mkdir(exist_ok=True)
    return path


def owed_games(workspace: Path) -> list[tuple[str, float]]:
    """The games owed a look, oldest first, with the time each was queued."""
    found = []
    for entry in os.scandir(owed_dir(workspace)):
        if TURN_NAME.match(f"{entry.name}-00000-axis.pbem"):
            with contextlib.suppress(FileNotFoundError):
                found.append((entry.name, entry.stat().st_mtime))
    return sorted(found, key=lambda item: (item[1], item[0]))


class BotMailbox(MailDaemon):
    def __init__(
        self,
        config: MailConfig,
        exchange: Exchange | None = None,
        player: Player | None = None,
        worker: str = "",
        claim_timeout: float = DEFAULT_CLAIM_TIMEOUT,
    ) -> None:
        super().__init__(config, exchange, worker, claim_timeout)
        self.player: Player = player if player is not None else load_player(config.bot.player)
        self.allow = set(config.bot.allow)
        self.notifier.enabled = False
        self.file_policy = self.policy
        self.on_imported.append(self.after_import)
        self.owed = owed_dir(self.workspace)
        self.locks = mail_dir(self.workspace) / "bot-locks"
        self.locks.mkdir(exist_ok=True)
        self.played = 0
        self.claim_every = CLAIM_EVERY_SECONDS
        self._sent_at = time.monotonic()
        self._claims_looked = -CLAIM_EVERY_SECONDS  # at the first cycle
        # The list an earlier version kept: its games are owed a look still.
        legacy = mail_dir(self.workspace) / "bot-pending.json"
        for game_id in load_json(legacy, [], lambda v: isinstance(v, list)):
            if isinstance(game_id, str) and TURN_NAME.match(f"{game_id}-00000-axis.pbem"):
                self.queue_play(game_id)
        legacy.unlink(missing_ok=True)

    def identity_names(self) -> list[str]:
        """The bot's own identity too: it joins new games with it."""
        return [*super().identity_names(), self.config.bot.identity]

    def policy(self, att: Attachment, mail: list[Attachment]) -> str | None:
        """Anyone may invite the bot unless bot.allow lists the keys that may: then a game
        not here yet starts only from an invitation signed by one of them, or from a
        hand-over offer of a side that one of them holds (the offer is unsigned; the key
        holding the side, as the game's files show it, is the one that must seal it)."""
        turn = parse_turn_name(att.filename)
        if not self.allow or turn is None or self.game_known(turn.game_id):
            return None  # a game already running here: its files are checked by signature anyway
        if turn.side == "parent":
            # A branch's parent files travel with its invitation: kept only beside an allowed one.
            if any(self._allowed(a) for a in mail if a.filename.startswith(f"{turn.game_id}-00000-") and a is not att):
                return None
            return "parent files without an invitation from a key in bot.allow in the same mail"
        if self._allowed(att):
            return None
        if turn.side == "offer":
            return f"a side offered by {self.signed_by(att.data)}, which is not in bot.allow"
        return f"a new game from {self.signed_by(att.data)}, which is not in bot.allow"

    def _allowed(self, att: Attachment) -> bool:
        return self.signer_of(att.data) in self.allow

    def after_import(self, game_id: str, status: str, result: object) -> None:
        # Every step here may be taken again safely, and is taken after any import of a
        # file of the game, whatever its status: a process killed between two steps (an
        # invitation kept but not yet joined, a file applied but not yet answered) finds
        # the mail again after its restart, and the re-fetched file is then a duplicate,
        # or even refused when the interrupted commit consumed it.
        if not self.game_known(game_id):
            # Perhaps an invitation: the player joins if the game layer kept one (and does
            # nothing otherwise).
            try:
                files = self.player.accept(self.workspace, game_id, self.config.bot.identity, self.config.home)
            except PbemError as err:
                log.warning("bot: cannot join game %s: %s", game_id, err)
                return
            if files:
                log.info("bot: joined game %s: %s", game_id, ", ".join(p.name for p in files))
                self.queue_play(game_id)
            return
        # A move is only ever made from the verified local game, and only when it is the
        # bot's turn there (play_game asks), so looking again is always safe.
        self.queue_play(game_id)

    def queue_play(self, game_id: str) -> None:
        """Record durably that the game is owed a look, before its mail leaves the inbox."""
        with flock(self.locks / game_id):
            # A fresh content each time: a worker looking at the game meanwhile keeps it.
            write_atomic(self.owed / game_id, os.urandom(8))
        crash_point()

    def cycle(self) -> CycleReport:
        report = CycleReport()
        self.fetch(report)
        self._sent_at = time.monotonic()
        self.play_pending(lambda: self._send_made(report))
        self.claim_overdue()
        self.send(report)
        return report

    def _send_made(self, report: CycleReport) -> None:
        """Between two games' plays: once :data:`SEND_EVERY` seconds of play have passed since
        the last send, the answers made so far go out, so that an answer waits behind that
        much play at most, not behind every game owed a move (a chunk of ten fetched mails can
        be minutes of play on a busy machine)."""
        if time.monotonic() - self._sent_at >= SEND_EVERY:
            self.send(report)
            self._sent_at = time.monotonic()

    def claim_overdue(self) -> None:
        """Claim the missed deadlines of silent opponents (with a player module that can)."""
        claimer = getattr(self.player, "claim_overdue", None)
        if not callable(claimer) or time.monotonic() < self._claims_looked + self.claim_every:
            return
        self._claims_looked = time.monotonic()
        try:
            made = claimer(self.workspace, self.config.home)
        except Exception as err:  # the mailbox goes on; the next round looks again
            log.exception("bot: looking for missed deadlines failed: %s", err)
            return
        for game_id, path, what in made:
            with game_context(game_id):
                if path is None:
                    log.warning("bot: no claim in game %s: %s", game_id, what)
                    continue
                log.info("bot: claimed game %s: %s (%s)", game_id, what, path.name)
                self.queue_play(game_id)  # a final claim may hand the move back to the bot

    def play_pending(self, between: Callable[[], None] = lambda: None) -> None:
        """Look at every game owed a look; ``between`` runs after each (the cycle sends there)."""
        for game_id, _queued in owed_games(self.workspace):
            if self.stopping:
                break
            if self.worker:
                self.heartbeat()
            with game_context(game_id):
                self._look(game_id)
            between()

    def _look(self, game_id: str) -> None:
        marker = self.owed / game_id
        try:
            with flock(self.locks / game_id, wait=False):
                try:
                    token = marker.read_bytes()
                except FileNotFoundError:
                    return  # another worker looked at it just now
                self.play_game(game_id)
                crash_point()
                with contextlib.suppress(FileNotFoundError):
                    if marker.read_bytes() == token:
                        marker.unlink()
                crash_point()
        except BlockingIOError:
            return  # another worker is looking at this game now

    def play_game(self, game_id: str) -> None:
        for _ in range(MAX_PLAYS_PER_GAME):
            try:
                info = self.exchange.game_info(self.workspace, game_id, **self.home_kw)
            except Exception as err:
                log.warning("bot: game %s cannot be read (%s); not playing", game_id, err)
                return
            if not info.my_turn:
                return
            started = time.monotonic()
            try:
                files = self.player.play(self.workspace, game_id, self.config.home)
            except PbemError as err:
                log.warning("bot: cannot play game %s: %s", game_id, err)
                return
            except Exception as err:
                log.exception("bot: playing game %s failed: %s", game_id, err)
                return
            self.played += 1
            log.info(
                "bot: played game %s as %s in %.2f s: %s",
                game_id,
                info.my_side,
                time.monotonic() - started,
                ", ".join(p.name for p in files) or "no file",
            )
            if not files:
                return
