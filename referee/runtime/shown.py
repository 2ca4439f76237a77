"""Addresses as output may show them (banners, logs, errors, reports): a store's or a
broker's URL without its password, wherever the URL carries it (before the host, or as
a `password=` parameter of libpq's); the rest as it was written."""

import re

MASK = "***"
# scheme://user:password@ : the password is what lies between the first ':' after the
# scheme's '//' and the last '@' before the path
USERINFO = re.compile(r"^(?P<head>[a-zA-Z][a-zA-Z0-9+.-]*://[^:/@?#]*:)(?P<password>[^/?#]*)@")
PARAMETER = re.compile(r"(?i)(?P<head>[?&]password=)(?P<password>[^&#]*)")


def url(address: str) -> str:
    """`address` with any password in it masked."""
    masked = USERINFO.sub(lambda m: f"{m['head']}{MASK}@", address, count=1)
    return PARAMETER.sub(lambda m: f"{m['head']}{MASK}", masked)
