"""The bot as a mailbox: invite it by mail, it answers every move by mail.

The bot mailbox is the daemon with three differences: it accepts new games
only from the allow-list (when one is set), it plays its side with the bot
player as soon as a received file has been verified and applied, and it sends
no "your move" notices (nobody reads them).

It never plays on a file it could not verify: a game is queued for play only
after the game layer *applied* a file of it. Games queued for play are kept in
``.pbem/mail/bot-pending.json`` until their move is made, so a bot killed
between receiving and answering answers after its restart.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Protocol

from pbem.errors import PbemError
from pbem.mail.config import MailConfig
from pbem.mail.daemon import CycleReport, MailDaemon
from pbem.mail.exchange_api import Exchange, load_module
from pbem.mail.store import load_json, mail_dir, save_json

log = logging.getLogger("pbem.mail")

MAX_PLAYS_PER_GAME = 4  # a bound on moves in a row for one game within one cycle


class Player(Protocol):
    """What the bot mailbox needs from a computer player (``bot.player`` names the module).

    ``accept`` joins a game whose invitation was just received and kept by the
    game layer (it returns the files it wrote into outbox/, none if there is no
    invitation to accept); ``play`` makes the bot's pending decisions of a game
    and seals them into outbox/. Both must be safe to call again after a crash.
    """

    def accept(self, workspace: Path, game_id: str, identity: str, home: Path | None) -> list[Path]: ...

    def play(self, workspace: Path, game_id: str, home: Path | None) -> list[Path]: ...


def load_player(module_name: str) -> Player:
    module: Player = load_module(module_name, ("accept", "play"), "the bot player", "bot.player", "mail-config")
    return module


class BotMailbox(MailDaemon):
    def __init__(self, config: MailConfig, exchange: Exchange | None = None, player: Player | None = None) -> None:
        super().__init__(config, exchange)
        self.player: Player = player if player is not None else load_player(config.bot.player)
        self.allow = {a.lower() for a in config.bot.allow}
        self.notifier.enabled = False
        self.sender_policy = self.policy
        self.on_imported.append(self.after_import)
        self._pending_path = mail_dir(self.workspace) / "bot-pending.json"
        self.pending: list[str] = load_json(self._pending_path, [])
        self._pending_dirty = False
        self.played = 0

    def identity_names(self) -> list[str]:
        """The bot's own identity too: it joins new games with it."""
        return [*super().identity_names(), self.config.bot.identity]

    def policy(self, sender: str, game_id: str) -> str | None:
        """Anyone may invite the bot unless bot.allow lists who may."""
        if not self.allow or sender.lower() in self.allow:
            return None
        if self.game_known(game_id):
            return None  # a game already running here: its files are checked by signature anyway
        return f"a new game from {sender or 'an unknown sender'}, who is not in bot.allow"

    def after_import(self, game_id: str, status: str, result: Any) -> None:
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
        if game_id not in self.pending:
            self.pending.append(game_id)
            self._pending_dirty = True

    def before_finish(self) -> None:
        super().before_finish()
        # Saved before the mails are moved away: after that, only this list remembers them.
        if self._pending_dirty:
            save_json(self._pending_path, self.pending)
            self._pending_dirty = False

    def cycle(self) -> CycleReport:
        report = CycleReport()
        self.fetch(report)
        self.play_pending()
        self.send(report)
        return report

    def play_pending(self) -> None:
        played = False
        for game_id in list(self.pending):
            if self.stopping:
                break
            self.play_game(game_id)
            self.pending.remove(game_id)
            played = True
        if played:
            # Once per round: after a crash a game may be looked at again, and
            # play() of a game that is not the bot's move does nothing.
            save_json(self._pending_path, self.pending)

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
