"""PostgreSQL's tables, one numbered SQL file per change (postgres-NNNN.sql), applied in
order by postgres.py; read here without loading psycopg (backups check their columns by
them)."""

import re
from importlib import resources


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, SQL) of every migration, in order."""
    found = []
    for entry in resources.files(__package__).iterdir():
        matched = re.fullmatch(r"postgres-(\d+)\.sql", entry.name)
        if matched:
            found.append((int(matched[1]), entry.name, entry.read_text("utf-8")))
    return sorted(found)
