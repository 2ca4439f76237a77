"""Who is asked to act, the legal commands, and `decide`: the guards, then the phase's
own module, then the referee's automatic steps (flow.advance).

Setup (characters when chosen, cities in reverse turn order, two towns each, the start
rails), then game turns: the Gunslinger pawns, the Placement Phase, the Collection Phase,
a last word for whoever may still pay a loan, cash stock or use an ability.
"""

from typing import Any

from ...engine.errors import RuleViolation
from ...engine.events import Event, event
from ...engine.rng import Rng
from . import action_cards, cards, characters, collection, placement, rails, table, tokens
from .data import ACTIONS, SCENARIOS
from .flow import advance, folded, waiting
from .game_setup import setup as random_setup
from .options import characters_available
from .state import OVER

State = dict[str, Any]
Command = dict[str, Any]


def setup(state: State, rng: Rng) -> list[Event]:
    """The random setup, then the first seat asked to act."""
    events = random_setup(state, rng)
    return events + advance(folded(state, events), rng)


def to_move(state: State) -> list[int]:
    """The one seat being asked to act, if any."""
    if state["phase"] == OVER:
        return []
    if state["task"]:
        return [state["task"]["seat"]]
    if state["step"] and waiting(state):
        return [state["step"]["seat"]]
    return []


def legal(state: State, seat: int | str | None) -> list[Command]:
    """Every complete command the seat may send now."""
    if not isinstance(seat, int) or seat not in to_move(state):
        return []
    task, step = state["task"], state["step"]
    if task:
        return (
            cards.rail_commands(state, task)
            if task["kind"] == "rails"
            else cards.keep_options(state, task)
        )
    kind = step["kind"]
    if kind == "setup":
        return _setup_legal(state, seat, step["piece"])
    if kind == "gunslinger":
        return [
            {"type": "move_gunslinger", "direction": d} for d in placement.gun_targets(state, seat)
        ]
    if kind == "place":
        return _placing_legal(state, seat)
    anytime = _anytime(state, seat, final=kind == "settle" and step["final"])
    if kind == "settle":
        return anytime + [{"type": "pass"}]
    played = action_cards.card_commands(state, seat, placing=False)
    if step.get("collected"):
        return played + anytime + [{"type": "pass"}]
    choices = collection.collect_commands(state, seat) + [{"type": "decline"}]
    return choices + played + anytime


def timeout_move(state: State, seat: int) -> Command:
    """The move the referee plays for a seat out of time (docs/clocks.md), so that a game
    of silent seats still builds and ends:
    - `pass` when the seat may pass;
    - else the first way to collect the action its dice are on;
    - else its dice on the highest-numbered action they reach without a token (no Wild
      Die, Engineer or share), the first such placement;
    - else the first of its legal commands in their fixed order (the first character,
      hex or rail free; the Gunslinger up before down; the first card kept)."""
    choices = legal(state, seat)
    if {"type": "pass"} in choices:
        return {"type": "pass"}
    collecting = [c for c in choices if c["type"] == "collect"]
    plain = [c for c in choices if c["type"] == "place" and not TOKENS.intersection(c)]
    if collecting or plain:
        return collecting[0] if collecting else max(plain, key=_action_number)
    return choices[0]


TOKENS = frozenset({"wild", "engineer", "share"})


def _action_number(command: Command) -> int:
    return ACTIONS.get(command["action"], {}).get("number") or 0


def _anytime(state: State, seat: int, *, final: bool) -> list[Command]:
    return (
        tokens.loan_payments(state, seat)
        + tokens.stock_cashes(state, seat, final=final)
        + characters.ability_commands(state, seat)
    )


def _placing_legal(state: State, seat: int) -> list[Command]:
    from .dice import placements

    out = placements(state, seat) + placement.dealer_moves(state, seat)
    out += [{"type": "reroll", "dice": g} for g in placement.may_reroll(state, seat)]
    if placement.may_flip(state, seat):
        out.append({"type": "flip_deputy"})
    return out + action_cards.card_commands(state, seat, placing=True)


def _setup_legal(state: State, seat: int, piece: str) -> list[Command]:
    if piece == "character":
        return [{"type": "choose_character", "character": c} for c in _free_characters(state)]
    if piece == "city":
        return [{"type": "place_city", "hex": h} for h in _first_city_sites(state)]
    return [{"type": "place_town", "hex": h} for h in table.town_sites(state, seat)]


def _free_characters(state: State) -> list[str]:
    taken = set(state["characters"])
    available = characters_available(state["characters_in_play"], state["seats"])
    return [c for c in available if c not in taken]


def _first_city_sites(state: State) -> list[str]:
    """Where a first city may go: two empty hexes from every city (Wild Frontiers: on a
    Safe Zone). On a moderator's map too small for that, the spacing of later cities,
    then any free city hex, so that setup always goes on."""
    scenario = state["solitaire"] and SCENARIOS[state["solitaire"]["scenario"]]
    board = table.board_of(state)
    for safe in [True, False] if scenario and scenario.get("first_city") else [False]:
        for gap in (rails.INITIAL_CITY_GAP, rails.CITY_GAP, 1):
            sites = rails.initial_city_sites(
                state["cities"], players=state["seats"], safe_zone_only=safe, board=board, gap=gap
            )
            if sites:
                return sites
    return []


