"""Run the `pbem` command line on the engine double (for subprocess tests only)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pbem import engine_link
from pbem.cli.main import app
from tests.protocol import fakeengine

if __name__ == "__main__":
    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    app(prog_name="pbem")
