"""The Dark Horse West bot's ruleset part (docs/bots.md): `sample` rebuilds a full table
from one seat's view, drawing what the seat cannot see (face-down tiles it has not seen,
the deck's order, other hands, the cards another seat is choosing among, Marshal Law's
event pile)."""

from fractions import Fraction
from functools import reduce
from typing import Any

from ...engine.rng import Rng
from . import collection, scoring, solitaire, table
from .data import RESOURCES, SCENARIOS, SOLITAIRE, card_kind, deck_cards
from .options import deck_counts
from .scoring import outcome
from .state import OVER, PLACEMENT, apply
from .turns import decide, legal, to_move
from .versions import FIRST
from .views import PUBLIC
from .worth import POINT, Worth, plain_placements

State = dict[str, Any]
View = dict[str, Any]
Command = dict[str, Any]

# the strong level's search: iterations a move, and how playouts are cut short
ITERATIONS = 300
PLAYOUT_MOVES = 0  # evaluate plays the game turn out itself, without exploring
TURN_MOVES = 60  # at most this many moves to the end of a game turn
NEAR_BEST = 25  # the policy's exploring moves: those this close to the best worth
LEAD = 400  # a lead (in hundredths of a point) that wins a pair of seats three times in four
# Solitaire: the turns a city, a town and a dead-centre town take, and the toss-up's width
CITY_TURNS, TOWN_TURNS, CENTRE_TURNS, SPREAD = 4, 2, 6, 6
CITY_LATER, TOWN_LATER = 250, 120  # what a city and a town will bring beyond their points
TOWN_SITE, CITY_SITE = 10, 40  # a site the seat's rails reach, for a town and for a city
RESOURCE_LATER = 20  # what a resource held will bring
# the view's keys that are the table's own, as they are
KEPT = (*PUBLIC, "map", "step")


# --- sample ------------------------------------------------------------------------------


def sample(view: View, seat: int, rng: Rng) -> State:
    """A full table consistent with what `seat` sees (`view` is the ruleset's view for
    it): the unseen tiles are dealt uniformly to the face-down hexes the seat has not
    seen (with two players one of them lies out of the game); the unseen cards are dealt
    uniformly to the other hands (action cards only: events are never held), the cards
    another seat is choosing among (action cards), Marshal Law's event pile (events) and
    the deck, in a uniform order. What a seat remembers beyond its view (the cards its
    Scout put back on top) is not used."""
    state: State = {key: view[key] for key in KEPT}
    seats = len(view["order"])
    state.update(
        seats=seats,
        end_influence=view["game_end_influence"],
        phase_discards=view["discarded_this_phase"],
        shuffles=0,
        looked=[sorted(view["tiles_seen"]) if s == seat else [] for s in range(seats)],
    )
    if view["rules_version"] != FIRST:
        state["version"] = view["rules_version"]
    state["layout"] = _layout(state, view, rng)
    _deal_cards(state, view, seat, rng)
    return state


def _layout(state: State, view: View, rng: Rng) -> dict[str, str]:
    """The tiles: face up and seen as they are, the rest shuffled onto the unseen hexes."""
    board = table.board_of(state)
    two = state["seats"] == 2
    known = {**view["face_up"], **view["tiles_seen"]}
    placed = set(known.values())
    in_game = [t for t, tile in board.tiles.items() if not (two and tile["rugged"])]
    pool = [t for t in in_game if t not in placed]
    unseen = [h for h in view["face_down"] if h not in known]
    drawn = rng.shuffle("sample/tiles", pool)
    layout = dict(known)
    layout.update(zip(unseen, drawn, strict=False))
    return dict(sorted(layout.items()))


def all_cards(state: State) -> list[str]:
    """Every card of this game's deck (Solitaire leaves its five out)."""
    cards = deck_cards(deck_counts({"deck": state["deck_option"]}))
    if state["solitaire"]:
        cards = [c for c in cards if c.rsplit("-", 1)[0] not in SOLITAIRE["removed_cards"]]
    return cards


def _marshal_law(state: State) -> bool:
    solo = state["solitaire"]
    return bool(solo and SCENARIOS[solo["scenario"]].get("events_apart"))