def decide(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    """Check a command against the rules, then say what happens, and what follows."""
    # game over: nothing more
    if state["phase"] == OVER:
        raise RuleViolation("rule/game_over", "the game is over")
    # seat may act now
    if seat not in to_move(state):
        raise RuleViolation(
            "rule/not_your_turn", "it is not your turn to act", {"to_move": to_move(state)}
        )
    # the step or task allows the command, then its own checks
    events = _route(state, seat, cmd, rng)
    return events + advance(folded(state, events), rng)


def _route(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    kind = cmd["type"]
    task, step = state["task"], state["step"]
    if task:
        wanted = "place_rail" if task["kind"] == "rails" else "keep_card"
        _allowed(
            kind,
            (wanted,),
            "you have rails to lay" if wanted == "place_rail" else "keep a card first",
        )
        return (
            cards.place_rail(state, seat, cmd)
            if wanted == "place_rail"
            else cards.keep(state, seat, cmd)
        )
    if step["kind"] == "setup":
        return _setup(state, seat, cmd, step["piece"])
    if step["kind"] == "gunslinger":
        _allowed(kind, ("move_gunslinger",), "move your Gunslinger pawn first")
        return placement.move_gunslinger(state, seat, cmd)
    if step["kind"] == "place":
        return _placing(state, seat, cmd, rng)
    return _collecting(state, seat, cmd, rng, step)


def _allowed(kind: str, allowed: tuple[str, ...], why: str) -> None:
    if kind not in allowed:
        raise RuleViolation(
            "rule/not_now", f"{kind} is not possible now: {why}", {"allowed": list(allowed)}
        )


def _setup(state: State, seat: int, cmd: Command, piece: str) -> list[Event]:
    wanted = {"character": "choose_character", "city": "place_city", "town": "place_town"}[piece]
    _allowed(cmd["type"], (wanted,), f"setup asks for your {piece}")
    if piece == "character":
        if cmd.get("character") not in _free_characters(state):
            raise RuleViolation(
                "rule/character_taken", "choose a character still free", {"field": "character"}
            )
        return [event("CharacterChosen", {"seat": seat, "character": cmd["character"]})]
    h = cmd.get("hex")
    if piece == "city":
        if h not in _first_city_sites(state):
            raise RuleViolation(
                "rule/city_site",
                "a first city goes on an empty hex with two empty hexes between it and every city",
                {"field": "hex"},
            )
        return [event("CityPlaced", {"seat": seat, "hex": h, "setup": True})]
    if h not in table.town_sites(state, seat):
        raise RuleViolation(
            "rule/town_site",
            "a first town goes on a resource hex next to your city",
            {"field": "hex"},
        )
    placed = {"seat": seat, "hex": h, "setup": True}
    if h in table.face_down(state):
        placed["revealed"] = state["layout"][h]
    return [event("TownPlaced", placed)]


def _placing(state: State, seat: int, cmd: Command, rng: Rng) -> list[Event]:
    kind = cmd["type"]
    _allowed(
        kind, ("place", "dealer", "reroll", "flip_deputy", "play_card"), "it is the Placement Phase"
    )
    if kind == "place":
        return placement.place(state, seat, cmd)
    if kind == "dealer":
        return placement.dealer(state, seat, cmd)
    if kind == "reroll":
        return placement.reroll(state, seat, cmd, rng)
    if kind == "flip_deputy":
        return placement.flip_deputy(state, seat)
    return action_cards.play_card(state, seat, cmd, rng, placing=True)


ANYTIME = ("pay_loan", "cash_stock", "use_ability")


def _collecting(
    state: State, seat: int, cmd: Command, rng: Rng, step: dict[str, Any]
) -> list[Event]:
    kind = cmd["type"]
    settle, done = step["kind"] == "settle", step.get("collected")
    allowed: tuple[str, ...] = ANYTIME + ("pass",)
    if not settle:
        allowed = ANYTIME + (("play_card", "pass") if done else ("play_card", "collect", "decline"))
    _allowed(kind, allowed, "it is the Collection Phase")
    if kind == "pass":
        return [event("SettlePassed" if settle else "CollectionPassed", {"seat": seat})]
    if kind == "collect":
        return collection.collect(state, seat, cmd, rng)
    if kind == "decline":
        return collection.decline(state, seat)
    if kind == "play_card":
        return action_cards.play_card(state, seat, cmd, rng, placing=False)
    if kind == "pay_loan":
        return tokens.pay_loan(state, seat, cmd)
    if kind == "cash_stock":
        return tokens.cash_stock(state, seat, cmd, final=settle and step["final"])
    return characters.use_ability(state, seat, cmd)
