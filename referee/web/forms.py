"""Fields of a whole-submission form (sealed orders), as a ruleset describes them.

A ruleset's `order_fields(view)` returns a list of fields, each a dict:

- `name`: the form field's name (unique in the form);
- `label`: what the player reads beside it;
- `kind`: `"choice"` (one of `choices`, or none when `optional`), `"choices"` (any number
  of `choices`, at most `max` when given), or `"number"` (an integer from `min` to `max`);
- `choices`: `[[value, text], ...]` for the two choice kinds (values are strings);
- `value`: what the form shows at first (a string, or a list of strings for `"choices"`);
- optional `help` (a sentence under the field), `group` (fields with the same group sit
  together under that heading), `optional` (a `"choice"` may be left empty), `min`, `max`.

The browser sends every field back as strings; the ruleset's `orders_from_form(form)`
turns `form` (name -> list of strings, as sent) into the `orders` object its command takes.
"""

from typing import Any

Field = dict[str, Any]
KINDS = ("choice", "choices", "number")


def check_fields(fields: list[Field]) -> list[Field]:
    """The fields as given, or ValueError naming the first one the page cannot draw."""
    names = set()
    for field in fields:
        if field.get("kind") not in KINDS:
            raise ValueError(f"field {field.get('name')!r}: kind must be one of {KINDS}")
        if field["name"] in names:
            raise ValueError(f"field {field['name']!r} appears twice")
        names.add(field["name"])
        if field["kind"] != "number" and not field.get("choices"):
            raise ValueError(f"field {field['name']!r} has no choices")
    return fields
