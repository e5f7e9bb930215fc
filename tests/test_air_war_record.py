"""A self-play record of the air and sea war replays: its air combats, interceptions, raids
against ships, bombing raids and an amphibious assault re-execute, dice and all, to the
recorded state hashes (``pbem audit``).  (``pbem selfplay --scenario 1939 --until 1940-07 --seed 1``
under engine 0.3.0.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.play import audit

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1939-air-seed1"
AIR_ORDERS = {"air_attack", "bomb_ships", "bomb", "intercept"}
LANDING_ORDERS = {"embark", "assault"}


@pytest.mark.slow
def test_a_record_with_air_and_landing_orders_audits() -> None:
    [(_, files)] = audit.game_files(RECORD).items()
    kinds = {r[1][0] for tf in files for r in tf.body.get("records", ()) if r[0] == "act"}
    assert kinds >= AIR_ORDERS | LANDING_ORDERS
    [report] = audit.audit_dir(RECORD)
    assert report.files == 252 and report.rolls == 58
