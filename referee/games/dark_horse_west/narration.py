"""Dark Horse West's events in words: `narrate` tells each event as a viewer receives it.

It carries what earlier events told (the dice each seat shows, the placements on the
board) from one event to the next; it never learns more than the events it is given."""

from collections.abc import Callable
from typing import Any

from .board_content import WORDS
from .data import CARDS, SCENARIOS, card_type
from .words import (
    action_name,
    card_name,
    cards_words,
    change_words,
    character_name,
    edge_words,
    goods_words,
    gun_spot,
    hex_words,
    listed,
    name_of,
    order_words,
    rails_words,
    spot_words,
    step_words,
    values_words,
)

# what the replay page steps by besides events and moves: the events that open a round
CHAPTER = ("round", ("RoundStarted",))

Payload = dict[str, Any]
Memory = dict[str, Any]


def narrate(events: list[dict[str, Any]], viewer: Any, players: list[str]) -> list[str | None]:
    """One sentence per event as `viewer` receives it (None for a redacted stub and for
    the referee's own events, which the pages word themselves)."""
    memory: Memory = {"dice": {}, "ghosts": {}, "placements": []}
    told: list[str | None] = []
    for ev in events:
        words = None if ev.get("redacted") else SENTENCES.get(ev.get("type", ""))
        told.append(words(ev["payload"], players, memory) if words else None)
    return told


def _seat_dice(memory: Memory, seat: int) -> dict[int, int]:
    return dict(memory["dice"].get(seat, {}))


def _rolled(p: Payload, n: list[str], m: Memory) -> str:
    m["dice"][p["seat"]] = {d["id"]: d["value"] for d in p["dice"]}
    extra = {"deputy": " (Deputy die)", "bonus": " (bonus die)"}
    faces = [f"{d['value']}{extra.get(d['kind'], '')}" for d in p["dice"]]
    said = f"{name_of(n, p['seat'])} rolls {listed(faces)}" if faces else ""
    if not faces:
        said = f"{name_of(n, p['seat'])} has every die in jail and rolls none"
    if "gunslinger" in p:
        said += f"; Gunslinger die {p['gunslinger']}"
    return said + "."


def _rerolled(p: Payload, n: list[str], m: Memory) -> str:
    dice = _seat_dice(m, p["seat"])
    dice.update({int(d): v for d, v in p["dice"].items()})
    m["dice"][p["seat"]] = dice
    how = "spends a Wild Die token to re-roll" if p["by"] == "wild_die" else "re-rolls"
    if p["by"] == "lucky_break":
        how = "re-rolls with Lucky Break"
    faces = listed([f"die {d} now shows {v}" for d, v in p["dice"].items()])
    return f"{name_of(n, p['seat'])} {how}: {faces}."


def _flipped(p: Payload, n: list[str], m: Memory) -> str:
    dice = _seat_dice(m, p["seat"])
    dice[p["die"]] = p["value"]
    m["dice"][p["seat"]] = dice
    return f"{name_of(n, p['seat'])} flips the Deputy die to {p['value']}."


def _placed(p: Payload, n: list[str], m: Memory) -> str:
    seat, dice = p["seat"], _seat_dice(m, p["seat"])
    engineer = p.get("engineer")
    if engineer:
        dice[engineer["die"]] = engineer["value"]
        m["dice"][seat] = dice
    shown = [dice[d] for d in p["dice"] if d in dice]
    faces = values_words(shown) if len(shown) == len(p["dice"]) else f"dice totalling {p['total']}"
    m["placements"].append({k: p.get(k) for k in ("seat", "action", "row", "slot", "total")})
    where = spot_words(p["action"], p.get("row"), p.get("slot"))
    if p["action"] == "turn_order" and p.get("rank"):
        where += f", slot {p['rank']}"
    if p["action"] == "character":
        where = "their character card"
    return f"{name_of(n, seat)} places {faces} on {where}{_modifiers(p)}."


