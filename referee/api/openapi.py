"""What the OpenAPI document says beyond the marshmallow schemas: the rules the API
enforces on bodies, so a client (or a fuzzer) built from the document sends what the
referee takes. Numbers in a body are integers (the log holds no fractions); a name is
printable text; a command is one of the shapes the rulesets list (GET /rulesets/{id}
says which a game takes)."""

from typing import Any

from apispec import APISpec

from schemas import BotSeatSchema

from ..engine import game, registry
from ..engine.names import BIDI_CONTROLS, NAME_LIMIT

JSON_VALUE = {"$ref": "#/components/schemas/IntegerJson"}
# any JSON value whose numbers are integers, to any depth
INTEGER_JSON = {
    "description": "any JSON value in which every number is an integer",
    "nullable": True,
    "anyOf": [
        {"type": "string"},
        {"type": "integer"},
        {"type": "boolean"},
        {"type": "array", "items": JSON_VALUE},
        {"type": "object", "additionalProperties": JSON_VALUE},
    ],
}
_REFUSED = "\\x00-\\x1f\\x7f-\\x9f\\u2028\\u2029" + "".join(
    f"\\u{ord(char):04x}" for char in sorted(BIDI_CONTROLS)
)
# printable, and more than white space (referee.engine.names.name_problem)
NAME_PATTERN = f"^[^{_REFUSED}]*[^\\s{_REFUSED}][^{_REFUSED}]*$"
TYPES = {"integer": {"type": "integer"}, "string": {"type": "string"}}


def document(spec: APISpec) -> None:
    """Add the rules to a spec whose paths are registered."""
    schemas = spec.components.schemas
    spec.components.schema("IntegerJson", INTEGER_JSON)
    spec.components.schema("BotSeat", schema=BotSeatSchema)
    schemas["BotSeat"]["properties"]["name"]["pattern"] = NAME_PATTERN
    schemas["GameCreate"]["properties"]["players"]["items"] = {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": NAME_LIMIT, "pattern": NAME_PATTERN},
            {"$ref": "#/components/schemas/BotSeat"},
        ]
    }
    schemas["GameCreate"]["properties"]["options"]["additionalProperties"] = JSON_VALUE
    schemas["DisputeCreate"]["properties"]["amendment"]["additionalProperties"] = JSON_VALUE
    version = schemas["Command"]["properties"]["expected_version"]
    schemas["Command"] = {
        "description": "One of the commands the rulesets take, with exactly its fields; "
        "GET /rulesets/{id} lists those a game of that ruleset takes.",
        "oneOf": [_shape(kind, shape, version) for kind, shape in command_shapes()],
    }


def command_shapes() -> list[tuple[str, dict[str, Any]]]:
    """Every (command type, shape) some ruleset takes, each distinct shape once."""
    found: list[tuple[str, dict[str, Any]]] = []
    for ruleset in registry.names():
        seats, moderating = game.command_shapes(registry.get(ruleset))
        for kind, shape in {**seats, **moderating}.items():
            if (kind, shape) not in found:
                found.append((kind, shape))
    return sorted(found, key=lambda pair: pair[0])


def _shape(kind: str, shape: dict[str, Any], version: dict[str, Any]) -> dict[str, Any]:
    fields = shape.get("fields", {})
    properties = {name: _field(name, field) for name, field in fields.items()}
    return {
        "type": "object",
        "title": kind,
        "description": shape.get("description", ""),
        "properties": {
            "type": {"type": "string", "enum": [kind]},
            **properties,
            "expected_version": version,
        },
        "required": ["type", *fields],
        "additionalProperties": False,
    }


def _field(name: str, field: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(field, str):
        field = TYPES.get(field, {"type": field})
    field = dict(field)
    if field.get("type") == "object":
        field["additionalProperties"] = JSON_VALUE
    if field.get("type") == "array":
        field["items"] = _field(name, field.get("items", {}))
    if name == "name":
        field["pattern"] = NAME_PATTERN
    return field
