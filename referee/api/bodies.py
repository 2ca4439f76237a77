"""JSON request bodies: only what the canonical form of the log can hold, else a 400."""

import json
from typing import Any

from flask import Request
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

from ..engine.canonical import canonical_json


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