def _modifiers(p: Payload) -> str:
    parts = []
    if p.get("via") == "dealer":
        parts.append(f"moved {p['delta']:+d} by the Dealer (counts as {p['total']})")
    if p.get("modifier") == "wild":
        parts.append(f"with a Wild Die token {p['delta']:+d} (counts as {p['total']})")
    if p.get("engineer"):
        change = p["engineer"]
        parts.append(f"an Engineer token setting die {change['die']} to {change['value']}")
    if p.get("share"):
        parts.append("sharing the action with an Engineer token")
    return (", " + ", ".join(parts)) if parts else ""


def _dealer(p: Payload, n: list[str], m: Memory) -> str:
    face = _seat_dice(m, p["seat"]).get(p["die"])
    m["placements"].append({"seat": p["seat"], "action": "dealer", "total": face})
    die = f"a {face}" if face is not None else "a die"
    said = f"{name_of(n, p['seat'])} puts {die} on the Dealer"
    if "loan" in p:
        return f"{said} and takes a loan: {goods_words(p['loan'])}."
    return f"{said} to move dice by one."


def _moved(p: Payload, n: list[str], m: Memory) -> str:
    placements = m["placements"]
    known = 0 <= p["placement"] < len(placements)
    before = placements[p["placement"]] if known else {}
    source = spot_words(before.get("action"), before.get("row"), before.get("slot"))
    target = spot_words(p["to"], p.get("row"), p.get("slot"))
    if known:
        moved = {"action": p["to"], "row": p.get("row"), "slot": p.get("slot")}
        placements[p["placement"]] = {**before, **moved, "total": p["total"]}
    whose = name_of(n, p["seat"])
    share = ", sharing it with an Engineer token" if p.get("share") else ""
    start = f" from {source}" if known else ""
    return f"{whose}'s dice move{start} to {target} (counts as {p['total']}){share}."


def _ghosts_rolled(p: Payload, n: list[str], m: Memory) -> str:
    m["ghosts"] = {g["id"]: g["value"] for g in p["dice"]}
    groups: dict[str, list[int]] = {}
    for g in p["dice"]:
        groups.setdefault(g["group"], []).append(g["value"])
    parts = [f"{_ghost_group(group)} {values_words(vals)}" for group, vals in groups.items()]
    return f"The Ghost dice roll: {'; '.join(parts)}."


def _ghost_group(group: str) -> str:
    return "the single Ghost die" if group == "single" else f"Ghost pair {group.split('-')[-1]}"


def _ghost_placed(p: Payload, n: list[str], m: Memory) -> str:
    faces = [m["ghosts"][d] for d in p["dice"] if d in m["ghosts"]]
    shown = values_words(faces) if faces else str(p["total"])
    who = _ghost_group(p["group"])
    who = who[:1].upper() + who[1:]
    if p.get("action"):
        m["placements"].append({"seat": None, "action": p["action"], "total": p["total"]})
        return f"{who} ({shown}) takes {action_name(p['action'])}."
    holder = "the player's dice" if p.get("by") == "player" else "another Ghost die"
    blocked = action_name(p["blocked"])
    return f"{who} ({shown}) would take {blocked}, but {holder} are there: it is discarded."


def _round_started(p: Payload, n: list[str], m: Memory) -> str:
    m.update(dice={}, placements=[])
    jailed = [f"{name_of(n, s)} {_dice_count(k)}" for s, k in enumerate(p["jailed"]) if k]
    said = f"Game turn {p['round']} begins"
    if "turns_left" in p:
        said += f" ({p['turns_left']} left on the countdown)"
    if jailed:
        said += f"; in jail: {listed(jailed)}"
    return said + "."


def _dice_count(k: int) -> str:
    return "every die" if k >= 3 else ("1 die" if k == 1 else f"{k} dice")


def _collected(p: Payload, n: list[str], m: Memory) -> str:
    said = f"{name_of(n, p['seat'])} collects {_collected_spot(p, m)}"
    if p.get("build"):
        said += f" and builds a {p['build']} at {hex_words(p['hex'])}"
    paid = change_words(p.get("change", {}))
    return said + (f": {paid}" if paid else "") + "."


def _collected_spot(p: Payload, m: Memory) -> str:
    placement = _placement_of(p, m)
    return spot_words(p["action"], placement.get("row"), placement.get("slot"))


def _placement_of(p: Payload, m: Memory) -> dict[str, Any]:
    index = p.get("placement")
    placements = m["placements"]
    return placements[index] if isinstance(index, int) and 0 <= index < len(placements) else {}


