"""Games between two mail players and the bot mailbox, played through the real mail servers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mailtesting import Player, wait_until

from pbem.mail.bot import BotMailbox
from pbem.mail.daemon import MailDaemon
from pbem.play import exchange, turn
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

T0 = 1_800_000_000  # the players' clock (PBEM_NOW) when a test starts
HOUR = 3600


class Table:
    """The two players and the bot mailbox, each with its own mailbox, workspace and keys."""

    def __init__(self, make_player: Callable[..., Player], tmp_path: Path) -> None:
        self.homes = {s: tmp_path / f"home-{s}" for s in ("axis", "allies", "bot")}
        self.p: dict[str, Player] = {}
        for s in ("axis", "allies"):
            self.p[s] = make_player(s, extra=f'home = "{self.homes[s]}"')
            keys.keygen(s, self.p[s].address, directory=self.homes[s])
        self.p["bot"] = make_player("bot", extra=f'home = "{self.homes["bot"]}"\n[bot]\nidentity = "bot"')
        keys.keygen("bot", self.p["bot"].address, directory=self.homes["bot"])
        self.ws = {s: Workspace(p.workspace) for s, p in self.p.items()}
        self.d: dict[str, MailDaemon] = {s: MailDaemon(self.p[s].config, exchange=exchange) for s in ("axis", "allies")}  # type: ignore[arg-type]
        self.bot = BotMailbox(self.p["bot"].config, exchange=exchange)  # type: ignore[arg-type]
        self.gid = ""
        self.holder = {"axis": "axis", "allies": "allies"}  # whose workspace plays each side

    def cycle(self) -> None:
        for s in ("axis", "allies"):
            self.d[s].cycle()
        self.bot.cycle()

    def game(self, who: str) -> machine.Game:
        g = LocalGame(self.ws[who], self.gid, self.homes[who]).game()
        assert g is not None
        return g

    def expected(self) -> machine.Expectation | None:
        return machine.expected(self.game(self.holder["allies"]))

    def play_until(self, done: Callable[[], bool], what: str) -> None:
        """The players' computer players move (the bot mailbox moves by itself) until ``done``."""

        def step() -> None:
            for side in ("axis", "allies"):
                who = self.holder[side]
                if who == "bot":
                    continue
                lg = LocalGame(self.ws[who], self.gid, self.homes[who])
                if lg.game() is None:
                    continue  # the join is on its way
                exp = machine.expected(turn.my_turn(lg).work)
                if exp is not None and exp.side == side and exp.kind in ("act", "sim", "commit"):
                    turn.bot_play(self.ws[who], self.gid, home=self.homes[who])
            self.cycle()

        wait_until(done, 120, step=step, what=what)

    def in_step(self, side: str) -> bool:
        """Both players hold the same history, and ``side`` is to make a decision of its own."""
        a = LocalGame(self.ws[self.holder["axis"]], self.gid, self.homes[self.holder["axis"]]).game()
        b = LocalGame(self.ws[self.holder["allies"]], self.gid, self.homes[self.holder["allies"]]).game()
        if a is None or b is None:
            return False
        exp = machine.expected(a)
        return a.hashes == b.hashes and exp is not None and exp.side == side and exp.kind in ("act", "sim", "commit")
