"""A PostgreSQL URL's password is shown nowhere: every command that takes a store is run
with a password in its URL (before the host, and as libpq's `password=` parameter), and
all it prints, logs or answers is searched for it: `referee serve`'s banner and log and
its /readyz, `backup`, `backup --check` and the manifest, `restore` and its refusals,
`store copy` both ways and its refusals."""

import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest
from command_line import run
from served import serving
from whole_store import fill

from referee.store import open_store

PASSWORD = "s3cret-Pa55"  # noqa: S105 - the secret the test looks for


def with_password(url: str, where: str) -> str:
    """The URL with PASSWORD in it: after the user (`user`), or as a parameter."""
    if where == "user":
        return url.replace("postgresql://postgres@", f"postgresql://postgres:{PASSWORD}@")
    return f"{url}&password={quote(PASSWORD)}"


@pytest.fixture(params=["user", "parameter"])
def secret_url(request, postgres_url) -> str:
    return with_password(postgres_url, request.param)


def test_no_store_command_shows_the_password(secret_url, postgres_cluster, tmp_path):
    said = []
    source = tmp_path / "source.db"
    fill(open_store(source))
    said.append(run("store", "copy", source, secret_url))
    backup = tmp_path / "taken.backup"
    said.append(run("backup", backup, "--db", secret_url))
    said.append(run("backup", "--check", backup))
    said.append(run("store", "copy", secret_url, tmp_path / "back.db"))
    said.append(run("store", "copy", source, secret_url))  # refused: it holds games
    said.append(run("restore", backup, "--db", secret_url))  # refused: it holds games
    fresh = with_password(postgres_cluster.create_database(), "user")
    said.append(run("restore", backup, "--db", fresh))
    unreachable = secret_url.replace(f"port={postgres_cluster.port}", "port=1")
    said.append(run("restore", backup, "--db", unreachable))  # refused: no server there
    assert [result.exit_code for result in said] == [0, 0, 0, 0, 1, 1, 0, 1], said
    for result in said:
        assert PASSWORD not in result.output and quote(PASSWORD) not in result.output
    with sqlite3.connect(backup) as conn:
        (source_shown,) = conn.execute("SELECT source FROM backup").fetchone()
    assert PASSWORD not in source_shown and "***" in source_shown


def test_serve_shows_the_password_nowhere(secret_url, tmp_path):
    served = serving(tmp_path, db=secret_url)
    http = next(served)
    try:
        status, ready = http.call("GET", "/readyz", raw=True)
        assert status in (200, 503) and PASSWORD.encode() not in ready
        assert b"REDIS_URL" in ready  # its own broker on a shared store: it says so
    finally:
        served.close()
    output = b"".join(path.read_bytes() for path in Path(tmp_path).glob("serve-*.log"))
    assert b"referee: store postgresql://" in output  # the banner names the store
    assert PASSWORD.encode() not in output and quote(PASSWORD).encode() not in output
    assert b"Exception ignored" not in output and b"Traceback" not in output  # its stop