def _collection_turn(p: Payload, n: list[str], m: Memory) -> str:
    where = _collected_spot(p, m)
    return f"{name_of(n, p['seat'])}'s turn to collect {where}."


def _declined(p: Payload, n: list[str], m: Memory) -> str:
    where = _collected_spot(p, m)
    return f"{name_of(n, p['seat'])} declines {where}: nothing paid, nothing gained."


def _order(p: Payload, n: list[str], m: Memory) -> str:
    why = WORDS["order_why"].get(p.get("why"), p.get("why"))
    return f"Turn order ({why}): {order_words(p['order'], n)}."


def _town_placed(p: Payload, n: list[str], m: Memory) -> str:
    verb = "places a first town" if p.get("setup") else "has a town"
    said = f"{name_of(n, p['seat'])} {verb} at {hex_words(p['hex'])}"
    if p.get("revealed"):
        said += f"; its tile turns face up: {_tile_words(p['revealed'])}"
    return said + "."


def _tile_words(tile: str) -> str:
    """A tile id as what it is: "ore-7" -> "ore" (its rugged mark is on the map)."""
    return tile.rsplit("-", 1)[0]


def _city_placed(p: Payload, n: list[str], m: Memory) -> str:
    verb = "places a first city" if p.get("setup") else "builds a city"
    return f"{name_of(n, p['seat'])} {verb} at {hex_words(p['hex'])}."


def _revealed(p: Payload, n: list[str], m: Memory) -> str:
    tiles = [f"{_tile_words(t)} at {hex_words(h)}" for h, t in p["tiles"].items()]
    return f"Tiles turned face up: {', '.join(tiles)}." if tiles else "No tile is turned up."


def _rails_due(p: Payload, n: list[str], m: Memory) -> str:
    why = WORDS["rails_why"].get(p["why"], p["why"])
    where = ", anywhere beside a rail" if p.get("anywhere") else ""
    return f"{name_of(n, p['seat'])} has {rails_words(p['count'])} to lay ({why}){where}."


def _event_played(p: Payload, n: list[str], m: Memory) -> str:
    data = CARDS[card_type(p["card"])]
    marker = f", the Event Marker on {action_name(p['marker'])}" if p.get("marker") else ""
    drawn = f" (drawn by {name_of(n, p['seat'])})" if p.get("seat") is not None else ""
    return f"Event {data['name']} comes into play{drawn}{marker}: {data['text']}"


def _event_discarded(p: Payload, n: list[str], m: Memory) -> str:
    name = card_name(p["card"])
    if p.get("why") == "sheriff":
        gone = "removes it from the game" if p.get("removed") else "discards it"
        return f"The Sheriff {gone}: {name} is no longer in play."
    if p.get("why") == "temporary":
        return f"{name} is discarded at the end of the Collection Phase."
    return f"{name} is discarded."


def _card_played(p: Payload, n: list[str], m: Memory) -> str:
    said = f"{name_of(n, p['seat'])} plays {card_name(p['card'])}"
    details = []
    if "target" in p:
        details.append(f"on {name_of(n, p['target'])}")
    if "hex" in p:
        details.append(f"at {hex_words(p['hex'])}")
    if "hexes" in p:
        details.append(f"to look at {listed([hex_words(h) for h in p['hexes']])}")
    said += "".join(f" {d}" for d in details)
    return said + (f": {change_words(p['change'])}." if p.get("change") else ".")


def _ability_used(p: Payload, n: list[str], m: Memory) -> str:
    who = name_of(n, p["seat"])
    ability = p["ability"]
    if ability == "sell_card":
        return f"{who} discards {card_name(p['card'])} for {goods_words(p.get('change', {}))}."
    if ability == "swap_card":
        return f"{who} discards {card_name(p['card'])} and takes {card_name(p['taken'])}."
    if ability == "track":
        return f"{who} tracks: looks at the tile at {hex_words(p['hex'])}."
    verb = "trades" if ability == "merchant_trade" else "homesteads"
    return f"{who} {verb}: {change_words(p.get('change', {})) or 'nothing produced'}."


