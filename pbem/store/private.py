"""Files only their owner may read: private keys, the game store (pending orders,
committed secrets, the journal holding both) and the mail daemon's state.

They are created 0600 in folders 0700.  A looser mode found when one is opened (a
store or key folder from an older version, a copy, a careless chmod) is reported
once per process, as one warning line naming the chmod that fixes it; it is not
changed behind the owner's back.
"""

from __future__ import annotations

import stat
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700

_reported: set[Path] = set()


def check(path: Path) -> bool:
    """Whether ``path`` (a file or folder) is closed to other users; warns once if not.
    A missing path is fine."""
    try:
        st = path.stat()
    except OSError:
        return True
    mode = stat.S_IMODE(st.st_mode)
    if not mode & 0o077:
        return True
    want = PRIVATE_DIR if stat.S_ISDIR(st.st_mode) else PRIVATE_FILE
    if path not in _reported:
        _reported.add(path)
        # Imported here: the warning is rare, and every command opens the store.
        import logging
        import shlex

        logging.getLogger("pbem").warning(
            "warning: %s is open to other users (mode %03o); run: chmod %03o %s",
            path,
            mode,
            want,
            shlex.quote(str(path)),
        )
    return False
