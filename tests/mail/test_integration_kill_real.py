"""A whole game with the real protocol between two bot mailboxes killed and restarted 20 times."""

from __future__ import annotations

import random
import time

import pytest
from mailtesting import wait_until
from test_integration_kill import Running

from pbem.errors import PbemError
from pbem.play import games, turn
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

pytestmark = pytest.mark.mail
KILLS = 20


@pytest.mark.slow
def test_real_protocol_game_survives_kills(make_player, tmp_path, engine_double) -> None:
    made = {}
    for side in ("axis", "allies"):
        home = tmp_path / f"home-{side}"
        extra = f'home = "{home}"\n[bot]\nidentity = "{side}-bot"\nplayer = "fake_engine_exchange"'
        made[side] = make_player(side, extra=extra, exchange="fake_engine_exchange")
        keys.keygen(f"{side}-bot", made[side].address, directory=home)
    opponent = keys.read_public_key(tmp_path / "home-allies" / "allies-bot.pub")
    gid, _ = games.new_game(
        Workspace(made["axis"].workspace),
        "tiny",
        "axis",
        "axis-bot",
        opponent,
        opponent_email=made["allies"].address,
        home=tmp_path / "home-axis",
    )

    def game(side: str) -> machine.Game | None:
        try:
            return LocalGame(Workspace(made[side].workspace), gid, tmp_path / f"home-{side}").game()
        except PbemError:
            return None

    def over() -> bool:
        games = [game("axis"), game("allies")]
        return all(g is not None and machine.expected(g) is None for g in games) and games[0].seq == games[1].seq  # type: ignore[union-attr]

    daemons = [Running(made[s], tmp_path / f"{s}.log", command="bot") for s in ("axis", "allies")]
    rng = random.Random(4242)
    try:
        for d in daemons:
            d.start()
        for _ in range(KILLS):
            time.sleep(rng.uniform(0.2, 0.9))
            victim = rng.choice(daemons)
            victim.kill()
            victim.start()
        wait_until(over, 120, what="the end of the game")
    finally:
        for d in daemons:
            d.stop()
    logs = "\n".join(d.log.read_text(errors="replace") for d in daemons)
    assert "Traceback" not in logs, logs[-3000:]
    assert "EQUIVOCATION" not in logs and " rejected " not in logs, logs[-3000:]
    g_axis, g_allies = game("axis"), game("allies")
    assert g_axis is not None and g_allies is not None
    assert g_axis.hashes == g_allies.hashes
    print(f"{g_axis.seq} files, {sum(d.starts for d in daemons)} daemon starts")


@pytest.mark.slow
def test_player_daemon_against_bot_mailbox(make_player, tmp_path, engine_double) -> None:
    """A person's daemon (`pbem mail run`) against `pbem mail bot`, the person sealing moves by hand.

    The person is played by this test: whenever the daemon has brought in a file
    after which it is their move, it seals one with the game layer, as `pbem bot
    play`/`pbem send` would, and the daemon notices the new file in outbox/.
    """
    made = {}
    for side in ("axis", "allies"):
        home = tmp_path / f"home-{side}"
        extra = f'home = "{home}"\n[bot]\nidentity = "{side}-bot"\nplayer = "fake_engine_exchange"'
        made[side] = make_player(side, extra=extra, exchange="fake_engine_exchange")
        keys.keygen(f"{side}-bot", made[side].address, directory=home)
    opponent = keys.read_public_key(tmp_path / "home-allies" / "allies-bot.pub")
    home_axis = tmp_path / "home-axis"
    ws_axis = Workspace(made["axis"].workspace)
    gid, _ = games.new_game(
        ws_axis, "tiny", "axis", "axis-bot", opponent, opponent_email=made["allies"].address, home=home_axis
    )
    person = Running(made["axis"], tmp_path / "axis.log", command="run")
    bot = Running(made["allies"], tmp_path / "allies.log", command="bot")
    moves = 0
    try:
        person.start()
        bot.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            g = LocalGame(ws_axis, gid, home_axis).game()
            if g is not None and machine.expected(g) is None:
                break
            exp = machine.expected(turn.my_turn(LocalGame(ws_axis, gid, home_axis)).work) if g else None
            if exp is not None and exp.side == "axis" and exp.kind in ("act", "commit", "sim"):
                turn.bot_play(ws_axis, gid, home=home_axis, player="random")
                moves += 1
            time.sleep(0.1)
    finally:
        codes = [person.stop(), bot.stop()]
    g = LocalGame(ws_axis, gid, home_axis).game()
    assert g is not None and machine.expected(g) is None, (tmp_path / "axis.log").read_text()[-3000:]
    assert codes == [0, 0]  # SIGTERM: both finished their step and exited cleanly
    log = (tmp_path / "axis.log").read_text()
    assert "YOUR MOVE in game" in log and "Traceback" not in log
    assert moves > 3
