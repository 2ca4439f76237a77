"""The options of a Dark Horse West game and their checks: the Game End token, how
characters are given out, the deck and characters in play (house content a moderator may
replace), revealed tiles, Gunslinger (2 players) and Solitaire (1 player)."""

from typing import Any

from .._checks import invalid, is_int
from .data import CARDS, CHARACTERS, DATA, DIFFICULTIES, HOUSE_DECK, SCENARIOS, SOLITAIRE
from .map_option import check_map, check_map_table

CHARACTER_MODES = ("random", "choose", "none")
MAX_COPIES = 6
MIN_DECK = 10

OPTIONS: dict[str, Any] = {
    "game_end_influence": DATA["game_end_influence"],
    "characters": "random",
    "characters_in_play": None,
    "deck": None,
    "tiles_face_up": False,
    "gunslinger": False,
    "difficulty": None,
    "scenario": None,
    "solitaire_turns": SOLITAIRE["turns"],
    "map": None,
}


def check_options(options: dict[str, Any]) -> None:
    """Each option's own shape; check_table checks them against the number of players."""
    end = options["game_end_influence"]
    if not is_int(end) or not 3 <= end <= 60:
        raise invalid("game_end_influence", "game_end_influence must be an integer 3-60")
    if options["characters"] not in CHARACTER_MODES:
        raise invalid("characters", f"characters must be one of {', '.join(CHARACTER_MODES)}")
    _check_in_play(options["characters_in_play"])
    _check_deck(options["deck"])
    for name in ("tiles_face_up", "gunslinger"):
        if not isinstance(options[name], bool):
            raise invalid(name, f"{name} must be true or false")
    if options["difficulty"] not in (None, *DIFFICULTIES):
        raise invalid("difficulty", f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    if options["scenario"] not in (None, *SCENARIOS):
        raise invalid("scenario", f"scenario must be one of {', '.join(SCENARIOS)}")
    turns = options["solitaire_turns"]
    if not is_int(turns) or not 1 <= turns <= 200:
        raise invalid("solitaire_turns", "solitaire_turns must be an integer 1-200")
    check_map(options["map"])


def check_table(players: list[str], options: dict[str, Any]) -> None:
    """Gunslinger is for two players, difficulty and scenario for one; enough characters."""
    seats = len(players)
    if options["gunslinger"] and seats != 2:
        raise invalid("gunslinger", "Gunslinger is the two-player variant")
    for name in ("difficulty", "scenario"):
        if options[name] is not None and seats != 1:
            raise invalid(name, f"{name} is for the Solitaire variant (1 player)")
    if options["map"] is not None:
        check_map_table(options["map"], seats, options["scenario"])
    in_play = options["characters_in_play"]
    if options["characters"] != "none" and len(characters_available(in_play, seats)) < seats:
        raise invalid(
            "characters_in_play",
            f"{seats} players need {seats} characters (The Tracker sits out with two)",
        )


def characters_available(in_play: list[str] | None, seats: int) -> list[str]:
    """The characters that may be dealt or chosen (The Tracker is out with two players)."""
    chosen = in_play or list(CHARACTERS)
    return [c for c in CHARACTERS if c in chosen and (seats != 2 or c != "tracker")]


def _check_in_play(value: Any) -> None:
    if value is None:
        return
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(c, str) or c not in CHARACTERS for c in value)
        or len(set(value)) != len(value)
    ):
        raise invalid(
            "characters_in_play",
            f"characters_in_play must be null or distinct ids among {', '.join(CHARACTERS)}",
        )


def _check_deck(value: Any) -> None:
    if value is None:
        return
    shape = f"deck must be null or copies (0-{MAX_COPIES}) per card id: {', '.join(CARDS)}"
    if not isinstance(value, dict) or any(c not in CARDS for c in value):
        raise invalid("deck", shape)
    if not all(is_int(n) and 0 <= n <= MAX_COPIES for n in value.values()):
        raise invalid("deck", shape)
    if sum(value.values()) < MIN_DECK:
        raise invalid("deck", f"deck must hold at least {MIN_DECK} cards")


def deck_counts(options: dict[str, Any]) -> dict[str, int]:
    """Copies per card in this game's deck (game_setup.py leaves Solitaire's five out)."""
    return dict(options["deck"] or HOUSE_DECK)


def is_solitaire(seats: int) -> bool:
    """One player plays the Solitaire variant."""
    return seats == 1
