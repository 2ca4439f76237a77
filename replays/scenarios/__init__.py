"""Hand-written scenario games: a named script per edge case of a rule text, recorded into
the corpus (replays/corpus/<ruleset>/<ruleset>-scenario-<name>.jsonl) and replayed in CI.

A scenario is a JSON file beside this module, `<ruleset>/<name>.json`:

    {"name": "...", "ruleset": "...", "covers": "the edge case, in words",
     "players": [...], "options": {...}, "seed": "...", "steps": [step, ...]}

A step is one command, or a rule that chooses commands from the state:

    {"actor": 0 | "moderator" | "referee", "command": {...}, "at": 1, "refused": "rule/..."}
        `actor` left out: the one actor to move. `at` (games in rounds only): the command
        is sent that many seconds before the open round's deadline (default 1; 0 = at the
        deadline; with no round open, at the last deadline). `refused`: the rules must
        refuse the command with that code, and nothing is appended.
    {"play": "first_legal" | "lead" | "deadlines", "until": "end" | {"round": n}}
        first_legal: the first actor to move sends its first legal command;
        lead (galloping-horse): the seat to move plays the first of its cards whose move
            leaves that horse strictly ahead of every other, else its first card;
        grow (dark-horse-west): the seat to move places on Politics, Mayor or Builder when
            it can, else sends its first legal command;
        deadlines (games in rounds): nobody sends orders; the referee resolves each round
            at its deadline; in the awards the first actor to move sends its first legal
            command.
        until: the game has ended (the default), or round n is open.

Games are played like `referee bot-play`: through `Referee` on a fresh `EventStore` with a
logical clock, the service clock at BOT_EPOCH, so a scenario records the same bytes on
every run. `python -m replays.scenarios` re-records them all.
"""

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.cli import BOT_EPOCH
from referee.engine import game
from referee.engine.errors import RefereeError
from referee.engine.events import REFEREE
from referee.service import Referee
from referee.store import LogicalClock, open_store

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "corpus"
MAX_COMMANDS = 10_000
FIELDS = {"name", "ruleset", "covers", "players", "options", "seed", "steps"}
COMMAND_STEP = {"actor", "command", "at", "refused"}
RULE_STEP = {"play", "until"}
GROWING = ("politics", "mayor", "builder")

Step = dict[str, Any]
Command = dict[str, Any]


@dataclass(frozen=True)
class Scenario:
    """One scripted game."""

    name: str
    ruleset: str
    covers: str
    players: list[str]
    options: dict[str, Any]
    seed: str
    steps: list[Step]

    @property
    def game_id(self) -> str:
        """The game's id, which names its log too."""
        return f"{self.ruleset}-scenario-{self.name}"

    @property
    def log_path(self) -> Path:
        """Where the scenario's log lives in the corpus."""
        return CORPUS / self.ruleset / f"{self.game_id}.jsonl"


class ScenarioError(RuntimeError):
    """A scenario that cannot be played as written (the rules changed under it?)."""


def load(path: Path) -> Scenario:
    """A scenario from its JSON file; a misspelt field is an error, not ignored."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not set(data) <= FIELDS:
        raise ScenarioError(f"{path.name}: unknown fields {sorted(set(data) - FIELDS)}")
    for number, step in enumerate(data["steps"]):
        allowed = RULE_STEP if "play" in step else COMMAND_STEP
        if not set(step) <= allowed or ("play" not in step and "command" not in step):
            raise ScenarioError(f"{path.name}, steps[{number}]: not a step: {step}")
    return Scenario(
        name=data["name"],
        ruleset=data["ruleset"],
        covers=data["covers"],
        players=data["players"],
        options=data.get("options", {}),
        seed=data["seed"],
        steps=data["steps"],
    )


def scenarios() -> list[Scenario]:
    """Every scenario, by ruleset then name."""
    return [load(path) for path in sorted(HERE.glob("*/*.json"))]


def play(scenario: Scenario) -> bytes:
    """Play a scenario through a fresh store; its log as JSONL bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(Path(tmp) / "scenario.db", clock=LogicalClock())
        referee = Referee(store, clock=lambda: BOT_EPOCH)
        game_id = scenario.game_id
        referee.create_game(
            scenario.ruleset, scenario.players, scenario.options, scenario.seed, game_id=game_id
        )
        table = Table(referee, game_id, scenario.seed)
        for number, step in enumerate(scenario.steps):
            try:
                table.take(step)
            except (RefereeError, ScenarioError) as exc:
                raise ScenarioError(f"{scenario.game_id}, steps[{number}]: {exc}") from exc
        if not game.is_over(referee.state(game_id)):
            raise ScenarioError(f"{scenario.game_id}: the game has not ended after its steps")
        return store.log_lines(game_id)


