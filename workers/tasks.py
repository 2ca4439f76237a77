"""Tasks: each ships its whole input in the message, so any worker anywhere can take it."""

from celery import shared_task

from replays.verify import verify_bytes


@shared_task(name="referee.verify_log")
def verify_log(log: str) -> dict:
    """Verify one JSONL log sent whole; returns valid, seq and reason."""
    report = verify_bytes(log.encode("utf-8"))
    return {
        "valid": report.valid,
        "events": report.events,
        "seq": report.seq,
        "reason": report.reason,
    }
