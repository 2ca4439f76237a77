"""What an applied ability delivers at the end of its round (after movement): what the
seat learns, the cards it gains and Round 10's points. `state` is the table after this
round's orders were judged and the horses moved."""

from collections.abc import Callable
from typing import Any

from .abilities import counts
from .data import CLUE, FIRST_ROUND, HORSES, LAST_ROUND, UTILITY, UTILITY_POINTS_CAP, ability
from .options import round10_points
from .race import horses_ahead, placements_at, race

State = dict[str, Any]
Result = dict[str, Any]


def ability_result(state: State, seat: int, round_number: int, given: dict[str, Any]) -> Result:
    """The AbilityResolved payload: {round, seat, kind, learned, gained, points}."""
    spec = ability(round_number, given["kind"])
    result = _RESULTS[(round_number, given["kind"])](state, seat, given, spec)
    return {
        "round": round_number,
        "seat": seat,
        "kind": given["kind"],
        "learned": result.get("learned", {}),
        "gained": result.get("gained", {}),
        "points": result.get("points", {}),
    }


def nothing_learned(seat: int, round_number: int) -> Result:
    """The AbilityResolved payload of a seat whose ability did not apply (or that used
    none): the same fields, kind None, nothing learned, gained or scored."""
    return {
        "round": round_number,
        "seat": seat,
        "kind": None,
        "learned": {},
        "gained": {},
        "points": {},
    }


def movements_by_round(state: State) -> dict[int, dict[str, int]]:
    """The secret movement values keyed by round number."""
    return {int(r): values for r, values in state["movements"].items()}


def movement(state: State, round_number: int, horse: str) -> int:
    """One horse's movement value for one round."""
    value: int = state["movements"][str(round_number)][horse]
    return value


def _values(state: State, horses: list[str], rounds: list[int]) -> dict[str, dict[str, int]]:
    return {h: {str(r): movement(state, r, h) for r in rounds} for h in sorted(set(horses))}


def _rounds_from(first: int, n: int) -> list[int]:
    return list(range(first, min(first + n, LAST_ROUND + 1)))


def _movement_values(
    state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]
) -> Result:
    """Rounds 0 and 9 clue: the used horses' values for the rounds named."""
    return {"learned": {"movements": _values(state, given["use"], spec["rounds"])}}


