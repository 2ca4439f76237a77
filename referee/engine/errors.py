"""Errors with codes; each class carries the HTTP status a shell answers with."""

from typing import Any


class RefereeError(Exception):
    """Base of every error a client can cause; `code` is namespaced (`rule/...`)."""

    status = 400
    default_code = "request/invalid"

    def __init__(self, code: str | None, message: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code or self.default_code
        self.message = message
        self.details = details or {}

    def to_dict(self) -> dict[str, Any]:
        """The JSON body every shell returns for this error."""
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


class BadRequest(RefereeError):
    """The request is malformed: a field is missing, of the wrong type or out of range."""

    status = 400


class Unauthorized(RefereeError):
    """No valid token was presented."""

    status = 401
    default_code = "auth/unauthorized"


class Forbidden(RefereeError):
    """The token is valid but may not do this."""

    status = 403
    default_code = "auth/forbidden"


class NotFound(RefereeError):
    """No such game, ruleset or resource."""

    status = 404
    default_code = "not_found"


class Conflict(RefereeError):
    """The game moved on since the version the client saw."""

    status = 409
    default_code = "store/version_conflict"


class RuleViolation(RefereeError):
    """Well-formed, but the rules do not allow it now."""

    status = 422
    default_code = "rule/violation"


class TooLarge(RefereeError):
    """More than the host takes in one request (bytes, events)."""

    status = 413
    default_code = "request/too_large"


class TooSlow(RefereeError):
    """The request's body did not arrive in the time the server gives it."""

    status = 408
    default_code = "request/body_timeout"


class Busy(RefereeError):
    """The store could not take the write in time (another writer holds it): nothing was
    written; the client may send the same request again after `retry_after` seconds."""

    status = 503
    default_code = "store/busy"
    retry_after = 1


class TooMany(RefereeError):
    """The client holds as many of something as the host allows it at once (live
    streams): nothing was opened; it may try again after `retry_after` seconds."""

    status = 429
    default_code = "rate/too_many"
    retry_after = 15


class StoreFull(RefereeError):
    """The disk that holds the store is full: nothing was written; the same request
    succeeds once the operator has freed space."""

    status = 507
    default_code = "store/full"


class StoreUnavailable(RefereeError):
    """The store cannot be written (read-only, its file gone or unopenable, an I/O
    error): nothing was written; the client may send again after `retry_after` seconds."""

    status = 503
    default_code = "store/unavailable"
    retry_after = 10