def record(scenario: Scenario) -> Path:
    """Play a scenario and write its log into the corpus."""
    path = scenario.log_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(play(scenario))
    return path


class Table:
    """A game being played step by step through the referee."""

    def __init__(self, referee: Referee, game_id: str, seed: str) -> None:
        self.referee, self.game_id, self.seed = referee, game_id, seed

    @property
    def state(self) -> game.State:
        """The game's state now."""
        return self.referee.state(self.game_id)

    def take(self, step: Step) -> None:
        """Run one step: a command, or a rule playing on."""
        if "play" in step:
            self.play_on(step["play"], step.get("until", "end"))
        else:
            self.send(step)

    def send(self, step: Step) -> None:
        """One scripted command, refused when the step says it must be."""
        actor = step["actor"] if "actor" in step else self.only_actor()
        command = dict(step["command"])
        refused = step.get("refused")
        try:
            self.referee.command(self.game_id, actor, command, now=self.now(step.get("at", 1)))
        except RefereeError as exc:
            if refused != exc.code:
                raise
            return
        if refused is not None:
            raise ScenarioError(f"{command['type']} was taken; the step expects {refused}")

    def only_actor(self) -> Any:
        """The one actor to move now."""
        movers = game.to_move(self.state)
        if len(movers) != 1:
            raise ScenarioError(f"the step names no actor and {movers} are to move")
        return movers[0]

    def now(self, before_deadline: int) -> int | None:
        """The time of a command: seconds before the open round's deadline (rounds only)."""
        rounds = self.state.get("rounds")
        if rounds is None:
            return None
        current = rounds["current"]
        if current is None:
            return int(rounds["last_deadline"] or BOT_EPOCH)
        return int(current["deadline"]) - before_deadline

    def play_on(self, rule: str, until: Any) -> None:
        """Commands chosen by a rule from the state, until the game ends or a round opens."""
        choose = {
            "first_legal": self.first_legal,
            "lead": self.lead,
            "deadlines": self.deadline,
            "grow": self.grow,
        }
        if rule not in choose:
            raise ScenarioError(f"no rule {rule!r} to play on (known: {', '.join(choose)})")
        for _ in range(MAX_COMMANDS):
            state = self.state
            if game.is_closed(state) or self.reached(state, until):
                return
            step = choose[rule](state)
            self.send(step)
        raise ScenarioError(f"{rule} did not end the game within {MAX_COMMANDS} commands")

    @staticmethod
    def reached(state: game.State, until: Any) -> bool:
        """Whether a rule playing on stops here: `end` never (the game ending stops it),
        `{"round": n}` once round n is open."""
        if until == "end":
            return False
        current = state.get("rounds", {}).get("current")
        return current is not None and current["round"] == until["round"]

    def first_legal(self, state: game.State) -> Step:
        """The first actor to move sends its first legal command; a closed round is
        resolved by the referee."""
        current = state.get("rounds", {}).get("current")
        if current is not None and current["closed"]:
            return {"actor": REFEREE, "command": self.resolution(current)}
        actor = game.to_move(state)[0]
        return {"actor": actor, "command": game.legal(state, actor)[0]}

    def deadline(self, state: game.State) -> Step:
        """The referee resolves the open round at its deadline (seats send nothing); with
        no round open, the first actor to move sends its first legal command."""
        current = state["rounds"]["current"]
        if current is None:
            return self.first_legal(state)
        return {"actor": REFEREE, "command": self.resolution(current), "at": 0}

    @staticmethod
    def resolution(current: dict[str, Any]) -> Command:
        """The referee's command resolving the open round."""
        return {"type": "resolve_round", "round": current["round"]}

    def lead(self, state: game.State) -> Step:
        """The seat to move plays the first card whose move takes the lead, else its first."""
        seat = game.to_move(state)[0]
        options = game.legal(state, seat)
        for command in options:
            records, _ = game.step(state, seat, command, self.seed)
            moved = next(r["payload"] for r in records if r["type"] == "HorseMoved")
            others = [d for h, d in state["rules"]["distance"].items() if h != moved["horse"]]
            if all(moved["to"] > d for d in others):
                return {"actor": seat, "command": command}
        return {"actor": seat, "command": options[0]}

    def grow(self, state: game.State) -> Step:
        """dark-horse-west: the seat to move places on Politics, Mayor or Builder when it
        can (in that order), else sends its first legal command (which collects rather
        than declines, and lays rails and keeps cards)."""
        seat = game.to_move(state)[0]
        return {"actor": seat, "command": growing(game.legal(state, seat))}


def growing(legal: list[Command]) -> Command:
    """dark-horse-west: the first placement on Politics, Mayor or Builder (in that order)
    among legal commands, else the first legal command."""
    for action in GROWING:
        for command in legal:
            if command["type"] == "place" and command.get("action") == action:
                return command
    return legal[0]
