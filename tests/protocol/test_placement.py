"""Where a received file goes in its game's history (pbem.play.placement), and that receiving
a file and checking one (`pbem verify`) take the same decision."""

from __future__ import annotations

import os

import pytest

from pbem.errors import PbemError
from pbem.play import audit, placement
from pbem.play.placement import Place
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo
from tests.protocol.test_attacks import _allies_deploy_then_move, allies_commit, drop


def _place(duo: Duo, tf: TurnFile) -> placement.Placement:
    lg = LocalGame(duo.axis.ws, duo.gid, duo.axis.home)
    return placement.place(lg, tf, lg.game())


def _verify(duo: Duo, tf: TurnFile) -> str:
    path = duo.out / "checked.pbem"
    path.write_bytes(tf.raw)
    return audit.verify_file(duo.axis.ws, path)


def test_each_place_in_the_history(duo: Duo) -> None:
    a, b, _ = _allies_deploy_then_move(duo)
    head = duo.game("axis").seq
    next_, early = _place(duo, a), _place(duo, b)
    assert (next_.place, next_.head, next_.file is not None) == (Place.NEXT, head, True)
    assert (early.place, early.head) == (Place.EARLY, head)
    assert _verify(duo, b) == f"{b.name}: signature valid; it can be re-executed once file {head + 1} arrives"
    assert drop(duo, "axis", a, "a.pbem").status == "applied"
    again = _place(duo, a)
    assert (again.place, again.file, again.existing) == (Place.DUPLICATE, None, a)
    assert _verify(duo, a) == f"{a.name}: valid; already applied"


def test_a_second_version_of_a_position_is_an_equivocation_for_both(duo: Duo) -> None:
    tf = allies_commit(duo)
    assert drop(duo, "axis", tf).status == "applied"
    twin = duo.forge("allies", dict(tf.body, records=[["commit", os.urandom(32)]]))
    at = _place(duo, twin)
    assert at.place == Place.EQUIVOCATION and at.existing is not None and at.existing.raw == tf.raw
    assert "EQUIVOCATION" in _verify_refusal(duo, twin)
    assert drop(duo, "axis", twin).code == "equivocation"


def test_the_other_sides_file_at_a_filled_position_is_out_of_turn(duo: Duo) -> None:
    tf = allies_commit(duo)
    assert drop(duo, "axis", tf).status == "applied"
    intruder = duo.forge("axis", dict(tf.body, side="axis"))
    at = _place(duo, intruder)
    assert at.place == Place.TAKEN and at.existing is not None and at.existing.side == "allies"
    assert _verify_refusal(duo, intruder).endswith("is already filled (out of turn)")
    assert drop(duo, "axis", intruder).code == "sequence"


def _verify_refusal(duo: Duo, tf: TurnFile) -> str:
    with pytest.raises(PbemError) as refused:
        _verify(duo, tf)
    return str(refused.value)
