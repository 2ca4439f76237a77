"""The key that signs the pages' session cookie and CSRF tokens, kept beside the database.

Every server process of one database must sign with the same key, and a restart must
not log every player out, so the key is made once, at random, in `<db>.secret` (mode
0600), and read from there after. REFEREE_SECRET_KEY (or the SECRET_KEY setting) names
another one."""

import os
import secrets
from pathlib import Path


def key_beside(db: str | os.PathLike) -> str:
    """The key in `<db>.secret`, made now if there is none (safe when processes race);
    a store in memory, which no other process shares and no restart keeps, gets a key in
    memory too, and no file."""
    if str(db) == ":memory:":
        return secrets.token_hex(32)
    path = Path(f"{db}.secret")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_hex(32), encoding="ascii")
        draft.chmod(0o600)
        try:
            os.link(draft, path)  # the first process's key wins; the others read it
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text(encoding="ascii").strip()
