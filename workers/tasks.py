"""Tasks: short shells around the service; each is safe to run twice or concurrently."""

import logging

from celery import shared_task
from flask import current_app

from referee.bots.matches import Job, played
from referee.bots.seats import PLAYED, play_move
from referee.disputes import dispute_log
from referee.engine.errors import RefereeError
from referee.notify import deliveries, subscriptions
from referee.ops.health import record_sweep
from referee.service import GRACE_SECONDS
from replays.log import LogLineError, parse
from replays.verify import report_of, verify_bytes, verify_events

log = logging.getLogger("referee.rounds")


@shared_task(name="referee.resolve_round")
def resolve_round(game_id: str, round_number: int) -> str:
    """Resolve a round if it is still open and due; `resolved` or why not."""
    outcome = current_app.extensions["referee"].resolve_round(game_id, round_number)
    if outcome == "resolved":
        log.info("game %s: round %d resolved", game_id, round_number)
    return outcome


@shared_task(name="referee.time_out")
def time_out(game_id: str, seat: int, deadline: int) -> str:
    """Do what a seat's clock says if its deadline (this one) has passed; `timed_out` or
    why not."""
    outcome = current_app.extensions["referee"].time_out(game_id, seat, deadline)
    if outcome == "timed_out":
        log.info("game %s: seat %d timed out", game_id, seat)
    return outcome


@shared_task(name="referee.deliver")
def deliver(*delivery_ids: str) -> dict[str, str]:
    """One attempt at each of a batch of deliveries that is due, sent side by side; what
    became of each."""
    outcomes = current_app.extensions["referee"].deliver_all(list(delivery_ids))
    for delivery_id, outcome in outcomes.items():
        if outcome in ("retrying", "failed"):
            log.info("delivery %s: %s", delivery_id, outcome)
    return outcomes


@shared_task(name="referee.bot_move")
def bot_move(game_id: str, version: int, seat: int) -> str:
    """The move of the bot holding a seat, if the game is still at this version and asks
    the seat; `played` or why not (`stale`, `not_asked`, `no_move`)."""
    budget = current_app.config["BOT_ITERATIONS"] or None
    outcome = play_move(current_app.extensions["referee"], game_id, version, seat, budget)
    if outcome == PLAYED:  # with the host's budget, so an operator sees the setting apply
        log.info(
            "game %s: the bot of seat %d moved at version %d (strong bots' budget: %s)",
            game_id,
            seat,
            version,
            f"{budget} iterations" if budget else "each ruleset's own",
        )
    return outcome


@shared_task(name="referee.sweep_rounds")
def sweep_rounds() -> int:
    """Send resolve_round for every round that is closed or overdue, and time_out for
    every clock past its deadline (a deadline with a timed task once it is GRACE_SECONDS
    late: that task was lost); arm the rounds and clocks due soon (beat runs this)."""
    referee = current_app.extensions["referee"]
    now = referee.clock()
    due = referee.due_rounds(now, grace=GRACE_SECONDS)
    for game_id, round_number in due:
        resolve_round.delay(game_id, round_number)
    late = referee.due_clocks(now, grace=GRACE_SECONDS)
    for game_id, seat, deadline in late:
        time_out.delay(game_id, seat, deadline)
    rounds, clocks = referee.arm_rounds(now), referee.arm_clocks(now)
    lost = referee.resend_bot_moves(now, grace=current_app.config["BOT_RESEND_SECONDS"])
    if lost:
        log.info("sweep: %d bot move(s) not made in time, sent again", len(lost))
    for batch in deliveries.in_batches(
        referee.due_deliveries(now, grace=subscriptions.HANDED_GRACE)
    ):
        deliver.delay(*batch)
    if due or late:  # a sweep that finds nothing says nothing
        log.info("sweep: %d round(s) and %d clock(s) due, sent", len(due), len(late))
    if rounds or clocks:
        log.info(
            "sweep: %d round(s) and %d clock(s) due within %d s, timed",
            len(rounds),
            len(clocks),
            referee.arming_seconds,
        )
    broker = current_app.config.get("REDIS_URL")
    if broker:  # readiness asks when a worker last swept
        record_sweep(broker, now)
    return len(due) + len(late)


@shared_task(name="referee.verify_log")
def verify_log(log: str) -> dict:
    """Verify one JSONL log sent whole; returns what `replay verify` reports of it."""
    return report_of(verify_bytes(log.encode("utf-8")))


@shared_task(name="referee.verify_logs")
def verify_logs(logs: list[str]) -> list[dict]:
    """Verify a batch of JSONL logs sent whole (fewer round trips than one task each)."""
    return [report_of(verify_bytes(log.encode("utf-8"))) for log in logs]


@shared_task(name="referee.bench_bot_game")
def bench_bot_game(job: dict) -> dict:
    """Play one game of the bots' strength table sent whole (a matches.Job's fields);
    the strong seat's share, moves and CPU seconds (bench/bots.py collects them)."""
    return played(Job(**job))


@shared_task(name="referee.dispute_log")
def dispute(log: str, amendment: dict, seed: str | None = None) -> dict:
    """Fork a JSONL log sent whole at an amendment: the dispute report, or why not (the
    log is verified first; `seed` only for a log that does not reveal it)."""
    try:
        events = parse(log.encode("utf-8"))
        checked = verify_events(events, seed=seed)
        if checked.status != "valid":
            return {"error": {"code": checked.code, "seq": checked.seq, "reason": checked.reason}}
        if checked.seed is None:
            return {"error": {"code": "seed/missing", "reason": "send the seed of a game in play"}}
        return dispute_log(events, amendment, checked.seed)[1]
    except LogLineError as exc:
        return {"error": {"code": "log/unreadable", "seq": exc.seq, "reason": exc.reason}}
    except RefereeError as exc:
        return {"error": {"code": exc.code, "reason": exc.message}}
