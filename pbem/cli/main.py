"""The `pbem` command line: one root app; each command group lives in its own module."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from pbem.cli import arena_cmd, bot_cmd, game_cmd, log_cmd, mail_cmd, map_cmd, scenario_cmd

app = typer.Typer(
    name="pbem",
    help="World War 2 by e-mail: signed turn files, hidden deployment, fair dice without a referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def main(
    workspace: Annotated[
        Path | None,
        typer.Option("--workspace", "-w", help="Game workspace for every command (default: the current directory)"),
    ] = None,
    home: Annotated[
        Path | None,
        typer.Option("--home", help="Where identities live (default: $PBEM_HOME or your user config directory)"),
    ] = None,
) -> None:
    # Commands read these through their environment-variable defaults, so a global
    # option and the variable behave the same way everywhere.
    if workspace is not None:
        os.environ["PBEM_WORKSPACE"] = str(workspace)
    if home is not None:
        os.environ["PBEM_HOME"] = str(home)


for module in (scenario_cmd, map_cmd, game_cmd, bot_cmd, arena_cmd, mail_cmd, log_cmd):
    module.register(app)


def run() -> None:
    app()


if __name__ == "__main__":
    run()
