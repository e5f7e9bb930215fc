"""`pbem verify --no-engine`: a game's files checked by the document's rules alone."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from tests.spec.make_vectors import OUT


def test_a_genuine_game_is_valid_and_the_unchecked_part_is_named(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["verify", "--no-engine", str(OUT / "base")])
    assert res.exit_code == 0, res.output
    assert "1 roll seed(s) computed" in res.output
    # Of the eleven files with a state hash after the join, five leave the state as it was
    # (a commitment, the clear list after it, the first dice value): checked without the engine.
    assert "NOT checked" in res.output and "6 state hash(es)" in res.output


def test_a_forged_file_is_named_with_its_reason(tmp_path: Path) -> None:
    for p in sorted((OUT / "base").glob("*.pbem"))[:3]:
        shutil.copy(p, tmp_path / p.name)
    shutil.copy(OUT / "variant" / "reveal-wrong-salt.pbem", tmp_path / "03.pbem")
    shutil.copy(OUT / "base" / "03.pbem", tmp_path / "02b.pbem")  # arrives before the bad file 4
    res = CliRunner().invoke(app, ["verify", "--no-engine", *sorted(str(p) for p in tmp_path.iterdir())])
    assert res.exit_code == 1
    assert "03.pbem: INVALID: file 4: reveal-mismatch" in res.output


def test_without_the_option_one_file_is_expected(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["verify", str(OUT / "base" / "00.pbem"), str(OUT / "base" / "01.pbem")])
    assert res.exit_code == 1
    assert "give one turn file" in res.output


def test_the_installed_command_line_reads_a_folder(tmp_path: Path) -> None:
    # The plain command-line reader once took a list of files for a single one.
    res = subprocess.run(
        [sys.executable, "-m", "pbem.cli.main", "verify", "--no-engine", str(OUT / "base")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert res.returncode == 0, res.stderr
    assert "1 roll seed(s) computed" in res.stdout


def test_the_time_bound_uses_pbems_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game dated 1,000,000 s after the clock is refused, as `pbem audit` refuses it."""
    from tests.spec.timed_vectors import T0

    files = [str(p) for p in sorted((OUT / "timed").glob("*.pbem"))[:3]]
    monkeypatch.setenv("PBEM_NOW", str(T0 - 1_000_000))
    res = CliRunner().invoke(app, ["verify", "--no-engine", *files])
    assert res.exit_code == 1 and "01.pbem: INVALID: file 1: time" in res.output, res.output
    monkeypatch.setenv("PBEM_NOW", str(T0 + 86400))
    assert CliRunner().invoke(app, ["verify", "--no-engine", *files]).exit_code == 0
