"""Restore a backup into a store, either backend: copied into an empty store that takes
the place of the target only once every log in it verifies against the backup's
manifest (a SQLite file renamed over the target; a PostgreSQL database written in one
transaction); the target is left as it was otherwise."""

from pathlib import Path

from .. import CLOSING_SECONDS, shown, staging
from ..sqlite import SqliteStore
from .backup import Manifest, damaged, read_manifest
from .copy import Copied, copy_into
from .damage import problems_of
from .logs import Damaged, Step, Verified, unexpected, verify_logs
from .tables import through


def restore(
    backup: str | Path,
    target: str,
    *,
    force: bool = False,
    wait: float = CLOSING_SECONDS,
    step: Step | None = None,
) -> tuple[Manifest, Copied, Verified]:
    """Restore `backup` into the store `target` names; refused while the target is
    still in use after `wait` seconds or holds games (a SQLite file may be replaced with
    `force`), and Damaged, the target untouched, when a log of the copy does not verify
    or match the manifest."""
    manifest = read_manifest(backup)
    problems = problems_of(backup)  # before the target is touched
    if problems:
        raise damaged(backup, problems)
    source = SqliteStore(backup, create=False)
    with source.snapshot() as conn, staging(target, force=force, wait=wait) as staged:
        copied = copy_into(through(conn), source.INSERTION_ORDER, staged, step=step)
        verified = verify_logs(through(staged), manifest.games, step=step, what="manifest")
        verified.problems += unexpected(copied.tails, manifest.games, "manifest")
        if verified.problems:
            raise Damaged(
                None,
                f"{backup} does not verify ({len(verified.problems)} problems): nothing was"
                f" restored, {shown(target)} is as it was",
                {"problems": verified.problems},
            )
    return manifest, copied, verified
