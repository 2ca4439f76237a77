"""The Dark Horse West bot's ruleset part (docs/bots.md): `sample` rebuilds a full table
from one seat's view, drawing what the seat cannot see (face-down tiles it has not seen,
the deck's order, other hands, the cards another seat is choosing among, Marshal Law's
event pile)."""

from fractions import Fraction
from functools import reduce
from typing import Any

from ...engine.rng import Rng
from . import collection, rails, scoring, solitaire, table
from .collection import city_cost, town_cost
from .data import RESOURCES, SCENARIOS, SOLITAIRE, card_kind, deck_cards
from .hexes import corners, edge_ends, parse_hex, sides
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
# Solitaire's work left, in hundredths of a turn: a turn; a build (a die on Builder, one a
# turn); a resource short for the builds left (gold: a turn, traded for four); a rail to
# lay for a site (Rail Baron lays two); and the margin on the pace that is worth 3/4
TURN, BUILD, SHORT, GOLD_SHORT, RAIL, PACE_SPREAD = 100, 100, 35, 100, 50, 100
SEARCHED_FROM = "searched_from"  # a sampled Solitaire table's work left, and its round
FAR = 99  # rails to a site no rail can reach
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
    if state["solitaire"]:
        state[SEARCHED_FROM] = [work_left(state), state["round"]]
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
    """Solitaire: 1 for the scenario's victory; else the work done a turn since the search
    began (`work_left` then and now, in hundredths of a turn) against the pace that would
    meet the victory in time (the work then, spread over the turns then left): a half at
    that pace, towards the whole or nothing as the margin grows (three quarters at
    PACE_SPREAD a turn ahead). Against the search's start, not the game's: the search
    weighs the moves of a turn or two, and a build or a resource must tell there, however
    far off the victory is; a turn, so that tables searched to different depths compare."""
    if solitaire.victory(rules):
        return Fraction(1)
    work, number = rules.get(SEARCHED_FROM) or (work_left(rules), rules["round"])  # unsampled
    turns_left = max(1, rules["solitaire"]["turns"] - number)
    turns = max(1, rules["round"] - number)
    ahead = (work - work_left(rules)) * turns_left - work * turns
    return Fraction(1, 2) + Fraction(ahead, 2 * (abs(ahead) + PACE_SPREAD * turns_left * turns))


def work_left(rules: State) -> int:
    """The work still between the Solitaire player and the scenario's victory, in
    hundredths of a turn: for the cities and towns it still has to build (`building`), or
    the dead-centre towns (`centre_work`), and a gold or an influence short a turn each."""
    scenario = SCENARIOS[rules["solitaire"]["scenario"]]
    goods = rules["goods"][0]
    kind = scenario["victory"]
    if kind == "all_pieces":
        return building(rules, table.cities_left(rules, 0), table.towns_left(rules, 0))
    if kind == "dead_centre":
        return centre_work(rules)
    cities = max(0, scenario["cities"] - len(table.cities_of(rules, 0)))
    if kind == "cities_and_gold":
        spare = max(0, goods["gold"] - cities)  # the gold the cities still to build leave
        return building(rules, cities, 0) + TURN * max(0, scenario["gold"] - spare)
    return building(rules, cities, 0) + TURN * max(0, scenario["influence"] - goods["influence"])


def building(rules: State, cities: int, towns: int) -> int:
    """The work `cities` and `towns` more take, in hundredths of a turn: a build each,
    the resources their costs take beyond what the player holds, and the rails to lay
    to reach their sites."""
    town = town_cost(rules, 0, "", rugged=False)  # on plain ground: no hex is read
    need = _needed([(city_cost(rules), cities), (town, towns)])
    work = BUILD * (cities + towns) + _short(rules, need)
    return work + RAIL * rails_short(rules, cities, towns)


def centre_work(rules: State) -> int:
    """Wild Frontiers: for each dead-centre hex without the player's town, a build, the
    resources a town there takes (rugged ground: an ore more) and the rails to reach it."""
    left = [h for h in table.board_of(rules).dead_centre if rules["towns"].get(h) != 0]
    need = _needed([(town_cost(rules, 0, h), 1) for h in left])
    far = _far(rules)
    return BUILD * len(left) + _short(rules, need) + RAIL * sum(_town_rails(h, far) for h in left)


def _needed(costs: list[tuple[dict[str, int], int]]) -> dict[str, int]:
    """The goods `count` of each cost take together."""
    need: dict[str, int] = {}
    for cost, count in costs:
        for good, n in cost.items():
            need[good] = need.get(good, 0) + n * count
    return need


def _short(rules: State, need: dict[str, int]) -> int:
    """The work the goods short of `need` take: SHORT a resource, GOLD_SHORT a gold."""
    goods = rules["goods"][0]
    short = {good: max(0, n - goods[good]) for good, n in need.items()}
    return GOLD_SHORT * short.pop("gold", 0) + SHORT * sum(short.values())


def _far(rules: State) -> dict[str, int]:
    """The rails to lay to each vertex from the player's cities."""
    return rails.rails_to(0, rules["rails"], rules["cities"], board=table.board_of(rules))


def rails_short(rules: State, cities: int, towns: int) -> int:
    """The fewest rails to lay for `cities` more city sites and `towns` more town sites
    (the nearest sites, each counted alone: rails two of them share count twice)."""
    board, far = table.board_of(rules), _far(rules)
    free = rails.free_city_hexes(rules["cities"], players=rules["seats"], board=board)
    cost = [_city_rails(h, far, rules) for h in free] if cities else []
    towns_at = [_town_rails(h, far) for h in _town_hexes(rules)] if towns else []
    return sum(sorted(cost)[:cities]) + sum(sorted(towns_at)[:towns])


def _city_rails(h: str, far: dict[str, int], rules: State) -> int:
    """Rails to lay for a city on `h`: one on a side of it, joined to a city."""
    laid, board = rules["rails"], table.board_of(rules)
    on_map = [side for side in sides(parse_hex(h)) if board.edge_on_map(side)]
    rails_for = [
        min(far.get(v, FAR) for v in edge_ends(e)) + (0 if e in laid else 1) for e in on_map
    ]
    return min(rails_for, default=FAR)


def _town_rails(h: str, far: dict[str, int]) -> int:
    """Rails to lay for a town on `h`: to one of its corners."""
    return min(far.get(v, FAR) for v in corners(parse_hex(h)))


def _town_hexes(rules: State) -> list[str]:
    """The resource hexes where a town may yet stand, reached or not."""
    free = rails.free_town_hexes(
        rules["towns"], players=rules["seats"], board=table.board_of(rules)
    )
    return [h for h in free if table.resource_of(rules, h) is not None]
