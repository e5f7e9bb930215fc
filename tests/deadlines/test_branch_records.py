"""`pbem branch` of games holding every kind of file and record (real engine, real files):
a hand-over, claims, new terms, draw offers and a resignation.  The parent is read from
its record folder, as `pbem branch FOLDER` and `pbem join --parent FOLDER` read it; the
invited player verifies the position and joins, and the inviter accepts the join.  The
same folder gives the game's log and last position (`pbem log`, `pbem map`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import audit, branch, exchange, games, history, report
from pbem.play.memplay import MemoryMatch
from pbem.protocol import advance, deadlines, engine_link, machine, turnfile
from pbem.protocol.records import Ending
from pbem.protocol.turnfile import TurnFile, other
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.deadlines.helpers import HOUR, T0, Clock, match, next_body, play_to, write
from tests.deadlines.test_handover import NEW, _take_over


@pytest.fixture
def now(monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch)


def _home(where: Path, ident: keys.Identity) -> Path:
    """A key directory holding ``ident`` (a MemoryMatch key), as its player keeps it."""
    keys.keygen(ident.name, directory=where, seed=ident.private.private_bytes_raw())
    return where


def _to(m: MemoryMatch, side: str) -> None:
    """Play on until ``side`` is to write the next file."""
    while (exp := machine.expected(m.game)) is not None and exp.side != side:
        assert m.step() is not None


def _ending(m: MemoryMatch, kind: str) -> TurnFile:
    """The side the game awaits writes a file holding only the ending record ``kind``."""
    exp = machine.expected(m.game)
    assert exp is not None
    tf = machine.build_turn(m.game, exp.side, [Ending(kind)], m.ids[exp.side].sign)
    m.files.append(tf)
    return tf


def _look_back(m: MemoryMatch, folder: Path) -> tuple[list[int], str]:
    """The files of the whole game after which a branch may start, from its record folder
    (the replay reaches the very game its players hold), and the game's log (`pbem log`)."""
    fits: list[int] = []
    files, source = history.record_files(folder), branch.folder_source(audit.game_files(folder))
    state = engine_link.api().state_hash
    for game in (branch.replay(source, m.gid, len(m.files) - 1, fits), history.position(files)):
        assert game.hashes == m.game.hashes and state(game.state) == state(m.game.state)
        assert game.result == m.game.result and game.keys == m.game.keys
    told = list(report.reports(files))
    assert [r.seq for r in told] == list(range(1, len(m.files)))
    return fits, "\n".join(r.text() for r in told)


def _branch_and_join(m: MemoryMatch, folder: Path, at: int, inviter: keys.Identity, tmp_path: Path) -> None:
    """``inviter`` branches the game after file ``at`` from its record folder, taking its own
    side by default; its opponent there joins from the same folder and the join is accepted."""
    source = branch.folder_source(audit.game_files(folder))
    home, ws = _home(tmp_path / "home-inviter", inviter), Workspace(tmp_path / "ws-inviter")
    gid, invitation = branch.new_branch(ws, source, m.gid, at, inviter.name, home=home)
    parent = turnfile.read(invitation).body["parent"]
    assert (parent["seq"], parent["file"]) == (at, m.files[at].hash)
    side = next(s for s in ("axis", "allies") if m.game.keys[s] == inviter.public.raw)
    invited = m.ids[other(side)]
    home2, ws2 = _home(tmp_path / "home-invited", invited), Workspace(tmp_path / "ws-invited")
    base = branch.base_for_invitation(ws2, invitation, audit.game_files(folder))
    _, answer = games.join(ws2, invitation, invited.name, home=home2, base=base)
    res = exchange.import_file(ws.root, answer, home=home)
    assert res.status == "applied", res.message
    child = LocalGame(ws, gid, home).game()
    assert child is not None and engine_link.api().state_hash(child.state) == parent["state"]


def test_a_game_after_a_hand_over_and_a_resignation_is_branched_by_the_new_holder(now: Clock, tmp_path: Path) -> None:
    m = match()
    play_to(m, 8)
    handed = _take_over(m, "axis").seq
    play_to(m, 14)
    _to(m, "axis")
    _ending(m, "resign")  # the new holder resigns: the game ends with a file signed by the new key
    folder = write(m.files, tmp_path / "rec")
    fits, log = _look_back(m, folder)
    assert "axis hand their side over to the key" in log and "axis resign: the other side wins" in log
    assert m.game.result is not None and len(m.files) - 1 not in fits  # nothing is played after a resignation
    at = max(fits)
    assert at > handed
    _branch_and_join(m, folder, at, NEW, tmp_path)
    # Axis changed hands: allies, branching, names the opponent it invites itself.
    home, source = _home(tmp_path / "home-allies", m.ids["allies"]), branch.folder_source(audit.game_files(folder))
    with pytest.raises(PbemError, match="changed hands") as err:
        branch.new_branch(Workspace(tmp_path / "ws-allies"), source, m.gid, at, "allies-bot", home=home)
    assert err.value.code == "usage"


def test_a_game_with_claims_is_branched(now: Clock, tmp_path: Path) -> None:
    m = match()
    claims = []
    for i in (1, 2):  # a reminder, then the bot plays allies' silent decision
        now.set(T0 + i * HOUR)
        claims.append(m.claim("axis"))
    play_to(m, 10)
    folder = write(m.files, tmp_path / "rec")
    fits, log = _look_back(m, folder)
    assert "axis claim that allies missed their deadline" in log and "axis claim again" in log
    # A branch may start right after the claim, and after the files that follow it.
    assert claims[-1].seq in fits and max(fits) > claims[-1].seq
    _branch_and_join(m, folder, max(fits), m.ids["axis"], tmp_path)


def test_a_game_with_new_terms_is_branched(now: Clock, tmp_path: Path) -> None:
    m = match()
    play_to(m, 8)
    g = m.game
    body = next_body(g, "allies", "terms", deadline=4 * HOUR, time=g.clock)
    consent = m.ids["axis"].sign(deadlines.terms_message(g.gid, body["seq"], body["prev"], 4 * HOUR))
    terms = turnfile.seal(body | {"consent": consent}, m.ids["allies"].sign)
    advance.apply_file(g, machine.authenticate(g.genesis, terms, g))
    m.files.append(terms)
    play_to(m, terms.seq + 5)
    folder = write(m.files, tmp_path / "rec")
    fits, log = _look_back(m, folder)
    assert "both sides agree on a new deadline: 4 hours per decision" in log and m.game.deadline == 4 * HOUR
    assert max(fits) > terms.seq
    _branch_and_join(m, folder, max(fits), m.ids["allies"], tmp_path)


def test_a_game_with_draw_offers_declined_and_accepted_is_branched(now: Clock, tmp_path: Path) -> None:
    m = match()
    play_to(m, 8)
    offerer = machine.expected(m.game)
    assert offerer is not None
    offer = _ending(m, "offer-draw")
    _to(m, other(offerer.side))
    _ending(m, "decline-draw")
    play_to(m, m.game.seq + 3)
    _to(m, offerer.side)
    _ending(m, "offer-draw")
    _to(m, other(offerer.side))
    _ending(m, "accept-draw")
    folder = write(m.files, tmp_path / "rec")
    fits, log = _look_back(m, folder)
    assert "decline the draw offer" in log and "accept the draw: the game ends drawn" in log
    assert m.game.result is not None and m.game.result.winner is None  # drawn
    assert offer.seq in fits and len(m.files) - 1 not in fits
    _branch_and_join(m, folder, max(fits), m.ids[offerer.side], tmp_path)
