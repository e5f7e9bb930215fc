"""Maps of a game's position: the SVG against the state, PNG, determinism, replay and
the errors of `pbem map` (pbem/play/gamemap.py, scenarios/gameview.py, pbem/cli/map_cmd.py)."""

from __future__ import annotations

import dataclasses
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import api
from engine.hexgrid import NO_HEX
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import gamemap
from pbem.protocol.machine import Game
from scenarios import gameview
from scenarios.mapview import REGIONS
from tests.cache import record_walk

RECORDS = Path(__file__).resolve().parent / "data" / "records"
RECORD = RECORDS / "1939-seed7"
SMALL_RECORD = RECORDS / "1937-seed3"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return record_walk(tmp_path_factory, RECORD.name).game(-1)


def _counters(svg: bytes | str) -> dict[int, tuple[str, str]]:
    root = ET.fromstring(svg)
    found = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "unit":
            uid = int(g.get("data-unit", ""))
            assert uid not in found, f"unit {uid} drawn twice"
            found[uid] = (g.get("data-hex", ""), g.get("data-side", ""))
    return found


def _size(svg: bytes) -> tuple[int, int]:
    root = ET.fromstring(svg)
    return int(root.get("width", "")), int(root.get("height", ""))


@pytest.mark.parametrize("side", ["axis", "allies"])
def test_every_unit_on_the_map_is_a_counter_on_its_hex(game: Game, side: str) -> None:
    state = game.state
    grid = state.world.map.grid
    expected = {
        u.id: (grid.label(u.hex), state.countries[u.country].side) for u in state.units.values() if u.hex != NO_HEX
    }
    assert {s for _, s in expected.values()} >= {"axis", "allies"}
    svg = gamemap.render(game.state, side, region="world")
    assert _counters(svg) == expected
    root = ET.fromstring(svg)
    assert root.get("data-side") == side and root.get("data-date") == api.board(state, side).date


def test_a_region_shows_exactly_the_units_inside_it(game: Game) -> None:
    state = game.state
    grid = state.world.map.grid
    window = gameview.parse_bbox(grid, "150,40,175,65")
    svg = gamemap.render(game.state, "axis", bbox="150,40,175,65")
    inside = {
        u.id
        for u in state.units.values()
        if u.hex != NO_HEX and 150 <= grid.col_row(u.hex)[0] <= 175 and 40 <= grid.col_row(u.hex)[1] <= 65
    }
    assert inside and set(_counters(svg)) == inside
    assert window == gameview.Window(150, 40, 175, 65)
    # stacks say how many units they hold, and out-of-supply units are marked
    root = ET.fromstring(svg)
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "stack":
            members = [c for c in g if c.get("class") == "unit"]
            assert int(g.get("data-count", "")) == len(members)
    unsupplied = {u.id for u in state.units.values() if u.id in inside and not u.supplied}
    marked = {int(g.get("data-unit", "")) for g in root.iter(f"{SVG}g") if g.get("data-supplied") == "no"}
    assert marked == unsupplied


def test_the_enemy_is_drawn_as_a_diamond_and_the_own_side_as_a_rectangle(game: Game) -> None:
    board = api.board(game.state, "axis")
    window = gameview.region_window(board.map.grid, "europe")
    root = ET.fromstring(gameview.render_svg(board, window))
    shapes: dict[str | None, set[str]] = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "unit":
            # the first child after the counter's own rectangle is the symbol's frame
            frame = [c for c in g if c.tag != f"{SVG}title"][1]
            shapes.setdefault(g.get("data-side"), set()).add(frame.tag.removeprefix(SVG))
    assert shapes["axis"] == {"rect"}
    assert shapes["allies"] == {"polygon"}


