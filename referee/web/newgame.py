"""The new-game form: players (each seat a person or a bot), every option of the ruleset
with its default and what it means, and an optional seed, read back into what
`create_game` takes. "Play against bots" is the same form with every seat but the first
the strongest bot that plays the ruleset here.

Lengths of time (a ruleset's options named `*_seconds`, and the turn clock's time limit)
are typed as a number and a unit; below `SHORT_SECONDS` the form asks the moderator to
confirm, since a game by post wants hours (the API takes any length the rules do)."""

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from werkzeug.datastructures import MultiDict

from ..engine.canonical import canonical_json
from ..engine.clocks import MAX_SECONDS, MIN_SECONDS
from ..engine.errors import BadRequest, Forbidden
from .present import BOT_WORDS

SEED_MOST = 200
UNITS = {"seconds": 1, "minutes": 60, "hours": 3600}
SHORT_SECONDS = 300  # below five minutes a length is for a test, not for people by post


class NewGame:
    """The form for one ruleset (its description from GET /rulesets/{id})."""

    def __init__(
        self, ruleset: dict[str, Any], *, operator_key: bool = False, against_bots: bool = False
    ) -> None:
        self.ruleset = ruleset
        self.operator_key = operator_key
        self.against_bots = against_bots
        self.players: list[str] = []
        self.names = [""] * ruleset["default_players"]  # as typed, a field per seat
        self.bot_words = BOT_WORDS
        # per seat on the form: "" (a person) or a bot's level
        self.played_by = [""] * ruleset["max_players"]
        self.bots: dict[int, str] = {}
        if against_bots:
            best = ruleset["bot_levels"][-1]  # the strongest bot that plays it here
            self.played_by[1 : ruleset["default_players"]] = [best] * (
                ruleset["default_players"] - 1
            )
        self.options: dict[str, Any] = {}
        self.sent: dict[str, str] = {}
        self.seed: str | None = None
        self.units: dict[str, str] = {}
        self.clock: dict[str, Any] | None = None
        self.clock_sent = {"length": "", "unit": "hours", "on_timeout": "wait", "extensions": "0"}
        self.key = ""
        self.short: list[str] = []  # lengths below SHORT_SECONDS, until confirmed
        self.words = spoken_lengths()

    def fields(self) -> list[dict[str, Any]]:
        """Each option as the page draws it: name, kind, default, text, value sent."""
        texts = self.ruleset.get("option_texts", {})
        return [
            {
                "name": name,
                "label": _label(name, default),
                "kind": _kind(name, default),
                "default": _shown(default),
                "text": texts.get(name, ""),
                "value": self.sent.get(name, _in_unit(name, default)),
                "unit": self.units.get(name, _unit_of(default)),
                "seats": [(str(s), f"Player {s + 1}") for s in range(self.ruleset["max_players"])],
            }
            for name, default in self.ruleset["options"].items()
        ]

    def read(self, form: MultiDict) -> None:
        """Players, options and seed from the form; BadRequest naming the first bad field."""
        self._seats(form.getlist("player"), form.getlist("played_by"))
        self.sent = {name: form.get(f"option-{name}", "") for name in self.ruleset["options"]}
        # a length sent without its unit (a script's form) is in the option's own seconds
        self.units = {
            name: form.get(f"option-{name}-unit") or "seconds"
            for name, default in self.ruleset["options"].items()
            if _kind(name, default) == "length"
        }
        read = {name: self._option(name, text) for name, text in self.sent.items() if text.strip()}
        defaults = self.ruleset["options"]
        self.options = {name: value for name, value in read.items() if value != defaults[name]}
        seed = form.get("seed", "").strip()
        if len(seed) > SEED_MOST:
            raise BadRequest(
                "request/invalid", f"seed: at most {SEED_MOST} characters", {"field": "seed"}
            )
        self.seed = seed or None
        self.key = form.get("operator_key", "")
        if self.ruleset.get("clock"):
            self.clock_sent = {name: form.get(f"clock-{name}", "").strip() for name in CLOCK_FIELDS}
            if not self.clock_sent["length"] and form.get("clock-hours"):  # the older form
                self.clock_sent.update(length=form["clock-hours"].strip(), unit="hours")
            self.clock = clock_from(self.clock_sent)
        self._confirm_short(form.get("short_ok") == "yes")

    def _seats(self, names: list[str], played_by: list[str]) -> None:
        """The players in seat order: a seat with a name, or played by a bot (named "Bot N"
        when left unnamed); an empty seat a person would play is left out."""
        self.names = names
        self.played_by = [*played_by, *[""] * len(names)][: max(len(names), len(played_by))]
        self.players, self.bots = [], {}
        for number, name in enumerate(names):
            level = self.played_by[number].strip()
            if level:
                self.bots[len(self.players)] = level
                self.players.append(name.strip() or f"Bot {len(self.players) + 1}")
            elif name.strip():
                self.players.append(name.strip())

    def _option(self, name: str, text: str) -> Any:
        default = self.ruleset["options"][name]
        if _kind(name, default) == "length":
            return length_from(text, self.units[name], f"option-{name}", _label(name, default))
        return _read(text, default, name)

    def _confirm_short(self, confirmed: bool) -> None:
        """A length under five minutes is refused until the moderator confirms it."""
        lengths = {
            _label(name, self.ruleset["options"][name]): self.options.get(name)
            for name in self.units
        }
        if self.clock:
            lengths["Time limit per move"] = self.clock["seconds"]
        self.short = [
            f"{label}: {spoken(seconds)}"
            for label, seconds in lengths.items()
            if isinstance(seconds, int) and 0 < seconds < SHORT_SECONDS
        ]
        if self.short and not confirmed:
            raise BadRequest(
                "form/confirm_short",
                f"{'; '.join(self.short)}: that is very short for players by post, who need "
                'hours (a day is usual). Tick "Yes, this short" below to create the game '
                "anyway, as a test.",
                {"field": "short_ok"},
            )

    def check_operator(self, key: str | None) -> None:
        """When the host set an operator key, the form must carry it."""
        if key and self.key != key:
            raise Forbidden("auth/operator_key", "this host's operator key is needed", {})


