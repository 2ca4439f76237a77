"""What a command is worth to the seat that sends it, for the bot's playout policy
(bot.py): a rough, cheap guess from the seat's goods and pieces, the action's yield, the
rails and towns a move joins, the tokens and dice it spends.

Worths are integers in hundredths of a victory point: nothing here is a float, so the
bot's moves are the same on every machine. They are guesses, tuned by playing
(docs/bots.md), not a model of the game.
"""

from collections.abc import Callable
from typing import Any

from . import dice as dc
from . import rails, scoring, table
from .collection import city_cost, market_options, politics_cost, rail_baron_cost, town_cost
from .data import ACTIONS as BOARD_ACTIONS
from .data import CARDS, RESOURCES, SCENARIOS, card_type, gun_actions
from .hexes import corners, edge_ends, hex_key, neighbours, parse_edge, parse_hex
from .placement import gun_targets

State = dict[str, Any]
Command = dict[str, Any]
Goods = dict[str, int]

POINT = 100
DIE = 12  # a die spent: it could have gone on another action
TOKEN = {"wild": 30, "engineer": 45, "share": 45}
RESOURCE, NEEDED = 20, 45  # a resource, and one that a build the seat may make lacks
SURPLUS, PLENTY = 5, 4  # a resource the seat holds PLENTY more of than any build takes
RAIL_PLAIN = 20
ENDING = 300  # ending the game by influence: for a seat ahead, against one behind
LITTLE = 5  # a good the seat has no use for (Solitaire's gold and influence beyond its goal)
CENTRE = 300  # Wild Frontiers: a town on a dead-centre hex, or a rail that opens one
BLOCK = 50  # percent of an action's worth to another seat that keeping it from them is worth
CARD_WORTH = {
    "land_grant": 220,
    "election": 90,
    "marshal_dylan": 90,
    "mudslinging": 60,
    "claim_jumpers": 60,
    "supply_wagon": 50,
    "foreman": 45,
    "entrepreneur": 45,
    "whispering_campaign": 35,
    "train_robbery": 30,
    "stagecoach": 30,
    "lucky_break": 10,
    "surveyor": 5,
    "ol_switcheroo": 5,
}
CHARACTER_WORTH = {"politician": 30, "railroader": 25, "banker": 20, "merchant": 20}
HARMFUL_EVENTS = ("drought", "city_fire", "rail_strike")
# what a Gunslinger pawn on a track number is worth: the actions it keeps from the other
GUN_BLOCK = {2: 10, 3: 40, 4: 25, 5: 45, 6: 80, 7: 40, 8: 30, 9: 30, 10: 90, 11: 50, 12: 80}


def covers(have: Goods, cost: Goods) -> bool:
    """Whether goods pay a cost."""
    return all(have.get(g, 0) >= n for g, n in cost.items())