def test_the_same_view_gives_the_same_bytes_and_a_png_of_its_size(game: Game) -> None:
    one = gamemap.render(game.state, "allies", region="eastern-front")
    two = gamemap.render(game.state, "allies", region="eastern-front")
    assert one == two
    png = gamemap.render(game.state, "allies", region="eastern-front", fmt="png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    assert struct.unpack(">II", png[16:24]) == _size(one)
    assert png == gamemap.render(game.state, "allies", region="eastern-front", fmt="png")


def test_the_default_window_frames_the_front(game: Game) -> None:
    board = api.board(game.state, "axis")
    window = gameview.front_window(board)
    grid = board.map.grid
    assert window.cols < grid.width and window.rows < grid.height
    svg = gameview.render_svg(board, window)
    sides = {s for _, s in _counters(svg).values()}
    assert sides == {"axis", "allies"}


def test_the_renderer_takes_the_engine_s_board_and_map_held_without_their_types(game: Game) -> None:
    # pbem holds them through its engine seam, typed only by what it reads of them
    board = api.board(game.state, "axis")
    assert gameview.as_board(board) is board
    assert gameview.as_map(board.map) is board.map
    for wrong in (board.map, object()):
        with pytest.raises(TypeError, match="engine board"):
            gameview.as_board(wrong)
    with pytest.raises(TypeError, match="engine map"):
        gameview.as_map(board)


def test_every_named_region_is_a_window_of_the_map() -> None:
    grid = api.new_game("1939").world.map.grid
    wanted = {"europe", "eastern-front", "western-europe", "mediterranean", "atlantic", "pacific", "china"}
    assert wanted | {"south-east-asia", "world"} <= set(REGIONS)
    for name in REGIONS:
        w = gameview.region_window(grid, name)
        assert 0 <= w.col0 < grid.width and w.col1 >= w.col0 and 0 <= w.row0 <= w.row1 < grid.height
    assert gameview.region_window(grid, "South East Asia") == gameview.region_window(grid, "south-east-asia")
    # the Pacific crosses the date line: its columns run on past the last one
    assert gameview.region_window(grid, "pacific").col1 >= grid.width
    assert gameview.parse_bbox(grid, "295,10,4,20") == gameview.Window(295, 10, grid.width + 4, 20)
    for bad in ("1,2,3", "a,b,c,d", "1,20,5,10", f"{grid.width},0,1,1"):
        with pytest.raises(ValueError):
            gameview.parse_bbox(grid, bad)
    with pytest.raises(ValueError, match="unknown region"):
        gameview.region_window(grid, "atlantis")


def test_region_and_bbox_together_are_refused(game: Game) -> None:
    with pytest.raises(PbemError, match="not both"):
        gamemap.render(game.state, "axis", region="europe", bbox="1,1,2,2")


# --- the command ----------------------------------------------------------------------


def test_pbem_map_of_a_record_writes_svg_and_png(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    runner = CliRunner()
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"
    res = runner.invoke(app, ["map", str(SMALL_RECORD), "--side", "allies", "--region", "china", "--out", str(svg)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["map", str(SMALL_RECORD), "--side", "allies", "--region", "china", "--out", str(png)])
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", png.read_bytes()[16:24]) == _size(svg.read_bytes())
    state = record_walk(tmp_path_factory, SMALL_RECORD.name).at().state
    on_map = {u.id for u in state.units.values() if u.hex != NO_HEX}
    drawn = set(_counters(svg.read_bytes()))
    assert drawn and drawn <= on_map


def test_pbem_map_at_an_earlier_file_draws_another_position(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    runner = CliRunner()
    early, last = tmp_path / "early.svg", tmp_path / "last.svg"
    for out, extra in ((early, ["--at", "12"]), (last, [])):
        res = runner.invoke(app, ["map", str(SMALL_RECORD), "--region", "world", "--out", str(out), *extra])
        assert res.exit_code == 0, res.output
    assert early.read_bytes() != last.read_bytes()
    state = record_walk(tmp_path_factory, SMALL_RECORD.name).at(12).state
    grid = state.world.map.grid
    assert _counters(early.read_bytes()) == {
        u.id: (grid.label(u.hex), state.countries[u.country].side) for u in state.units.values() if u.hex != NO_HEX
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--region", "atlantis"], "unknown region 'atlantis'"),
        (["--bbox", "1,2,3"], "is not a box"),
        (["--bbox", "1,2,999,3"], "off the map"),
        (["--at", "999"], "there is no file 999"),
        (["--side", "neutral"], "is not a side"),
    ],
)
def test_bad_map_requests_give_one_line_and_fail(tmp_path: Path, args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["map", str(SMALL_RECORD), *args, "--out", str(tmp_path / "x.svg")])
    assert res.exit_code != 0
    assert message in res.output and len(res.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.svg").exists()


def test_an_unknown_game_or_format_is_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["map", "feedbeef", "-w", str(tmp_path), "--out", str(tmp_path / "x.svg")])
    assert res.exit_code != 0 and "no game feedbeef" in res.output and len(res.output.strip().splitlines()) == 1
    res = runner.invoke(app, ["map", str(SMALL_RECORD), "--out", str(tmp_path / "x.gif")])
    assert res.exit_code != 0 and ".svg or .png" in res.output
    res = runner.invoke(app, ["map", "--bbox", "1,1,2,2", "--out", str(tmp_path / "x.svg")])
    assert res.exit_code != 0 and "name the game" in res.output


def test_the_scenario_map_is_still_drawn_without_a_game_and_as_png(tmp_path: Path) -> None:
    out = tmp_path / "s.png"
    res = CliRunner().invoke(app, ["map", "--scenario", "1939", "--region", "mediterranean", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_terrain_layer_drawn_before_gives_the_same_picture(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """The play page keeps the terrain layers it drew: the picture is byte for byte the one
    drawn afresh, the layer is not drawn again while no hex changes hands, and a change of
    control draws it again."""
    board = api.board(game.state, "axis")
    window = gameview.parse_bbox(board.map.grid, "150,40,175,65")
    layers: gameview.TerrainLayers = {}
    first = gameview.render_svg(board, window, layers)
    assert first == gameview.render_svg(board, window) and len(layers) == 1

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("the terrain was drawn again")

    monkeypatch.setattr(gameview, "draw_map", no_drawing)
    assert gameview.render_svg(board, window, layers) == first
    monkeypatch.undo()
    # Berlin's hex to another country: its tint, so the layer, changes
    berlin = next(c.hex for c in board.map.cities if c.name == "Berlin")
    controller = bytearray(board.controller)
    controller[berlin] = next(i for i, side in enumerate(board.sides) if side == "allies")
    taken = dataclasses.replace(board, controller=bytes(controller))
    again = gameview.render_svg(taken, window, layers)
    assert again != first and again == gameview.render_svg(taken, window) and len(layers) == 2
