"""The ending commands as a person runs them: decline, archive, resign, branch (the CLI,
with the engine double), each refusal one line with a non-zero exit."""

from __future__ import annotations

import shutil
from pathlib import Path

from pbem.play import exchange, games
from pbem.protocol import turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.protocol.conftest import Duo
from tests.protocol.test_branch import branch_point
from tests.protocol.test_cli import one_line_failure
from tests.protocol.test_crash import cli
from tests.protocol.test_endings import my_move


def run(args: list[str], home: Path) -> str:
    done = cli(args, home)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_an_invitation_declined_tells_the_inviter(tmp_path: Path) -> None:
    homes = {s: tmp_path / f"home-{s}" for s in ("a", "b")}
    keys.keygen("anna", "anna@example.org", directory=homes["a"])
    keys.keygen("bob", "bob@example.org", directory=homes["b"])
    wa, wb = tmp_path / "A", tmp_path / "B"
    pub = keys.read_public_key(homes["b"] / "bob.pub")
    gid, invitation = games.new_game(Workspace(wa), "tiny", "axis", "anna", pub, home=homes["a"])
    assert "pbem decline" in run(["import", str(invitation), "-w", str(wb)], homes["b"])
    assert f"pbem decline {gid}" in run(["status", "-w", str(wb)], homes["b"])
    # Only the invited key may decline.
    keys.keygen("eve", directory=homes["b"])
    assert "not for identity 'eve'" in one_line_failure(cli(["decline", gid, "--me", "eve", "-w", str(wb)], homes["b"]))
    out = run(["decline", gid, "--me", "bob", "-w", str(wb)], homes["b"])
    assert f"declined game {gid}" in out
    refusal = wb / "outbox" / turnfile.filename(gid, 1, "allies")
    assert turnfile.read(refusal).type == "decline"
    assert "you declined the invitation" in run(["status", "-w", str(wb)], homes["b"])
    assert "declined your invitation" in run(["import", str(refusal), "-w", str(wa)], homes["a"])
    assert "allies declined the invitation" in run(["status", "-w", str(wa)], homes["a"])
    assert "never started: allies declined" in one_line_failure(cli(["show", gid, "-w", str(wa)], homes["a"]))
    # The inviter's record of the game audits as ended, and a join after it is equivocation.
    folder = tmp_path / "record"
    folder.mkdir()
    for seq, side in ((0, "axis"), (1, "allies")):
        shutil.copy(wa / ".pbem" / "games" / gid / "files" / f"{seq:05d}-{side}.pbem", folder / f"{seq}.pbem")
    assert "game over: allies declined the invitation" in run(["audit", str(folder)], tmp_path)
    ws_c = Workspace(tmp_path / "C")
    games.join(ws_c, invitation, "bob", home=homes["b"])
    join_file = ws_c.outbox / turnfile.filename(gid, 1, "allies")
    res = exchange.import_file(wa, join_file, home=homes["a"])
    assert res.status == "rejected" and res.code == "equivocation", res.message
    # A dead game leaves `pbem status` for the archive, and comes back.
    run(["archive", gid, "-w", str(wa)], homes["a"])
    listed = run(["status", "-w", str(wa)], homes["a"])
    assert gid not in listed and "1 archived game(s) not listed" in listed
    assert f"[archived] game {gid}" in run(["status", "--all", "-w", str(wa)], homes["a"])
    assert "archived already" in one_line_failure(cli(["archive", gid, "-w", str(wa)], homes["a"]))
    run(["archive", gid, "--restore", "-w", str(wa)], homes["a"])
    assert gid in run(["status", "-w", str(wa)], homes["a"])


def _cli_args(duo: Duo, side: str) -> tuple[list[str], Path]:
    p = duo.player(side)
    return ["-w", str(p.ws.root)], p.home


def test_resign_from_the_command_line(duo: Duo, tmp_path: Path) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 4)
    loser = next(s for s in ("axis", "allies") if my_move(duo, s))
    winner = "allies" if loser == "axis" else "axis"
    ws, home = _cli_args(duo, winner)
    assert "not now" in one_line_failure(cli(["resign", duo.gid, *ws], home))
    assert "nobody offered" in one_line_failure(cli(["accept-draw", duo.gid, *_cli_args(duo, loser)[0]], home))
    ws, home = _cli_args(duo, loser)
    out = run(["resign", duo.gid[:6], *ws], home)
    assert f"{loser} resigned" in out
    duo.deliver(winner)
    ws, home = _cli_args(duo, winner)
    assert f"the game is over: {loser} resigned" in run(["status", duo.gid, *ws], home)
    orders = tmp_path / "orders.txt"
    orders.write_text("pass\n")
    assert "is over" in one_line_failure(cli(["orders", duo.gid, str(orders), *ws], home))
    assert f"{loser} resign: the other side wins" in run(["log", duo.gid, *ws], home)


def test_branch_from_the_command_line_with_a_record_folder(duo: Duo, tmp_path: Path) -> None:
    duo.play_until(lambda d: d.game("axis").seq >= 8)
    lg = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    folder = tmp_path / "parent"
    folder.mkdir()
    for seq in range(lg.head() + 1):
        tf = lg.history_file(seq)
        assert tf is not None
        (folder / tf.name).write_bytes(tf.raw)
    ws, home = _cli_args(duo, "axis")
    made = cli(["branch", duo.gid, "--at", "2", *ws], home)  # a commitment is open after file 2
    assert "half done" in one_line_failure(made)
    at = branch_point(duo)
    scratch = ["-w", str(tmp_path / "scratch")]
    assert cli(["branch", str(folder), "--at", str(at), "--me", "axis-p", *scratch], home).returncode == 0
    made = cli(["branch", duo.gid, "--at", str(at), *ws], home)
    assert made.returncode == 0, made.stderr
    gid = made.stdout.strip()
    invitation = duo.axis.ws.outbox / turnfile.filename(gid, 0, "axis")
    # A player who never had the parent game joins with the record folder.
    fresh = ["-w", str(tmp_path / "fresh"), "--expect-fingerprint", games.inviter(invitation).fingerprint]
    missing = cli(["join", str(invitation), "--me", "allies-p", *fresh], duo.allies.home)
    assert "files 0 to" in one_line_failure(missing)
    joined = run(["join", str(invitation), "--me", "allies-p", "--parent", str(folder), *fresh], duo.allies.home)
    assert f"joined game {gid}" in joined
    answer = tmp_path / "fresh" / "outbox" / turnfile.filename(gid, 1, "allies")
    out = run(["import", str(answer), *ws], home)
    assert f"applied {turnfile.filename(gid, 1, 'allies')}" in out
    assert f"from game {duo.gid} after its file {at}" in run(["log", gid, *ws], home)
