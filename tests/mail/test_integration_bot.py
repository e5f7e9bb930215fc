"""The bot mailbox: invitations by allow-list, many games at once, only verified files answered."""

from __future__ import annotations

import threading
import time

import fake_exchange as fx
import pytest
from imaphelp import send_raw, turn_mail
from mailtesting import wait_until

from pbem.mail.bot import BotMailbox

pytestmark = pytest.mark.mail
MOVES = 8  # even: the bot (allies) makes the last move


def test_bot_plays_many_games_for_allowed_players_only(make_player, caplog) -> None:
    alice, mallory = make_player("alice"), make_player("mallory")
    bot_player = make_player("bot", extra='[bot]\nallow = ["ALLOWED"]')
    bot_player.config_path.write_text(bot_player.config_path.read_text().replace("ALLOWED", fx.key_of(alice.address)))
    games = [f"b0{i:010x}" for i in range(6)]
    for gid in games:
        fx.new_game(
            alice.workspace, gid, "axis", alice.address, bot_player.address, autoplay_until=MOVES, opponent_autoplay=0
        )
    fx.new_game(
        mallory.workspace,
        "ee0000000001",
        "axis",
        mallory.address,
        bot_player.address,
        autoplay_until=MOVES,
        opponent_autoplay=0,
    )
    bot = BotMailbox(bot_player.config, exchange=fx, player=fx)  # type: ignore[arg-type]
    a, m = alice.daemon(), mallory.daemon()
    workers = [threading.Thread(target=d.run, kwargs={"max_seconds": 90}, daemon=True) for d in (bot, a)]
    for w in workers:
        w.start()
    try:
        m.cycle()  # mallory's invitation goes out once
        wait_until(
            lambda: len(fx.ledger(alice.workspace)) == len(games) * MOVES, 60, what="every game to its last move"
        )
    finally:
        bot.stopping = a.stopping = True
        for w in workers:
            w.join(timeout=30)
    for gid in games:
        assert [e["seq"] for e in fx.ledger(alice.workspace) if e["game"] == gid] == list(range(1, MOVES + 1))
    assert not [e for e in fx.ledger(bot_player.workspace) if e["game"] == "ee0000000001"]
    assert "not in bot.allow" in caplog.text
    assert bot.played == len(games) * MOVES // 2

    # A file that fails verification is never answered.
    played = bot.played
    bot.stopping = False
    name = f"{games[0]}-{MOVES + 1:05d}-axis.pbem"
    send_raw(alice, bot_player.address, turn_mail(alice.address, bot_player.address, name, b"forged"))
    wait_until(lambda: "bad magic" in caplog.text, 10, step=bot.cycle, what="the forged file")
    time.sleep(0.2)
    bot.cycle()
    assert bot.played == played