def _sums(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 1 clue: each selected card counts, copies too; one sum per round."""
    sums = {str(r): sum(movement(state, r, h) for h in given["select"]) for r in spec["rounds"]}
    return {"learned": {"sums": sums}}


def _differ_by(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 2 clue: per used horse and round, the horses whose value differs by exactly 1."""
    lists = {
        h: {
            str(r): [
                o
                for o in HORSES
                if abs(movement(state, r, o) - movement(state, r, h)) == spec["difference"]
            ]
            for r in spec["rounds"]
        }
        for h in sorted(set(given["use"]))
    }
    return {"learned": {"differ_by_1": lists}}


def _spaces(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 3 clue: spaces at the end of Round 4, and of Round 5 for 2 copies used."""
    moves, extra = movements_by_round(state), spec["with_copies"]
    used, spaces = counts(given["use"]), {}
    for horse in sorted(used):
        rounds = spec["rounds"] + (extra["rounds"] if used[horse] >= extra["copies"] else [])
        spaces[horse] = {str(r): race(moves, through=r)[0][horse] for r in rounds}
    return {"learned": {"spaces": spaces}}


def _same_movement(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 4 clue: per used horse, the other horses with the same value for Round 5."""
    (r,) = spec["rounds"]
    lists = {
        h: [o for o in HORSES if o != h and movement(state, r, o) == movement(state, r, h)]
        for h in sorted(set(given["use"]))
    }
    return {"learned": {"same_movement": {h: {str(r): found} for h, found in lists.items()}}}


def _placements(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 5 clue: placements at the ends of Rounds 5 and 6; ties share the highest rank."""
    moves = movements_by_round(state)
    by_round = {r: placements_at(moves, r) for r in spec["rounds"]}
    placed = {
        h: {str(r): by_round[r][h] for r in spec["rounds"]} for h in sorted(set(given["use"]))
    }
    return {"learned": {"placements": placed}}


def _copies_values(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 6 clue: n = copies used of that card, values from Round 7 on."""
    used = counts(given["use"])
    values = {
        h: {str(r): movement(state, r, h) for r in _rounds_from(spec["from_round"], n)}
        for h, n in sorted(used.items())
    }
    return {"learned": {"movements": values}}


def _chips_values(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 7 clue (erratum): n = ceil(own chips on that horse in Rounds 1-7 / 5)."""
    values, rounds_of = {}, {}
    for h in sorted(set(given["use"])):
        rounds = range(FIRST_ROUND + 1, spec["from_round"])  # this round's valid bets count
        chips = sum(state["bets"][seat].get(str(r), {}).get(h, 0) for r in rounds)
        n = -(-chips // spec["chips_per_round"])
        rounds_of[h] = n
        values[h] = {str(r): movement(state, r, h) for r in _rounds_from(spec["from_round"], n)}
    return {"learned": {"movements": values, "n": rounds_of}}


def _selected_values(
    state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]
) -> Result:
    """Round 8 clue: the selected half's values for Round 9."""
    return {"learned": {"movements": _values(state, given.get("select", []), spec["rounds"])}}


def _whole_race(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 10 clue: every value of each horse used in at least 3 copies."""
    horses = [h for h, n in counts(given["use"]).items() if n >= spec["copies"]]
    return {"learned": {"movements": _values(state, horses, list(range(1, LAST_ROUND + 1)))}}


def _copy(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 0 utility: a copy of the selected card."""
    return {"gained": {given["select"][0]: spec["copies"]}}


def _chosen(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 1 utility: the chosen cards, one per card used."""
    return {"gained": counts(given["gain"])}


def _chip_limit(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Rounds 2 and 8 utility: the limit was raised at once; the seat learns the new one."""
    return {"learned": {"chip_limit": state["limits"][seat]}}


def _watching(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 3 utility: the watch starts (ChipsWatched each round it names)."""
    return {"learned": {"watching": state["watches"][seat], "rounds": spec["rounds"]}}


def _duplicated(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 4 utility: every selected card duplicated, the used one too (3 -> 5)."""
    return {"gained": {given["select"][0]: len(given["select"])}}


def _guessed(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 5 utility, after movement: each correct guess gains 3 copies of its card."""
    marked = [
        {**g, "correct": horses_ahead(state["positions"], g["horse"]) == g["ahead"]}
        for g in given["guesses"]
    ]
    gained: dict[str, int] = {}
    for guess in marked:
        if guess["correct"]:
            gained[guess["horse"]] = gained.get(guess["horse"], 0) + spec["copies"]
    return {"learned": {"guesses": marked}, "gained": gained}


def _who_bet(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 6 utility: per pair of identical cards, every seat's chips on it this round."""
    r = str(state["round"])
    paired = sorted(h for h, n in counts(given["use"]).items() if n >= spec["copies"])
    found = {
        h: {str(s): bets[r][h] for s, bets in enumerate(state["bets"]) if h in bets.get(r, {})}
        for h in paired
    }
    return {"learned": {"bets": found}}


def _gain_one_kind(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 7 utility: as many copies of the chosen card as distinct cards used."""
    return {"gained": {given["gain"][0]: len(given["use"])}}


def _chips(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 9 utility: the chips came at once, to bet this round; the seat learns its pool."""
    return {"learned": {"chips": state["chips"][seat]}}


def _points(state: State, seat: int, given: dict[str, Any], spec: dict[str, Any]) -> Result:
    """Round 10 utility (house formula): points per card type, capped at 20."""
    formula = state["options"]["round10_utility"]
    points = {
        h: min(UTILITY_POINTS_CAP, round10_points(formula, n))
        for h, n in sorted(counts(given["use"]).items())
    }
    return {"points": points}


_RESULTS: dict[tuple[int, str], Callable[[State, int, dict[str, Any], dict[str, Any]], Result]] = {
    (0, CLUE): _movement_values,
    (0, UTILITY): _copy,
    (1, CLUE): _sums,
    (1, UTILITY): _chosen,
    (2, CLUE): _differ_by,
    (2, UTILITY): _chip_limit,
    (3, CLUE): _spaces,
    (3, UTILITY): _watching,
    (4, CLUE): _same_movement,
    (4, UTILITY): _duplicated,
    (5, CLUE): _placements,
    (5, UTILITY): _guessed,
    (6, CLUE): _copies_values,
    (6, UTILITY): _who_bet,
    (7, CLUE): _chips_values,
    (7, UTILITY): _gain_one_kind,
    (8, CLUE): _selected_values,
    (8, UTILITY): _chip_limit,
    (9, CLUE): _movement_values,
    (9, UTILITY): _chips,
    (10, CLUE): _whole_race,
    (10, UTILITY): _points,
}
