"""Telling the player it is their move: a log line, and optionally a mail to themselves."""

from __future__ import annotations

import logging
from typing import Any

from pbem.mail.config import MailConfig
from pbem.mail.exchange_api import Exchange
from pbem.mail.outqueue import Entry, SendQueue
from pbem.mail.threads import ThreadBook

log = logging.getLogger("pbem.mail")

NOTICE_BODY = """\
It is your move in pbem game {game} (you play {side}).

{status}

What to do: look at the game, give your orders, and seal them with `pbem send`.
The sealed file lands in outbox/ and the mail daemon sends it to {opponent}.
"""


class Notifier:
    def __init__(self, config: MailConfig, exchange: Exchange, queue: SendQueue, threads: ThreadBook) -> None:
        self.config = config
        self.exchange = exchange
        self.queue = queue
        self.threads = threads
        self.enabled = True  # the bot mailbox switches this off: nobody reads its notices

    def after_import(self, game_id: str, status: str, result: Any) -> None:
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
        key = f"notify:{game_id}:{int(getattr(result, 'seq', 0)):05d}"
        if key in self.queue:
            return
        body = NOTICE_BODY.format(
            game=game_id, side=info.my_side, status=status, opponent=info.opponent_email or "your opponent"
        )
        self.queue.add(
            Entry(
                key=key,
                kind="notify",
                recipient=self.config.address,
                message_id="",
                references=self.threads.references(game_id),
                subject=f"[pbem] your move in game {game_id}",
                body=body,
            )
        )