def _deal_cards(state: State, view: View, seat: int, rng: Rng) -> None:
    """Hands, the deck, the event pile and a task's drawn cards, from the unseen cards."""
    task = view["task"]
    mine = list(view["hand"])
    if task and task["kind"] == "keep" and task["seat"] == seat:
        mine += task["drawn"]
    known = set(mine) | set(view["discard"] + view["events"] + view["temporary"])
    known |= set(view["removed"])
    unseen = [c for c in all_cards(state) if c not in known]
    events = rng.shuffle("sample/events", [c for c in unseen if card_kind(c) == "event"])
    actions = rng.shuffle("sample/actions", [c for c in unseen if card_kind(c) != "event"])
    pile_size = view["event_pile_size"] if _marshal_law(state) else 0
    state["event_pile"], events = events[:pile_size], events[pile_size:]
    hands: list[list[str]] = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append(sorted(actions[:size]))
            actions = actions[size:]
    state["hands"] = hands
    state["task"] = task
    if task and task["kind"] == "keep" and task["seat"] != seat:
        count = len(events) + len(actions) - view["deck_size"]
        drawn, actions = actions[:count], actions[count:]
        state["task"] = {
            **{k: v for k, v in task.items() if k != "drawing"},
            "drawn": drawn,
            "events": _drawn_events(view, task, count),
        }
    state["deck"] = rng.shuffle("sample/deck", events + actions)


def _drawn_events(view: View, task: dict[str, Any], count: int) -> list[str]:
    """The event another seat drew with its cards, when it drew one: the one last put in
    play (a guess when the draw's Winds of Change went straight to the discard pile)."""
    wanted = 3 if task["action"] == "scout" else 2
    if count >= wanted:
        return []
    played = view["temporary"] or view["events"]
    return played[-1:]


# --- policy and evaluate -------------------------------------------------------------------


def _rules(state: State) -> State:
    """The rules table, from an engine state or the table itself."""
    return state["rules"] if "ruleset" in state else state


def policy(state: State, seat: int, commands: list[Command], rng: Rng) -> Command:
    """A cheap playout move: each command is given a worth (worth.py) and the best is
    played, ties drawn at random, and one move in eight drawn among those near the best."""
    if len(commands) == 1:
        return commands[0]
    rules = _rules(state)
    worth = Worth(rules, seat)
    scored = [(worth.of(c), i) for i, c in enumerate(commands)]
    best = max(w for w, _ in scored)
    label = _moment(rules, len(commands))
    margin = 0 if rng.below(f"policy/explore/{label}", 8) else NEAR_BEST
    top = [i for w, i in scored if w >= best - margin]
    return commands[top[rng.below(f"policy/pick/{label}", len(top))]]


def _moment(rules: State, count: int) -> str:
    """A label for the policy's draws that changes from step to step of a playout (an
    Rng gives the same draw for the same label)."""
    step = rules["step"] or {}
    task = rules["task"] or {}
    parts = (
        rules["round"],
        rules["phase"],
        len(rules["placements"]),
        sum(p["collected"] for p in rules["placements"]),
        step.get("kind"),
        step.get("seat"),
        step.get("collected"),
        task.get("kind"),
        task.get("count"),
        len(rules["rails"]),
        len(rules["settled"]),
        count,
    )
    return "/".join(str(x) for x in parts)


def evaluate(state: State, seat: int) -> list[Fraction]:
    """Each seat's share of the win, for a search cut short: the game turn under way is
    played out by the policy without exploring (a turn's dice are already rolled, so this
    is nearly sure), then every pair of seats is compared by its standing (`shares`); a
    game that ends meanwhile is shared by its outcome. Solitaire: the chance of the
    scenario's victory, by the work left against the turns left."""
    rules = turn_played(_rules(state))
    if rules["phase"] == OVER:
        return _outcome_shares(rules)
    if rules["solitaire"]:
        return [on_the_way(rules)]
    return shares([standing(rules, s) for s in range(rules["seats"])])


def turn_played(rules: State) -> State:
    """The table once the game turn under way is over (at most TURN_MOVES moves on), each
    move the policy's best, each random outcome drawn from a fixed label."""
    number = rules["round"]
    for moved in range(TURN_MOVES):
        if rules["phase"] == OVER or (rules["round"] > number and rules["phase"] == PLACEMENT):
            return rules
        seat = to_move(rules)[0]
        commands = _weighed(rules, seat)
        command = commands[0] if len(commands) == 1 else _best(rules, seat, commands)
        events = decide(rules, seat, command, Rng(f"evaluate/{number}/{moved}"))
        rules = reduce(apply, events, rules)
    return rules


