"""A self-play record of the air war replays: its air combats, raids against ships and
bombing raids re-execute, dice and all, to the recorded state hashes (``pbem audit``)."""

from __future__ import annotations

from pathlib import Path

from pbem import audit

RECORD = Path(__file__).resolve().parent / "data" / "records" / "1939-air-seed1"
AIR_ORDERS = {"air_attack", "bomb_ships", "bomb"}


def test_a_record_with_air_orders_audits() -> None:
    [(_, files)] = audit.game_files(RECORD).items()
    kinds = {r[1][0] for tf in files for r in tf.body.get("records", ()) if r[0] == "act"}
    assert kinds >= AIR_ORDERS
    [report] = audit.audit_dir(RECORD)
    assert report.files == 47 and report.rolls == 10