CLOCK_FIELDS = ("length", "unit", "on_timeout", "extensions")


def spoken_lengths() -> dict[str, Any]:
    """The form's words for its lengths: units, the clock's range, what is short."""
    return {
        "units": list(UNITS),
        "clock_least": spoken(MIN_SECONDS),
        "clock_most": spoken(MAX_SECONDS),
        "short_least": spoken(SHORT_SECONDS),
    }


def clock_from(sent: dict[str, str]) -> dict[str, Any] | None:
    """The clock the form asks for: none when the time limit is left empty; a length may
    have a fraction (0.5 hours is 30 minutes)."""
    length = sent.get("length", "")
    if not length:
        return None
    unit = sent.get("unit") or "hours"
    words = f"time limit per move: from {spoken(MIN_SECONDS)} to {spoken(MAX_SECONDS)}"
    seconds = length_from(length, unit, "clock-length", words)
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise BadRequest("request/invalid", words, {"field": "clock-length"})
    extensions = sent.get("extensions") or "0"
    if not (extensions.isascii() and extensions.isdigit() and len(extensions) <= 2):
        raise BadRequest(
            "request/invalid", "extensions: a whole number", {"field": "clock-extensions"}
        )
    on_timeout = sent.get("on_timeout") or "wait"
    clock = {"seconds": seconds, "on_timeout": on_timeout, "extensions": int(extensions)}
    if on_timeout == "autopilot-strong":  # the autopilot is the strong bot (docs/bots.md)
        clock.update(on_timeout="autopilot", autopilot_level="strong")
    return clock


def length_from(text: str, unit: str, field: str, what: str) -> int:
    """Whole seconds from a number of `unit`s (a fraction allowed: 0.5 hours)."""
    seconds = None
    if text.isascii() and len(text) <= 12 and unit in UNITS:
        try:
            seconds = round(Decimal(text.strip()) * UNITS[unit])
        except (InvalidOperation, ValueError, OverflowError):
            seconds = None
    if seconds is None:
        raise BadRequest(
            "request/invalid",
            f"{what}: a number of {' or '.join(UNITS)}, as 24 hours or 30 minutes",
            {"field": field},
        )
    return seconds


def spoken(seconds: int) -> str:
    """A length as people say it: `30 days`, `1 minute`, `90 seconds`."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        if seconds % size == 0 and seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return f"{seconds} seconds"


def _label(name: str, default: Any) -> str:
    """An option's label: `round_seconds` is "Round length"."""
    if _kind(name, default) == "length":
        name = name.removesuffix("_seconds") + "_length"
    return name.replace("_", " ").capitalize()


def _unit_of(default: Any) -> str:
    """The unit a length's default reads best in: hours, minutes or seconds."""
    if not isinstance(default, int) or isinstance(default, bool):
        return "hours"
    return next((u for u in ("hours", "minutes") if default % UNITS[u] == 0), "seconds")


def _in_unit(name: str, default: Any) -> str:
    if _kind(name, default) != "length":
        return _shown(default)
    return str(default // UNITS[_unit_of(default)])


def _kind(name: str, default: Any) -> str:
    if isinstance(default, bool):
        return "yes_no"
    if isinstance(default, int) and name.endswith("_seconds"):
        return "length"
    if isinstance(default, int) and name.endswith("_seat"):  # a seat id, chosen by player
        return "seat"
    if isinstance(default, int):
        return "number"
    if isinstance(default, str):
        return "text"
    return "json"


def _shown(default: Any) -> str:
    if isinstance(default, bool):
        return "yes" if default else "no"
    if isinstance(default, int | str):
        return str(default)
    return "" if default is None else json.dumps(default)


def _read(text: str, default: Any, name: str) -> Any:
    """A field's text as its option's type (the rules check the value itself)."""
    text = text.strip()
    field = f"option-{name}"
    if isinstance(default, bool):
        if text not in ("yes", "no"):
            raise BadRequest("request/invalid", f"{name}: yes or no", {"field": field})
        return text == "yes"
    if isinstance(default, int):
        if not (text.lstrip("-").isdigit() and text.isascii() and len(text) <= 18):
            raise BadRequest("request/invalid", f"{name}: a whole number", {"field": field})
        return int(text)
    if isinstance(default, str):
        return text
    if not text:
        return None
    try:  # a list or a number as JSON; "a, b, c" as a list; anything else as it is
        return canonical_json(text)
    except ValueError:
        if "," in text:
            return [_item(part.strip()) for part in text.split(",")]
        return text


def _item(text: str) -> Any:
    return int(text) if text.lstrip("-").isdigit() and text.isascii() and len(text) <= 18 else text
