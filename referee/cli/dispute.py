"""`referee dispute` and `referee replay diff`: what would have happened, and where two
logs part. Both work offline, on log files; the original log is never touched."""

import json
from pathlib import Path
from typing import Any

import click

from ..disputes import dispute_log, render, render_consequences
from ..engine import compare, fork, game
from ..engine.chain import rechain
from ..engine.errors import RefereeError
from ..engine.events import MODERATOR
from .logs import read_log


def verified(path: str, events: list[dict[str, Any]], seed: str | None) -> str:
    """The log's seed once the log passes verification; else a clean error."""
    from replays.verify import verify_events

    report = verify_events(events, seed=seed)
    if report.status != "valid":
        where = f"seq {report.seq} [{report.code}]: {report.reason}" if report.seq else ""
        raise click.ClickException(f"{path} is {report.status}: {where or report.checks}")
    if report.seed is None:
        raise click.ClickException(
            f"{path}: the seed is not revealed yet; give it with --seed to fork a game in play"
        )
    return report.seed


def amendment_of(
    end: int,
    *,
    round_number=None,
    seat=None,
    submission=None,
    drop_event=None,
    insert_command=None,
    actor=None,
    before=None,
    replace_event=None,
    command=None,
) -> dict[str, Any]:
    """The one amendment the options describe (`end`: the seq after the log's last)."""
    chosen = [submission, drop_event, insert_command, replace_event]
    if sum(c is not None for c in chosen) != 1:
        raise click.UsageError(
            "give one of --submission, --drop-event, --insert-command or --replace-event"
        )
    if (replace_event is None) != (command is None):
        raise click.UsageError("--replace-event goes with --command")
    if replace_event is not None:
        return {"kind": "replace", "seq": replace_event, "command": command}
    if submission is not None:
        if round_number is None or seat is None:
            raise click.UsageError("--submission goes with --round and --seat")
        return {"kind": "submission", "round": round_number, "seat": seat, "orders": submission}
    if insert_command is None and (actor is not None or before is not None):
        raise click.UsageError("--actor and --before go with --insert-command")
    if drop_event is not None:
        return {"kind": "drop", "seq": drop_event}
    who: Any = MODERATOR if actor == MODERATOR else _seat(actor)
    return {"kind": "insert", "before": before or end, "actor": who, "command": insert_command}


def _seat(actor: str | None) -> int:
    if actor is None or not actor.isdigit():
        raise click.UsageError("--insert-command needs --actor: a seat number or moderator")
    return int(actor)


def _json_value(_ctx, param, text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param=param) from None


@click.command("dispute")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--round", "round_number", type=click.IntRange(0), help="The disputed round.")
@click.option(
    "--seat",
    type=click.IntRange(0),
    help="The seat whose orders are replaced: its id, 0 for the first.",
)
@click.option("--submission", callback=_json_value, help="The orders that should have counted.")
@click.option("--drop-event", type=click.IntRange(1), help="Drop the command recorded at SEQ.")
@click.option("--insert-command", callback=_json_value, help="A command to put in (JSON).")
@click.option("--actor", help="Who sends --insert-command: a seat id (0 first) or moderator.")
@click.option("--before", type=click.IntRange(1), help="Insert before this seq [the end].")
@click.option(
    "--replace-event", type=click.IntRange(1), help="Replace the command recorded at SEQ..."
)
@click.option("--command", callback=_json_value, help="...by this one, from its sender (JSON).")
@click.option("--seed", help="The seed of a game still in play (its log does not reveal it).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the fork's log here.")
@click.option("--json", "as_json", is_flag=True, help="The report as JSON.")
def dispute(file, seed, out, as_json, **amending) -> None:
    """Fork a log at a disputed point, re-resolve with the same randomness, replay every
    later command still legal, and print what changed: positions, scores, ranks, winners."""
    events = read_log(file)
    seed = verified(file, events, seed)
    amendment = amendment_of(len(events) + 1, **amending)
    try:
        forked, report = dispute_log(events, amendment, seed)
    except RefereeError as exc:
        raise click.ClickException(f"{exc.code}: {exc.message}") from None
    if out:
        Path(out).write_bytes(fork_log(events, forked))
    if as_json:
        click.echo(json.dumps(report, indent=2, sort_keys=True))
    else:
        click.echo(render(report, events[0]["payload"]["players"]), nl=False)


def fork_log(events: list[dict[str, Any]], forked: fork.Forked) -> bytes:
    """The fork as a JSONL log of its own: the shared events re-sealed under the id
    `<game>-fork` (their times kept), then the fork's records at the last shared time."""
    from replays.log import dumps

    stamp = events[forked.at - 1]["recorded_at"]
    game_id = f"{events[0]['game_id']}-fork"
    return dumps(rechain(events[: forked.at] + forked.records, game_id, stamp=stamp))


@click.command("diff")
@click.argument("a", type=click.Path(exists=True, dir_okay=False))
@click.argument("b", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="The differences as JSON.")
def diff(a, b, as_json) -> None:
    """The first event where two logs differ, and how their outcomes differ."""
    left, right = read_log(a), read_log(b)
    found = {"first_difference": compare.first_difference(left, right), "consequences": None}
    if _same_table(left, right):
        found["consequences"] = compare.consequences(game.fold(left), game.fold(right))
    if as_json:
        click.echo(json.dumps(found, indent=2, sort_keys=True))
        return
    click.echo("\n".join(_diff_lines(found, a, b)))


def _same_table(left: list[dict[str, Any]], right: list[dict[str, Any]]) -> bool:
    keys = ("ruleset", "ruleset_version", "players")
    return all(left[0]["payload"].get(k) == right[0]["payload"].get(k) for k in keys)


def _diff_lines(found: dict[str, Any], a: str, b: str) -> list[str]:
    first = found["first_difference"]
    if first is None:
        lines = ["The logs agree event for event."]
    else:
        fields = ", ".join(first["fields"]) or "one log ends"
        lines = [f"First difference at seq {first['seq']} ({fields}):"]
        lines += [
            f"  {name}: {_brief(event)}" for name, event in ((a, first["a"]), (b, first["b"]))
        ]
    if found["consequences"] is None:
        return lines + ["The logs are of different tables: outcomes not compared."]
    return lines + render_consequences(found["consequences"])


def _brief(event: dict[str, Any] | None) -> str:
    if event is None:
        return "(no event: the log ends here)"
    payload = json.dumps(event["payload"], sort_keys=True, separators=(",", ":"))
    return f"{event['type']} by {event['actor']} {payload[:160]}"