def _cards_drawn(p: Payload, n: list[str], m: Memory) -> str:
    drawn = listed([card_name(c) for c in p["cards"]])
    return f"{name_of(n, p['seat'])} draws {drawn} ({action_name(p['action'])})."


def _card_kept(p: Payload, n: list[str], m: Memory) -> str:
    who = name_of(n, p["seat"])
    said = f"{who} keeps {card_name(p['card'])}" if p.get("card") else f"{who} keeps no card"
    if p.get("top"):
        said += f"; back on top: {cards_words(p['top'])}"
    return said + "."


def _draw_chosen(p: Payload, n: list[str], m: Memory) -> str:
    """The public side of a keep: who chose, from which action's draw (never what)."""
    return f"{name_of(n, p['seat'])} has chosen from the cards drawn ({action_name(p['action'])})."


def _ghost_pioneer(p: Payload, n: list[str], m: Memory) -> str:
    shown = listed([card_name(c) for c in p["cards"]]) if p["cards"] else "no card"
    gone = (
        f"; discarded: {listed([card_name(c) for c in p['discarded']])}" if p["discarded"] else ""
    )
    return f"The Ghost die on Pioneer turns up {shown}{gone}."


def _scores(p: Payload, n: list[str], m: Memory) -> str:
    scores = ", ".join(f"{name_of(n, s)} {v}" for s, v in enumerate(p["scores"]))
    said = f"Final scores: {scores}"
    if "scenario" in p:
        scenario = SCENARIOS[p["scenario"]]
        won = "won" if p.get("victory") else "lost"
        said += f"; the {scenario['name']} scenario is {won}"
    return said + "."


def _gunslinger(p: Payload, n: list[str], m: Memory) -> str:
    who = f"{name_of(n, p['seat'])}'s Gunslinger pawn"
    if p["from"] == p["to"]:
        return f"{who} cannot move {p['die']} either way and stays on {gun_spot(p['to'])}."
    return f"{who} moves {p['die']} from {gun_spot(p['from'])} to {gun_spot(p['to'])}."


def _end(p: Payload, n: list[str], m: Memory) -> str:
    who = name_of(n, p["seat"])
    if p["reason"] == "influence":
        return f"{who} reaches the Game End token: this Collection Phase is the last."
    return f"{who} has built every city and town: this Collection Phase is the last."


def _simple(text: str) -> Callable[[Payload, list[str], Memory], str]:
    """A sentence naming the event's seat (as {who}) and its other fields."""
    return lambda p, n, m: text.format(who=name_of(n, p.get("seat")), **p)


