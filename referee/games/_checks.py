"""Checks every ruleset makes of what clients send: whole numbers, and option errors."""

from typing import Any, TypeGuard

from ..engine.errors import BadRequest


def is_int(value: Any) -> TypeGuard[int]:
    """An integer that is not a bool (JSON's true is not a 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def invalid(name: str, message: str, **details: Any) -> BadRequest:
    """The error for a bad option value, naming `options.<name>`."""
    return BadRequest("options/invalid", message, {"field": f"options.{name}", **details})
