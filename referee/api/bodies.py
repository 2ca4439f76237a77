"""JSON request bodies: only what the canonical form of the log can hold, else a 400."""

import json
from typing import Any

from flask import Request
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

from ..engine.canonical import MAX_DEPTH, canonical, depth


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _refuse_float(text: str) -> Any:
    raise ValueError(f"{text}: numbers must be integers (the log holds no fractions)")


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are all different (which of two values counts is not JSON's
    to say, and the log must hold what the sender meant)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def canonical_json(text: str) -> Any:
    """JSON text as the log can hold it: ValueError naming what is wrong otherwise (a
    fraction, NaN, a key twice, nesting deeper than MAX_DEPTH, a lone surrogate)."""
    try:
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_float=_refuse_float,
            object_pairs_hook=_refuse_duplicates,
        )
        if depth(value) > MAX_DEPTH:
            raise ValueError(f"JSON nested deeper than {MAX_DEPTH}")
        canonical(value)  # lone surrogates cannot be encoded as UTF-8
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH}") from None
    return value


class CanonicalJsonParser(FlaskParser):
    """webargs' parser, refusing fractions, NaN and Infinity, lone surrogates, integers
    past Python's digit limit, nesting deeper than MAX_DEPTH (each a 500 further in) and
    a key twice in one object."""

    def _raw_load_json(self, req: Request) -> Any:
        if not is_json_request(req):
            return core.missing
        try:
            value = canonical_json(req.get_data(cache=True).decode("utf-8"))
        except json.JSONDecodeError:
            raise  # webargs counts an empty body as missing, anything else as invalid
        except (ValueError, RecursionError) as exc:
            self._handle_invalid_json_error(exc, req)  # type: ignore[arg-type]
        return value

    def _process_location_data(
        self,
        location_data: Any,
        schema: Any,
        req: Request,
        location: str,
        unknown: str | None,
        validators: Any,
    ) -> Any:
        """A body its schema finds plainly valid (`plain`, where it has one) as it is;
        any other through marshmallow, which says what is wrong."""
        plain = getattr(schema, "plain", None)
        if plain is not None and not validators:
            loaded = plain(location_data)
            if loaded is not None:
                return loaded
        return super()._process_location_data(
            location_data, schema, req, location, unknown, validators
        )

    def _handle_invalid_json_error(self, error: Exception, req: Request, *args: Any, **kwargs: Any):
        """A 400 that says what is wrong with the body."""
        abort(400, messages={"json": [f"Invalid JSON body: {error}"]}, exc=error)