SENTENCES: dict[str, Callable[[Payload, list[str], Memory], str]] = {
    "TurnOrderDrawn": lambda p, n, m: f"Turn order drawn: {order_words(p['order'], n)}.",
    "CharactersDealt": lambda p, n, m: (
        "Characters dealt: "
        + ", ".join(
            f"{name_of(n, s)} is {character_name(c)}" for s, c in enumerate(p["characters"])
        )
        + "."
    ),
    "CharacterChosen": lambda p, n, m: (
        f"{name_of(n, p['seat'])} chooses {character_name(p['character'])}."
    ),
    "TilesLaid": _simple("The resource tiles are laid out (the moderator alone sees where)."),
    "TilesRevealed": _revealed,
    "DeckShuffled": _simple("The action deck is shuffled."),
    "EventPileShuffled": _simple("Marshal Law: the events are shuffled into a pile of their own."),
    "SetupTurn": lambda p, n, m: step_words({"step": {"kind": "setup", **p}}, n) + ".",
    "CityPlaced": _city_placed,
    "TownPlaced": _town_placed,
    "TownReturned": lambda p, n, m: (
        f"{name_of(n, p['seat'])}'s town at {hex_words(p['hex'])} goes back to them."
    ),
    "RuggedFound": lambda p, n, m: (
        f"{name_of(n, p['seat'])} turns up a rugged "
        f"{_tile_words(p['tile'])} tile at {hex_words(p['hex'])} and cannot pay its ore: "
        "nothing is built."
    ),
    "RailsDue": _rails_due,
    "RailPlaced": lambda p, n, m: f"{name_of(n, p['seat'])} lays a rail {edge_words(p['edge'])}.",
    "RailsForfeited": lambda p, n, m: (
        f"{name_of(n, p['seat'])} has nowhere to lay {rails_words(p['count'])}: forfeited."
    ),
    "RoundStarted": _round_started,
    "DiceRolled": _rolled,
    "TokenGained": _simple("{who} rolled doubles and gains a Wild Die token."),
    "GhostDiceRolled": _ghosts_rolled,
    "GunslingerTurn": _simple("{who}'s turn to move the Gunslinger pawn."),
    "GunslingerMoved": _gunslinger,
    "PlacementTurn": _simple("{who}'s turn to place dice."),
    "DeputyFlipped": _flipped,
    "DiceRerolled": _rerolled,
    "DicePlaced": _placed,
    "DealerUsed": _dealer,
    "DiceMoved": _moved,
    "GhostDiePlaced": _ghost_placed,
    "PlacementEnded": _simple("The Placement Phase of game turn {round} ends."),
    "CollectionStarted": _simple("The Collection Phase of game turn {round} begins."),
    "CardsRevealed": _ghost_pioneer,
    "CollectionTurn": _collection_turn,
    "ActionCollected": _collected,
    "ActionDeclined": _declined,
    "TurnOrderChanged": _order,
    "RoleTaken": lambda p, n, m: (
        f"{name_of(n, p['seat'])} takes the {p['role'].capitalize()} "
        "token" + (f" from {name_of(n, p['from'])}." if p.get("from") is not None else ".")
    ),
    "RoleLost": lambda p, n, m: (
        f"A Ghost die took {p['role'].capitalize()}: "
        f"{name_of(n, p['seat'])} loses the {p['role'].capitalize()} token."
    ),
    "BonusDieGained": _simple("{who} will roll a bonus die next Placement Phase."),
    "CardsDrawn": _cards_drawn,
    "EventPlayed": _event_played,
    "EventDiscarded": _event_discarded,
    "CardsReturned": lambda p, n, m: (
        f"Two events in one draw: {name_of(n, p['seat'])}'s "
        "cards go back, the deck is shuffled with the discard pile and drawn again."
    ),
    "CardKept": _card_kept,
    "DrawChosen": _draw_chosen,
    "CardsDiscarded": lambda p, n, m: (
        f"{name_of(n, p['seat'])} discards {listed([card_name(c) for c in p['cards']])} face up."
    ),
    "EventAbilityUsed": lambda p, n, m: (
        f"{name_of(n, p['seat'])} uses "
        f"{card_name(p['card'])}'s ability instead of keeping a card"
        + (f": {change_words(p['change'])}." if p.get("change") else ": a rail to lay.")
    ),
    "CardPlayed": _card_played,
    "InfluenceLost": lambda p, n, m: (
        f"{name_of(n, p['seat'])} loses {goods_words(p['change'])} ({card_name(p['card'])})."
    ),
    "Jailed": lambda p, n, m: (
        f"{name_of(n, p['seat'])} goes to jail: no Mayor or Sheriff "
        f"token, and {_dice_count(p['dice'])} out next Placement Phase."
    ),
    "AbilityUsed": _ability_used,
    "StockCashed": lambda p, n, m: (
        f"{name_of(n, p['seat'])} cashes a Stock token for "
        f"{goods_words({g: v for g, v in p['change'].items() if g != 'stock'})}."
    ),
    "LoanPaid": lambda p, n, m: (
        f"{name_of(n, p['seat'])} pays off a loan with "
        f"{goods_words({g: v for g, v in p['change'].items() if g != 'loan'})}."
    ),
    "TileLooked": lambda p, n, m: (
        f"{name_of(n, p['seat'])} looks at the tile at "
        f"{hex_words(p['hex'])}: {_tile_words(p['tile'])}."
    ),
    "CollectionPassed": _simple("{who} is done for now."),
    "SettleTurn": lambda p, n, m: (
        f"{name_of(n, p['seat'])} may still pay loans, cash stock "
        f"or use abilities{' before scoring' if p.get('final') else ''}."
    ),
    "SettlePassed": _simple("{who} is done."),
    "RoundEnded": _simple("Game turn {round} ends."),
    "GameEndTriggered": _end,
    "ScoresCounted": _scores,
}
