"""What an operator sets in the environment, each setting read one way and checked
before anything starts: `referee serve`, `web` and `worker` refuse a bad one at once,
naming it (docs/deployment.md lists them). Each entry: the setting, the key it sets (in
the app's config, or the web server's Settings), and how its text is read."""

import ipaddress
import math
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

# this module imports nothing but the standard library: a server's parent process
# checks the settings before the processes that load the app are forked from it

UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
UNITS.update({"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40})


def size(value: int | str, name: str) -> int:
    """Bytes from a count or a size with its unit (`536870912`, `512MiB`, `1 GB`);
    ValueError naming the setting."""
    if isinstance(value, int) and value >= 0:
        return value
    text = str(value).strip().lower().replace(" ", "")
    number = text.rstrip("kmgtib")
    unit = text[len(number) :]
    try:
        count = float(number)
    except ValueError:
        count = -1.0
    if unit not in UNITS or not 0 <= count < 1 << 60:
        raise ValueError(f"{name}: {value!r} is not a size (bytes, or as 512MiB, 1GiB)")
    return int(count * UNITS[unit])


def switch(value: str, name: str) -> bool:
    """on/off, yes/no, true/false, 1/0; ValueError naming the setting."""
    said = value.strip().lower()
    if said not in ("on", "off", "yes", "no", "true", "false", "1", "0"):
        raise ValueError(f"{name}: {value!r} is neither on nor off")
    return said in ("on", "yes", "true", "1")


def floor_bytes(floor: int | str, total: int) -> int:
    """The disk floor in bytes: a size, or a share of the file system (`5%`)."""
    if isinstance(floor, str) and floor.strip().endswith("%"):
        share = float(floor.strip()[:-1])
        if not 0 <= share <= 100:
            raise ValueError(f"disk floor {floor!r}: a share between 0% and 100%")
        return int(total * share / 100)
    return size(floor, "disk floor")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def allow_entries(entries: str | Iterable[str] | None) -> tuple[list[Network], set[str]]:
    """The networks and host names of `10.0.0.0/8,hooks.internal` (or a list of such
    entries): the private targets notifications may reach on purpose."""
    if isinstance(entries, str) or entries is None:
        entries = (entries or "").split(",")
    networks, names = [], set()
    for entry in (e.strip() for e in entries):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            names.add(_host_name(entry))
    return networks, names


def _host_name(entry: str) -> str:
    name = entry.rstrip(".").lower()
    labels = name.split(".")
    if not all(label and len(label) < 64 and label.replace("-", "").isalnum() for label in labels):
        raise ValueError(f"NOTIFY_ALLOW: {entry!r} is neither a network nor a host name")
    return name


class SettingError(ValueError):
    """A setting whose text is not one it takes; says which, and what it takes."""

    def __init__(self, name: str, value: str, takes: str) -> None:
        super().__init__(f"{name}={value!r}: {takes}")
        self.name = name


Read = Callable[[str], Any]  # a setting's text to its value; ValueError saying what it takes


def number(kind: type, least: float, most: float = math.inf) -> Read:
    """An int or a float within [least, most]."""

    def read(text: str) -> Any:
        try:
            value = kind(text.strip())
        except ValueError:
            value = None
        if value is None or not least <= value <= most:
            bound = "" if most == math.inf else f" and at most {most:g}"
            whole = "whole " if kind is int else ""
            raise ValueError(f"a {whole}number of at least {least:g}{bound}")
        return value

    return read


def or_off(read: Read) -> Read:
    """`off` (also 0, none, no, false) for no limit, else what `read` takes."""

    def either(text: str) -> Any:
        if text.strip().lower() in ("off", "0", "none", "no", "false"):
            return None
        try:
            return read(text)
        except ValueError as exc:
            raise ValueError(f"{exc}, or off") from None

    return either


def on_off(text: str) -> bool:
    try:
        return switch(text, "")
    except ValueError:
        raise ValueError("on or off") from None


def bytes_(text: str) -> int:
    try:
        return size(text, "")
    except ValueError:
        raise ValueError("a size: bytes, or as 512MiB, 1GiB") from None


def floor(text: str) -> str:
    try:
        floor_bytes(text, 1 << 40)
    except ValueError:
        raise ValueError("a size (512MiB) or a share of the disk (5%)") from None
    return text


def allow_list(text: str) -> str:
    try:
        allow_entries(text)
    except ValueError as exc:
        said = str(exc).removeprefix("NOTIFY_ALLOW: ")
        raise ValueError(f"networks and host names, comma-separated ({said})") from None
    return text


def url(text: str) -> str | None:
    parts = urlsplit(text.strip())
    if not text.strip():
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("an http:// or https:// address, as https://referee.example.org")
    return text.strip()


def text_or_none(text: str) -> str | None:
    return text or None


def port(text: str) -> int:
    return number(int, 0, 65535)(text)


# setting -> (where its value goes, the config key or Settings field, how it is read)
APP, SERVER = "app", "server"
SETTINGS: dict[str, tuple[str, str, Read]] = {
    "REFEREE_DB": (APP, "REFEREE_DB", str),
    "REFEREE_OPERATOR_KEY": (APP, "OPERATOR_KEY", text_or_none),
    "REFEREE_SWEEP_SECONDS": (APP, "SWEEP_SECONDS", number(float, 0.01)),
    "REFEREE_VISIBILITY_TIMEOUT": (APP, "VISIBILITY_TIMEOUT", number(int, 1)),
    "REFEREE_ARMING_SECONDS": (APP, "ARMING_SECONDS", number(int, 1)),
    "REFEREE_BOT_RESEND_SECONDS": (APP, "BOT_RESEND_SECONDS", number(int, 1)),
    "REFEREE_BOT_ITERATIONS": (APP, "BOT_ITERATIONS", number(int, 0)),
    "REFEREE_RATE_LIMITS": (APP, "RATE_LIMITS", on_off),
    "REFEREE_NOTIFY_ALLOW": (APP, "NOTIFY_ALLOW", allow_list),
    "REFEREE_UPLOAD_TOTAL_BYTES": (APP, "UPLOAD_TOTAL_BYTES", bytes_),
    "REFEREE_UPLOAD_CLIENT_BYTES": (APP, "UPLOAD_CLIENT_BYTES", bytes_),
    "REFEREE_DISK_FLOOR": (APP, "DISK_FLOOR", floor),
    "REFEREE_PUBLIC_URL": (APP, "PUBLIC_URL", url),
    "REFEREE_STREAM_WAKE": (APP, "STREAM_WAKE", number(float, 0.01)),
    "REFEREE_STREAMS_PER_CLIENT": (APP, "STREAMS_PER_CLIENT", or_off(number(int, 1))),
    "REFEREE_PROXIES": (APP, "PROXIES", number(int, 0, 16)),
    # set by `referee serve` for its children when the broker is its own
    "REFEREE_EMBEDDED_BROKER": (APP, "EMBEDDED_BROKER", on_off),
    "REFEREE_HOST": (SERVER, "host", str),
    "REFEREE_PORT": (SERVER, "port", port),
    "REFEREE_CONNECTIONS_PER_CLIENT": (SERVER, "per_client", or_off(number(int, 1))),
    "REFEREE_BODY_SECONDS": (SERVER, "body_seconds", or_off(number(float, 0.1))),
    "REFEREE_BODY_RATE": (SERVER, "body_rate", bytes_),
}


def read(where: str, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The values of the settings given in the environment that go `where` (APP or
    SERVER), by key; SettingError for the first one given badly."""
    environ = os.environ if environ is None else environ
    values = {}
    for name, (goes, key, reader) in SETTINGS.items():
        if goes == where and name in environ:
            values[key] = value_of(name, environ[name], reader)
    return values


def value_of(name: str, text: str, reader: Read) -> Any:
    try:
        return reader(text)
    except ValueError as exc:
        raise SettingError(name, text, str(exc)) from None


def check(environ: Mapping[str, str] | None = None) -> None:
    """Every setting given, read; SettingError for the first one given badly."""
    read(APP, environ)
    read(SERVER, environ)
