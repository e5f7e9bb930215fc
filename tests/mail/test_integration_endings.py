"""Endings by mail over real Dovecot and Postfix: a declined invitation, a draw offer, a resignation."""

from __future__ import annotations

from pathlib import Path

import pytest
from mailtesting import Player, wait_until

from pbem.mail.daemon import MailDaemon
from pbem.play import decline, exchange, finish, games, status, turn
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

pytestmark = pytest.mark.mail


def _players(make_player, tmp_path: Path) -> tuple[dict[str, Player], dict[str, Path]]:
    made, homes = {}, {}
    for side in ("axis", "allies"):
        homes[side] = tmp_path / f"home-{side}"
        made[side] = make_player(side, extra=f'home = "{homes[side]}"')
        keys.keygen(side, made[side].address, directory=homes[side])
    return made, homes


def _daemon(p: Player) -> MailDaemon:
    return MailDaemon(p.config, exchange=exchange)  # type: ignore[arg-type]


def test_decline_draw_and_resignation_travel_by_mail(make_player, tmp_path, engine_double) -> None:
    made, homes = _players(make_player, tmp_path)
    ws = {s: Workspace(made[s].workspace) for s in made}
    d = {s: _daemon(made[s]) for s in made}
    opponent = keys.read_public_key(homes["allies"] / "allies.pub")

    def both() -> None:
        for s in ("axis", "allies"):
            d[s].cycle()

    # 1. An invitation declined by mail: the inviter is told.
    gid, _ = games.new_game(ws["axis"], "tiny", "axis", "axis", opponent, made["allies"].address, homes["axis"])
    wait_until(lambda: bool(ws["allies"].invitations()), 20, step=both, what="the invitation")
    decline.decline(ws["allies"], gid, "allies", homes["allies"])
    wait_until(
        lambda: LocalGame(ws["axis"], gid).meta.get("ended") == "allies declined the invitation",
        20,
        step=both,
        what="the refusal",
    )

    # 2. A game played by mail until a draw offer, declined; then a resignation.
    gid, _ = games.new_game(ws["axis"], "tiny", "axis", "axis", opponent, made["allies"].address, homes["axis"])
    wait_until(lambda: any(p.stem == gid for p in ws["allies"].invitations()), 20, step=both, what="invitation 2")
    games.join(ws["allies"], ws["allies"].root / ws["allies"].invitation_rel(gid), "allies", homes["allies"])

    def game(side: str) -> machine.Game | None:
        return LocalGame(ws[side], gid, homes[side]).game()

    def my_move(side: str) -> bool:
        g = game(side)
        if g is None:
            return False
        exp = machine.expected(turn.my_turn(LocalGame(ws[side], gid, homes[side])).work)
        return exp is not None and exp.side == side

    def play() -> None:
        for s in ("axis", "allies"):
            if my_move(s):
                turn.bot_play(ws[s], gid, home=homes[s])
        both()

    wait_until(lambda: (g := game("axis")) is not None and g.seq >= 4 and my_move("axis"), 60, step=play, what="play")
    finish.write(ws["axis"], gid, "offer-draw", homes["axis"])
    turn.bot_play(ws["axis"], gid, home=homes["axis"])
    wait_until(lambda: (g := game("allies")) is not None and g.draw_offer == "axis", 20, step=both, what="the offer")
    wait_until(lambda: my_move("allies"), 60, step=play, what="allies to move")
    finish.write(ws["allies"], gid, "decline-draw", homes["allies"])
    turn.bot_play(ws["allies"], gid, home=homes["allies"])
    wait_until(lambda: (g := game("axis")) is not None and g.draw_offer == "", 20, step=both, what="the decline")
    wait_until(lambda: my_move("axis"), 60, step=play, what="axis to move")
    finish.write(ws["axis"], gid, "resign", homes["axis"])
    wait_until(
        lambda: (g := game("allies")) is not None and g.result is not None, 20, step=both, what="the resignation"
    )
    for s in ("axis", "allies"):
        line = status.lines(ws[s], gid)[0]
        assert "the game is over: axis resigned" in line and "allies win" in line, line
        g = game(s)
        assert g is not None and g.result is not None and g.result.winner == "allies"
