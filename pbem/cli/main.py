"""The `pbem` command line: one root app; each command group lives in its own module."""

from __future__ import annotations

import typer

from pbem.cli import bot_cmd, game_cmd, mail_cmd, map_cmd, scenario_cmd

app = typer.Typer(
    name="pbem",
    help="World War 2 by e-mail: signed turn files, hidden deployment, fair dice without a referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for module in (scenario_cmd, map_cmd, game_cmd, bot_cmd, mail_cmd):
    module.register(app)


def run() -> None:
    app()
