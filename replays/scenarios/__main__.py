"""Re-record every scenario into the corpus: `python -m replays.scenarios`."""

from . import record, scenarios


def main() -> None:
    """Play each scenario and rewrite its log (the same bytes on every run)."""
    for scenario in scenarios():
        path = record(scenario)
        print(f"{scenario.game_id}: {path}")


if __name__ == "__main__":
    main()
