"""The new-game form: players, every option of the ruleset with its default and what it
means, and an optional seed, read back into what `create_game` takes."""

import json
from decimal import Decimal, InvalidOperation
from typing import Any

from werkzeug.datastructures import MultiDict

from ..api.bodies import canonical_json
from ..engine.errors import BadRequest, Forbidden

SEED_MOST = 200


class NewGame:
    """The form for one ruleset (its description from GET /rulesets/{id})."""

    def __init__(self, ruleset: dict[str, Any], *, operator_key: bool = False) -> None:
        self.ruleset = ruleset
        self.operator_key = operator_key
        self.players = [""] * ruleset["default_players"]
        self.options: dict[str, Any] = {}
        self.sent: dict[str, str] = {}
        self.seed: str | None = None
        self.clock: dict[str, Any] | None = None
        self.clock_sent = {"hours": "", "on_timeout": "wait", "extensions": "0"}
        self.key = ""

    def fields(self) -> list[dict[str, Any]]:
        """Each option as the page draws it: name, kind, default, text, value sent."""
        texts = self.ruleset.get("option_texts", {})
        return [
            {
                "name": name,
                "kind": _kind(default),
                "default": _shown(default),
                "text": texts.get(name, ""),
                "value": self.sent.get(name, _shown(default)),
            }
            for name, default in self.ruleset["options"].items()
        ]

    def read(self, form: MultiDict) -> None:
        """Players, options and seed from the form; BadRequest naming the first bad field."""
        self.players = [name.strip() for name in form.getlist("player") if name.strip()]
        self.sent = {name: form.get(f"option-{name}", "") for name in self.ruleset["options"]}
        self.options = {
            name: _read(text, self.ruleset["options"][name], name)
            for name, text in self.sent.items()
            if text.strip() and text.strip() != _shown(self.ruleset["options"][name])
        }
        seed = form.get("seed", "").strip()
        if len(seed) > SEED_MOST:
            raise BadRequest(
                "request/invalid", f"seed: at most {SEED_MOST} characters", {"field": "seed"}
            )
        self.seed = seed or None
        self.key = form.get("operator_key", "")
        if self.ruleset.get("clock"):
            self.clock_sent = {name: form.get(f"clock-{name}", "").strip() for name in CLOCK_FIELDS}
            self.clock = clock_from(self.clock_sent)

    def check_operator(self, key: str | None) -> None:
        """When the host set an operator key, the form must carry it."""
        if key and self.key != key:
            raise Forbidden("auth/operator_key", "this host's operator key is needed", {})


CLOCK_FIELDS = ("hours", "on_timeout", "extensions")
HOURS_MOST = 720


def clock_from(sent: dict[str, str]) -> dict[str, Any] | None:
    """The clock the form asks for: none when the time limit is left empty; hours may
    have a fraction (0.5 is 30 minutes)."""
    hours = sent.get("hours", "")
    if not hours:
        return None
    try:
        seconds = round(Decimal(hours) * 3600)
    except (InvalidOperation, ValueError):
        seconds = -1
    if not hours.isascii() or len(hours) > 12 or not 60 <= seconds <= HOURS_MOST * 3600:
        raise BadRequest(
            "request/invalid",
            f"time limit per move: a number of hours, from 1 minute (0.02) to {HOURS_MOST}",
            {"field": "clock-hours"},
        )
    extensions = sent.get("extensions") or "0"
    if not (extensions.isascii() and extensions.isdigit() and len(extensions) <= 2):
        raise BadRequest(
            "request/invalid", "extensions: a whole number", {"field": "clock-extensions"}
        )
    on_timeout = sent.get("on_timeout") or "wait"
    return {"seconds": seconds, "on_timeout": on_timeout, "extensions": int(extensions)}


def _kind(default: Any) -> str:
    if isinstance(default, bool):
        return "yes_no"
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