class Worth:
    """What each command is worth to one seat on one table, worked out once as asked."""

    def __init__(self, state: State, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.goods: Goods = state["goods"][seat]
        self._kept: dict[str, Any] = {}
        self._worths: Goods | None = None

    def of(self, command: Command) -> int:
        """The command's worth to the seat."""
        return int(WORTHS[command["type"]](self, command))

    def _once(self, name: str, make: Callable[[], Any]) -> Any:
        if name not in self._kept:
            self._kept[name] = make()
        return self._kept[name]

    # --- what the seat has, lacks and may build --------------------------------------

    def projected(self) -> Goods:
        """The seat's goods once its dice on Produce Resources and Work Crew are collected."""
        return dict(self._once("projected", self._projected))

    def _projected(self) -> Goods:
        goods = dict(self.goods)
        for p in self.state["placements"]:
            if p["seat"] != self.seat or p["collected"]:
                continue
            if p["action"] == "produce":
                made = self.towns_on(p["row"])
                goods[p["row"]] += made + (1 if made and p.get("slot") == "plus" else 0)
            elif p["action"] == "work_crew":
                for r in self.produced()[:2]:
                    goods[r] += self.towns_on(r)
        return goods

    def towns_on(self, resource: str) -> int:
        return int(self._once(f"towns_on/{resource}", lambda: self._towns_on(resource)))

    def _towns_on(self, resource: str) -> int:
        return table.towns_on(self.state, self.seat, resource)

    def produced(self) -> list[str]:
        """The resources the seat has towns on, most towns first."""
        return list(self._once("produced", self._produced))

    def _produced(self) -> list[str]:
        kinds = [r for r in RESOURCES if self.towns_on(r)]
        return sorted(kinds, key=lambda r: -self.towns_on(r))

    def town_sites(self) -> list[str]:
        return list(self._once("town_sites", lambda: table.town_sites(self.state, self.seat)))

    def city_sites(self) -> list[str]:
        return list(self._once("city_sites", lambda: table.city_sites(self.state, self.seat)))

    def may_build_town(self) -> bool:
        return table.towns_left(self.state, self.seat) > 0 and bool(self.town_sites())

    def may_build_city(self) -> bool:
        return table.cities_left(self.state, self.seat) > 0 and bool(self.city_sites())

    def resource(self, good: str) -> int:
        """What one more of a good is worth: a resource more when a build the seat may
        make lacks it; gold a point."""
        if self._worths is None:
            self._worths = self._resources()
        return self._worths.get(good, 0)

    def _resources(self) -> Goods:
        have = self.projected()
        lacking = {r: 0 for r in RESOURCES}
        goals = []
        if self.may_build_town():
            goals.append(town_cost(self.state, self.seat, self.town_sites()[0], rugged=False))
        if self.may_build_city():
            goals.append(city_cost(self.state))
        if self.rail_worth() > RAIL_PLAIN:
            goals.append(rail_baron_cost(self.state, self.seat))
        wanted = {r: 0 for r in RESOURCES}
        for goal in goals:
            for good, n in goal.items():
                if good in lacking:
                    lacking[good] = max(lacking[good], n - have[good])
                    wanted[good] = max(wanted[good], n)
        worths = {
            r: NEEDED if lacking[r] > 0 else SURPLUS if have[r] >= wanted[r] + PLENTY else RESOURCE
            for r in RESOURCES
        }
        return {**worths, "gold": self._gold()}

    def _gold(self) -> int:
        """A gold: a point; in Solitaire only while the scenario still wants gold (a city
        costs one)."""
        if not self.state["solitaire"]:
            return POINT
        wanted = table.cities_left(self.state, self.seat) + self.goal().get("gold", 0)
        return POINT if self.projected()["gold"] < wanted else LITTLE

    def goal(self) -> dict[str, Any]:
        """The Solitaire scenario (its victory and targets), or nothing."""
        solo = self.state["solitaire"]
        return dict(SCENARIOS[solo["scenario"]]) if solo else {}

    def role(self, role: str) -> int:
        """What taking a role (a point while held) is worth: nothing in Solitaire, little
        when the seat holds it already."""
        if self.state["solitaire"]:
            return 0
        return 10 if self.state["roles"][role] == self.seat else 90

    def cheapest(self, count: int) -> int | None:
        """What the seat's `count` least useful resources are worth (None if it holds
        fewer)."""
        have = self.projected()
        units = sorted(self.resource(r) for r in RESOURCES for _ in range(min(have[r], count)))
        return sum(units[:count]) if len(units) >= count else None

    def best_resource(self) -> int:
        """What the resource the seat wants most is worth."""
        return max(self.resource(r) for r in RESOURCES)

    def paid(self, goods: Goods) -> int:
        """What goods are worth to the seat, together."""
        return sum(self.resource(g) * n for g, n in goods.items())

    def rail_worth(self) -> int:
        """What one more rail is worth: most while a town of the seat is not yet joined to
        each of its cities, or while it has nowhere left to build."""
        return int(self._once("rail", self._rail_worth))

    def _rail_worth(self) -> int:
        s, seat = self.state, self.seat
        if len(table.towns_of(s, seat)) * len(table.cities_of(s, seat)) > self.points():
            return 60
        if table.towns_left(s, seat) and not self.town_sites():
            return 50
        if table.cities_left(s, seat) and not self.city_sites():
            return 40
        return RAIL_PLAIN

    def points(self, *, rails_now: Any = None, towns: Any = None) -> int:
        """The seat's city points (with other rails or towns, if given)."""
        s = self.state
        points = rails.city_points(
            s["rails"] if rails_now is None else rails_now,
            s["cities"],
            s["towns"] if towns is None else towns,
            board=table.board_of(s),
        )
        return sum(n for c, n in points.items() if s["cities"][c] == self.seat)

    def influence(self, gained: int = 1) -> int:
        """What influence is worth: a point each, and when it reaches the Game End token
        (ending the game) much more for a seat ahead, much less for one behind."""
        worth = POINT * gained
        s = self.state
        if s["solitaire"]:
            wanted = self.goal().get("influence", 0) > self.goods["influence"]
            return worth if wanted else LITTLE * gained
        if s["end"] or self.goods["influence"] + gained < s["end_influence"]:
            return worth
        return worth + (ENDING if self.ahead() else -ENDING)

    def ahead(self) -> bool:
        """Whether the seat's points are ahead of every other seat's."""
        return bool(self._once("ahead", self._ahead))

    def _ahead(self) -> bool:
        totals = [scoring.breakdown(self.state, s)["total"] for s in range(self.state["seats"])]
        mine = totals.pop(self.seat)
        return all(mine > other for other in totals)

    # --- what collecting an action brings ---------------------------------------------

    def action(self, action: str, row: str | None = None, slot: str | None = None) -> int:
        """What collecting an action is worth to the seat (guessed when the dice go down:
        goods may change before it is collected)."""
        key = f"action/{action}/{row}/{slot}"
        return int(self._once(key, lambda: ACTIONS[action](self, row, slot)))

    def _produce(self, row: str | None, slot: str | None) -> int:
        made = self.towns_on(str(row))
        if not made:
            return 0
        extra = 0
        if slot == "plus":
            extra = 2 if table.event_on(self.state, "bumper_harvest") else 1
        return (made + extra) * self.resource(str(row))

    def _politics(self, row: str | None, slot: str | None) -> int:
        if not politics_cost(self.state, self.seat):
            return self.influence()
        held = [self.resource(r) for r in RESOURCES if self.projected()[r] > 0]
        return self.influence() - min(held) if held else 0

    def _work_crew(self, row: str | None, slot: str | None) -> int:
        return sum(self.towns_on(r) * self.resource(r) for r in self.produced()[:2])

    def _rail_baron(self, row: str | None, slot: str | None) -> int:
        cost = rail_baron_cost(self.state, self.seat)
        if not covers(self.projected(), cost):
            return 0
        return max(0, 2 * self.rail_worth() - self.paid(cost) + 40)

    def _builder(self, row: str | None, slot: str | None) -> int:
        have = self.projected()
        if self.may_build_city() and covers(have, city_cost(self.state)):
            return 350
        if self.may_build_town():
            if covers(have, town_cost(self.state, self.seat, self.town_sites()[0], rugged=False)):
                return 220
        return 0

    def _trader(self, row: str | None, slot: str | None) -> int:
        gold = 3 if table.event_on(self.state, "gold_strike") else 4
        paid = self.cheapest(gold)
        trades = [] if paid is None else [POINT - paid]
        paid = self.cheapest(4)
        trades += [] if paid is None else [2 * self.best_resource() - paid]
        return max([0, *trades]) + (20 if trades else 0)

    def _engineer(self, row: str | None, slot: str | None) -> int:
        rooms = sum(25 for t in ("engineer", "wild") if table.room_for(self.state, self.seat, t))
        return rooms + 10

    def _scout(self, row: str | None, slot: str | None) -> int:
        return 50

    def _pioneer(self, row: str | None, slot: str | None) -> int:
        return 45

    def _mayor(self, row: str | None, slot: str | None) -> int:
        return self.influence() + 30 + self.role("mayor")

    def _sheriff(self, row: str | None, slot: str | None) -> int:
        return 20 + self.role("sheriff")

    def _broker(self, row: str | None, slot: str | None) -> int:
        return 80 if table.room_for(self.state, self.seat, "stock") else 0

    def _tycoon(self, row: str | None, slot: str | None) -> int:
        count = 2 if table.event_on(self.state, "railroad_boom") else 1
        return POINT + count * self.rail_worth()

    def _hired_hand(self, row: str | None, slot: str | None) -> int:
        return 0 if self.state["bonus"][self.seat] else 35

    def _turn_order(self, row: str | None, slot: str | None) -> int:
        return 5 * table.position(self.state, self.seat)

    def _market(self, row: str | None, slot: str | None) -> int:
        trades = []
        for count, gold, takes in market_options(self.state, self.seat):
            paid = POINT if gold else self.cheapest(count)
            if paid is None or (gold and self.projected()["gold"] < 1):
                continue
            trades.append(max(self.paid(take) for take in takes) - paid)
        return max([0, *trades])

    def _character(self, row: str | None, slot: str | None) -> int:
        if table.has(self.state, self.seat, "homestead"):
            return self.towns_on("food") * self.resource("food")
        return 20

    # --- the Placement Phase ----------------------------------------------------------

    def _place(self, c: Command) -> int:
        worth = self.action(c["action"], c.get("row"), c.get("slot")) - DIE * len(c["dice"])
        worth += self.blocking(c["action"]) if not c.get("share") else 0
        return worth - sum(TOKEN[t] for t in TOKEN if c.get(t))

    def blocking(self, action: str) -> int:
        """What taking the last place on a limited action keeps from the others: part of
        what it is worth to the seat that wants it most and can reach it with its dice."""
        if action == "character" or BOARD_ACTIONS[action]["kind"] not in ("limited", "restricted"):
            return 0
        if len(dc.occupants(self.state, action, None, None)) + 1 < dc.places(self.state, action):
            return 0
        return self.wanted_by_others(action) * BLOCK // 100

    def wanted_by_others(self, action: str) -> int:
        """The most another seat would get from an action it can reach with its dice now."""
        return int(self._once(f"wanted/{action}", lambda: self._wanted(action)))

    def _wanted(self, action: str) -> int:
        best = 0
        for seat, reach in self.reaches().items():
            if action in reach:
                best = max(best, Worth(self.state, seat).action(action))
        return best

    def reaches(self) -> dict[int, set[str]]:
        """The actions each other seat can put its dice on now, without tokens."""
        return dict(self._once("reaches", self._reaches))

    def _reaches(self) -> dict[int, set[str]]:
        return {
            s: {c["action"] for c in plain_placements(self.state, s)}
            for s in range(self.state["seats"])
            if s != self.seat
        }

    def _dealer(self, c: Command) -> int:
        if "loan" in c:
            return self.paid(c["loan"]) - 110 - DIE
        move = c["move"]
        to = self.action(move["to"], move.get("row"), move.get("slot"))
        if move.get("share"):
            to -= TOKEN["share"]
        if "placement" in move:
            was = self.state["placements"][move["placement"]]
            return to - self.action(was["action"], was.get("row"), was.get("slot")) - DIE
        return to - DIE * (len(move["dice"]) + 1)

    def _reroll(self, c: Command) -> int:
        return -10

    def _flip_deputy(self, c: Command) -> int:
        die = next(d for d in self.state["dice"][self.seat] if d["kind"] == "deputy")
        naturals = (3, 4, 5)
        return 20 if 7 - die["value"] in naturals and die["value"] not in naturals else -30

    def _move_gunslinger(self, c: Command) -> int:
        position = gun_targets(self.state, self.seat)[c["direction"]]
        kept = max(self.wanted_by_others(a) for a in gun_actions(position))
        return GUN_BLOCK[position] // 2 + kept

    # --- the Collection Phase ---------------------------------------------------------

    def _collect(self, c: Command) -> int:
        action = self.state["placements"][self.state["step"]["placement"]]["action"]
        if action == "builder":
            return self.build(c["build"], c["hex"])
        if action in ("trader", "market"):
            return self.paid(c["take"]) - self.paid(c["pay"]) + 20
        if action == "politics":
            return self.influence() - self.paid(c.get("pay", {}))
        if action == "mayor":
            return self.influence() + self.paid(c["take"])
        if action == "work_crew":
            return sum(self.towns_on(r) * self.resource(r) for r in c["resources"])
        if action == "sheriff":
            return 50 + self._event_removed(c.get("remove_event"))
        if action == "rail_baron":
            return self._rail_baron(None, None) - 40
        return 50

    def _event_removed(self, card: str | None) -> int:
        if card is None:
            return 0
        return 40 if card_type(card) in HARMFUL_EVENTS else -5

    def build(self, build: str, h: str) -> int:
        """What a town or a city on a hex is worth to the seat (costs counted half)."""
        s, seat = self.state, self.seat
        if build == "city":
            board = table.board_of(s)
            free = [
                n
                for n in neighbours(parse_hex(h))
                if board.on_map(n)
                and board.hexes[n]["kind"] != "non_resource"
                and f"{n[0]},{n[1]}" not in s["towns"]
            ]
            return 350 + 15 * len(free) - self.paid(city_cost(s)) // 2
        joined = self.points(towns={**s["towns"], h: seat}) - self.points()
        fresh = 30 if table.resource_of(s, h) not in self.produced() else 0
        centre = CENTRE if h in self.centre() else 0
        return 150 + POINT * joined + fresh + centre - self.paid(town_cost(s, seat, h)) // 2

    def centre(self) -> tuple[str, ...]:
        """The dead-centre hexes Wild Frontiers wants towns on (none otherwise)."""
        if self.goal().get("victory") != "dead_centre":
            return ()
        return table.board_of(self.state).dead_centre

    def _decline(self, c: Command) -> int:
        return 0

    def _place_rail(self, c: Command) -> int:
        """A rail: a point for each of the seat's towns it joins to the seat's cities'
        rails, a little for each resource hex it opens to towns, more for a first city
        site (guessed from the rail's ends, without laying it)."""
        joined, opened, city = self.rails_map()
        ends = edge_ends(c["edge"])
        if not any(v in joined for v in ends):
            return 0
        fresh: set[str] = set()
        for v in ends:
            if v not in joined:
                fresh |= self.network_of(v)
        gain = POINT * sum(1 for corners_ in self.loose_towns() if corners_ & (fresh | set(ends)))
        board = table.board_of(self.state)
        near = {h for v in fresh for h in board.hexes_at(v)}
        gain += 15 * len(near & opened) + CENTRE * len(near & opened & set(self.centre()))
        edge_hexes = {hex_key(h) for h in parse_edge(c["edge"])}
        return gain + (30 if edge_hexes & city else 0)

    def rails_map(self) -> tuple[set[str], set[str], set[str]]:
        """(the vertices joined to the seat's cities, the resource hexes a rail could open
        to its towns, the hexes where a rail could give it a first city site)."""
        return self._once("rails_map", self._rails_map)  # type: ignore[no-any-return]

    def _rails_map(self) -> tuple[set[str], set[str], set[str]]:
        s, seat = self.state, self.seat
        joined = {v for h in table.cities_of(s, seat) for v in corners(parse_hex(h))}
        for v in list(joined):
            joined |= self.network_of(v)
        board = table.board_of(s)
        access = set(table.access(s, seat))
        free = rails.free_town_hexes(s["towns"], players=s["seats"], board=board)
        opened = {h for h in free if h not in access}
        city: set[str] = set()
        if table.cities_left(s, seat) and not self.city_sites():
            city = set(rails.free_city_hexes(s["cities"], players=s["seats"], board=board))
        return joined, opened, city

    def network_of(self, vertex: str) -> set[str]:
        """The vertex and every vertex rails join to it."""
        networks = self._once("networks", self._networks)
        return set(networks.get(vertex, {vertex}))

    def _networks(self) -> dict[str, frozenset[str]]:
        found: dict[str, frozenset[str]] = {}
        for network in rails.rail_networks(self.state["rails"]):
            vertices = frozenset(rails.network_vertices(network))
            found.update((v, vertices) for v in vertices)
        return found

    def loose_towns(self) -> list[set[str]]:
        """The corners of each of the seat's towns that no rail joins to one of its cities."""
        return list(self._once("loose", self._loose_towns))

    def _loose_towns(self) -> list[set[str]]:
        s, seat = self.state, self.seat
        joined = self.rails_map()[0]
        railed = set(self._networks())
        loose = []
        for h in table.towns_of(s, seat):
            around = set(corners(parse_hex(h)))
            if not around & joined & railed:
                loose.append(around)
        return loose

    def _keep_card(self, c: Command) -> int:
        if c.get("card"):
            return CARD_WORTH.get(card_type(c["card"]), 0)
        ability = CARDS[card_type(c["ability"])].get("ability") if c.get("ability") else None
        if ability == "take_gold":
            return POINT
        return self.rail_worth() if ability == "place_rail" else 0

    def _play_card(self, c: Command) -> int:
        kind = card_type(c["card"])
        worth = CARD_PLAYS.get(kind)
        return worth(self, c) if worth else CARD_WORTH.get(kind, 0)

    def _pay_loan(self, c: Command) -> int:
        if self._final():
            return 150
        return POINT - self.paid(c["pay"]) - 30

    def _cash_stock(self, c: Command) -> int:
        if self._final():
            return self.paid(c["take"])
        if c["take"] == {"gold": 1}:
            return 5 if not table.room_for(self.state, self.seat, "stock") else -5
        return self.paid(c["take"]) - POINT

    def _final(self) -> bool:
        step = self.state["step"] or {}
        return bool(step.get("kind") == "settle" and step.get("final"))

    def _use_ability(self, c: Command) -> int:
        ability = c["ability"]
        if ability == "homestead":
            return self.towns_on("food") * self.resource("food")
        if ability == "sell_card":
            return self.paid(c["take"]) - CARD_WORTH.get(card_type(c["card"]), 0)
        if ability == "swap_card":
            taken, card = card_type(c["taken"]), card_type(c["card"])
            return CARD_WORTH.get(taken, 0) - CARD_WORTH.get(card, 0)
        if ability == "merchant_trade":
            return self.paid(c["take"]) - self.paid(c["pay"])
        return -5

    def _pass(self, c: Command) -> int:
        return 0

    # --- setup ------------------------------------------------------------------------

    def _choose_character(self, c: Command) -> int:
        return CHARACTER_WORTH.get(c["character"], 10)

    def _place_city(self, c: Command) -> int:
        s = self.state
        board = table.board_of(s)
        worth = 0
        for n in neighbours(parse_hex(c["hex"])):
            if not board.in_bounds(n, players=s["seats"]):
                continue
            if board.hexes[n]["kind"] == "non_resource":
                continue
            key = f"{n[0]},{n[1]}"
            known = board.hexes[n]["resource"] or s["face_up"].get(key)
            worth += 30 if known else 20
        if self._scenario_wants_safe_zone() and board.cell(c["hex"])["safe_zone"]:
            worth += 50
        return worth

    def _scenario_wants_safe_zone(self) -> bool:
        solo = self.state["solitaire"]
        return bool(solo and SCENARIOS[solo["scenario"]].get("first_city"))

    def _place_town(self, c: Command) -> int:
        resource = table.resource_of(self.state, c["hex"])
        return 40 if resource in ("food", "wood") else 30


def _free_rail(w: Worth, c: Command) -> int:
    return w.rail_worth()


def _election(w: Worth, c: Command) -> int:
    return w.influence() - w.paid(c.get("pay", {}))


def _marshal(w: Worth, c: Command) -> int:
    return w._sheriff(None, None) + w._event_removed(c.get("remove_event"))


def _land_grant(w: Worth, c: Command) -> int:
    return w.build("town", c["hex"]) + 60


def _supply(w: Worth, c: Command) -> int:
    return w.paid(c["take"])


def _foreman(w: Worth, c: Command) -> int:
    return w.towns_on(c["resource"]) * w.resource(c["resource"])


def _influence_loss(w: Worth, c: Command) -> int:
    amount = int(CARDS[card_type(c["card"])]["amount"])
    return amount * 2 * POINT // w.state["seats"] - 30


def _train_robbery(w: Worth, c: Command) -> int:
    roles = sum(1 for holder in w.state["roles"].values() if holder == w.seat)
    return 2 * POINT - 150 - POINT * roles


def _stagecoach(w: Worth, c: Command) -> int:
    return w._hired_hand(None, None)


def _no_gain(w: Worth, c: Command) -> int:
    return -20


CARD_PLAYS: dict[str, Callable[[Worth, Command], int]] = {
    "entrepreneur": _free_rail,
    "election": _election,
    "marshal_dylan": _marshal,
    "land_grant": _land_grant,
    "supply_wagon": _supply,
    "foreman": _foreman,
    "whispering_campaign": _influence_loss,
    "mudslinging": _influence_loss,
    "train_robbery": _train_robbery,
    "stagecoach": _stagecoach,
    "lucky_break": _no_gain,
    "surveyor": _no_gain,
    "ol_switcheroo": _no_gain,
}
WORTHS: dict[str, Callable[[Worth, Command], int]] = {
    "choose_character": Worth._choose_character,
    "place_city": Worth._place_city,
    "place_town": Worth._place_town,
    "place_rail": Worth._place_rail,
    "move_gunslinger": Worth._move_gunslinger,
    "flip_deputy": Worth._flip_deputy,
    "reroll": Worth._reroll,
    "place": Worth._place,
    "dealer": Worth._dealer,
    "play_card": Worth._play_card,
    "collect": Worth._collect,
    "decline": Worth._decline,
    "keep_card": Worth._keep_card,
    "pay_loan": Worth._pay_loan,
    "cash_stock": Worth._cash_stock,
    "use_ability": Worth._use_ability,
    "pass": Worth._pass,
}
ACTIONS: dict[str, Callable[[Worth, str | None, str | None], int]] = {
    "turn_order": Worth._turn_order,
    "pioneer": Worth._pioneer,
    "produce": Worth._produce,
    "hired_hand": Worth._hired_hand,
    "politics": Worth._politics,
    "work_crew": Worth._work_crew,
    "rail_baron": Worth._rail_baron,
    "builder": Worth._builder,
    "trader": Worth._trader,
    "engineer": Worth._engineer,
    "scout": Worth._scout,
    "mayor": Worth._mayor,
    "sheriff": Worth._sheriff,
    "broker": Worth._broker,
    "tycoon": Worth._tycoon,
    "market": Worth._market,
    "character": Worth._character,
}


def plain_placements(state: State, seat: int) -> list[Command]:
    """The seat's placements that take no token: its dice as they show, on a free spot."""
    groups = dc.subsets(dc.unplaced(state, seat))
    own = state["dice"][seat]
    out = []
    for action, row, slot in dc.spots(state):
        if dc.spot_problem(state, seat, action, row, slot, False):
            continue
        need = dc.need_of(state, seat, action, slot)
        counts = dc.DICE_TAKEN.get(need["type"])
        where = {"action": action, **({"row": row, "slot": slot} if row else {})}
        for group in groups:
            if (counts is None or len(group) in counts) and dc.fits(
                need, [own[i] for i in group], 0
            ):
                out.append({"type": "place", **where, "dice": group})
    return out
