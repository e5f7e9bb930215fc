"""The real game layer (pbem.play.exchange, session, bot play) on the protocol tests' engine double.

For daemons started as subprocesses by the mail tests: naming this module as
``exchange`` and ``bot.player`` in a mail configuration gives them the real
protocol while the real rules engine cannot yet play a game to its end.
Importing it switches the engine of the whole process: never import it in the
test process itself.
"""

from __future__ import annotations

from pbem.mail.botplayer import accept, play
from pbem.play.exchange import game_info, import_file
from pbem.protocol import engine_link
from tests.protocol import fakeengine

engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]

__all__ = ["accept", "game_info", "import_file", "play"]
