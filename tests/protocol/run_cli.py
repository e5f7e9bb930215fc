"""Run the `pbem` command line on the engine double (for subprocess tests only).

It enters where the installed `pbem` script does (``pbem.cli.main.run``), so a plain
command line skips typer's parameter layer as it does for players: half the start-up
cost of each of the many processes these tests run.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem.cli import main
from pbem.protocol import engine_link
from tests.protocol import fakeengine

if __name__ == "__main__":
    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    sys.argv[0] = "pbem"  # typer's messages name the program as the script does
    main.run()