def _weighed(rules: State, seat: int) -> list[Command]:
    """The legal moves a played-out turn weighs: dice placed without tokens (every move
    when there is none), collections, a pass where the seat may pass; a whole list
    only for rails, cards and setup."""
    task, step = rules["task"], rules["step"]
    if task is None and step["kind"] == "place":
        return plain_placements(rules, seat) or legal(rules, seat)
    if task is None and step["kind"] == "collect" and not step.get("collected"):
        return [*collection.collect_commands(rules, seat), {"type": "decline"}]
    if task is None and step["kind"] in ("collect", "settle") and not step.get("final"):
        return [{"type": "pass"}]
    return legal(rules, seat)


def _best(rules: State, seat: int, commands: list[Command]) -> Command:
    """The first command of the best worth."""
    worth = Worth(rules, seat)
    return max(commands, key=worth.of)


def _outcome_shares(rules: State) -> list[Fraction]:
    winners = (outcome(rules) or {}).get("winners") or []
    return [
        Fraction(1, len(winners)) if s in winners else Fraction(0) for s in range(rules["seats"])
    ]


def shares(standings: list[int]) -> list[Fraction]:
    """Win shares from standings: the mean of each pair's share, scaled to add up to 1."""
    n = len(standings)
    if n == 1:
        return [Fraction(1)]
    out = []
    for a in range(n):
        pairs = sum((_pair(standings[a] - standings[b]) for b in range(n) if b != a), Fraction(0))
        out.append(pairs * 2 / (n * (n - 1)))
    return out


def _pair(lead: int) -> Fraction:
    """A pair's share for the seat ahead by `lead`: a half, and towards the whole as the
    lead grows (three quarters at a lead of LEAD), never quite there, so that a seat far
    ahead or behind still tells a better move from a worse."""
    return Fraction(1, 2) + Fraction(lead, 2 * (abs(lead) + LEAD))


def standing(rules: State, seat: int) -> int:
    """A seat's points so far, in hundredths of a point, and what it holds: goods, tokens,
    cards, and (until the game's end is triggered) its cities, towns and the sites its
    rails reach, for the points they will bring."""
    goods = rules["goods"][seat]
    points = scoring.breakdown(rules, seat)["total"] * POINT
    held = sum(goods[r] for r in RESOURCES) * RESOURCE_LATER + goods["stock"] * 90
    held += (goods["wild"] + goods["engineer"]) * 15 + len(rules["hands"][seat]) * 40
    held += 25 if rules["bonus"][seat] else 0
    if rules["end"] is None:
        held += CITY_LATER * len(table.cities_of(rules, seat))
        held += TOWN_LATER * len(table.towns_of(rules, seat))
        held += _room(rules, seat)
    return points + held


def _room(rules: State, seat: int) -> int:
    """What the sites the seat's rails reach are worth: a little for each town it may
    still build there, more for a city."""
    towns = min(len(table.town_sites(rules, seat)), table.towns_left(rules, seat))
    city = bool(table.cities_left(rules, seat) and table.city_sites(rules, seat))
    return TOWN_SITE * towns + CITY_SITE * city


def on_the_way(rules: State) -> Fraction:
    """Solitaire: the chance of the scenario's victory, from the turns left against the
    turns the work left takes (`work_left`): a half when they match, towards the whole or
    nothing as the margin grows (three quarters at a margin of SPREAD turns)."""
    if solitaire.victory(rules):
        return Fraction(1)
    ahead = rules["solitaire"]["turns"] - rules["round"] - work_left(rules)
    return Fraction(1, 2) + Fraction(ahead, 2 * (abs(ahead) + SPREAD))


def work_left(rules: State) -> int:
    """The turns of work still between the Solitaire player and the scenario's victory:
    CITY_TURNS a city, TOWN_TURNS a town, a turn a gold or an influence short, and
    CENTRE_TURNS a dead-centre hex without the player's town."""
    scenario = SCENARIOS[rules["solitaire"]["scenario"]]
    goods = rules["goods"][0]
    kind = scenario["victory"]
    if kind == "all_pieces":
        towns = table.towns_left(rules, 0)
        return CITY_TURNS * table.cities_left(rules, 0) + TOWN_TURNS * towns
    if kind == "dead_centre":
        centre = table.board_of(rules).dead_centre
        return CENTRE_TURNS * sum(1 for h in centre if rules["towns"].get(h) != 0)
    cities = max(0, scenario["cities"] - len(table.cities_of(rules, 0)))
    if kind == "cities_and_gold":
        return CITY_TURNS * cities + max(0, scenario["gold"] - goods["gold"])
    return CITY_TURNS * cities + max(0, scenario["influence"] - goods["influence"])
