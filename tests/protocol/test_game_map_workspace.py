"""`pbem map GAME` on a game of the workspace: the player's own side by default, the
snapshot's position, and a replayed one with --at."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from engine import api
from engine.hexgrid import NO_HEX
from pbem.cli.main import app
from pbem.protocol import engine_link, machine
from scenarios import gameview
from tests.protocol.conftest import make_duo

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def _units(svg: str) -> dict[int, str]:
    root = ET.fromstring(svg)
    return {
        int(g.get("data-unit", "")): g.get("data-hex", "") for g in root.iter(f"{SVG}g") if g.get("class") == "unit"
    }


def test_a_workspace_game_is_drawn_for_my_side_by_its_id_prefix(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    # until the sealed deployments are revealed and units stand on the map
    duo.play_until(lambda d: any(u.hex != NO_HEX for u in d.game("axis").state.units.values()), limit=40)
    runner = CliRunner()
    for side in ("axis", "allies"):
        ws = duo.player(side).ws.root
        out = tmp_path / f"{side}.svg"
        res = runner.invoke(app, ["map", duo.gid[:6], "-w", str(ws), "--region", "europe", "--out", str(out)])
        assert res.exit_code == 0, res.output
        svg = out.read_text(encoding="utf-8")
        assert ET.fromstring(svg).get("data-side") == side
        state = duo.game(side).state
        grid = state.world.map.grid
        w = gameview.region_window(grid, "europe")
        expected = {
            u.id: grid.label(u.hex)
            for u in state.units.values()
            if u.hex != NO_HEX
            and w.col0 <= grid.col_row(u.hex)[0] <= w.col1
            and w.row0 <= grid.col_row(u.hex)[1] <= w.row1
        }
        assert expected and _units(svg) == expected
    early = tmp_path / "early.svg"
    ws = duo.axis.ws.root
    res = runner.invoke(app, ["map", duo.gid, "-w", str(ws), "--at", "1", "--side", "allies", "--out", str(early)])
    assert res.exit_code == 0, res.output
    assert ET.fromstring(early.read_text(encoding="utf-8")).get("data-side") == "allies"
    assert "after file 1," in res.output


@pytest.mark.slow
def test_a_sealed_deployment_is_not_drawn_before_its_reveal(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")

    def sealed(d: Any) -> bool:
        # the deployment's committer has sent its sealed list; the reveal has not come yet
        p = d.game("allies").pending
        return (
            api.decision(d.game("allies").state).phase == "deployment"
            and isinstance(p, machine.SimStep)
            and p.commit is not None
        )

    duo.play_until(sealed, limit=40)
    pending = duo.game("allies").pending
    assert isinstance(pending, machine.SimStep)
    committer = pending.committer
    runner = CliRunner()

    def sides_drawn(side: str) -> set[str | None]:
        out = tmp_path / f"{side}.svg"
        ws = duo.player(side).ws.root
        res = runner.invoke(app, ["map", duo.gid, "-w", str(ws), "--region", "world", "--out", str(out)])
        assert res.exit_code == 0, res.output
        drawn = ET.fromstring(out.read_text(encoding="utf-8"))
        return {g.get("data-side") for g in drawn.iter(f"{SVG}g") if g.get("class") == "unit"}

    for side in ("axis", "allies"):
        assert committer not in sides_drawn(side), f"the {committer}' sealed deployment shows on the {side}' map"
    # once revealed, the same units are on both maps
    duo.play_until(lambda d: api.decision(d.game("allies").state).phase != "deployment", limit=10)
    assert committer in sides_drawn("axis") and committer in sides_drawn("allies")
