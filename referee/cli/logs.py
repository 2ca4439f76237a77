"""A log file as the commands read it: its events, or a clean error naming the file."""

import click


def read_log(path: str) -> list[dict]:
    """A log's events, or a clean error naming the file and its first unreadable line."""
    from replays.log import LogLineError, read

    try:
        events = read(path)
    except LogLineError as exc:
        raise click.ClickException(f"{path}: {exc.reason}") from None
    if not events:
        raise click.ClickException(f"{path} holds no events")
    return events
