"""What a notification may reach (docs/notifications.md, "What a subscription may reach").

A target's host is resolved as the sender's socket resolves it (getaddrinfo) and every
address it yields must be public, or admitted by the operator's allow-list: when it is
subscribed, and again at each delivery on the very address connected to, so a name that
resolves elsewhere by then (DNS rebinding) is refused at connect. Webhooks connect
through `GuardedHTTPPool`, which resolves, checks and connects to the checked address
(the Host header and the TLS server name stay the URL's); a connection kept open for
later deliveries is checked again, on the address it reached, before each one. Apprise's
plugins connect as they like (requests, smtplib, raw sockets), so the socket module
itself checks every resolution and connection made while `guarded()` is in force: in
the sending thread and in the threads Apprise hands a send to, which carry its context.
"""

import contextvars
import ipaddress
import os
import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import apprise
import certifi
from urllib3 import PoolManager
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError
from urllib3.util import parse_url

from ..engine.errors import BadRequest
from ..ops.settings import allow_entries

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# the resolver every check uses and every resolution goes through (tests put their own)
resolve: Callable[..., list[tuple[Any, ...]]] = socket.getaddrinfo
# NAT64 carries an IPv4 address in its last 32 bits: judged by that address
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
# Apprise plugins that act on the referee's own machine (its syslog, desktop, USB light)
# or connect from threads of their own, out of the guard's sight
LOCAL_SCHEMES = frozenset(
    "syslog dbus kde qt glib gio gnome macosx windows blink1 xmpp xmpps mqtt mqtts".split()
)


class Refused(OSError):
    """A target this send may not reach."""


@dataclass(frozen=True)
class AllowList:
    """The private targets an operator admits on purpose: networks and host names."""

    networks: tuple[Network, ...] = ()
    names: frozenset[str] = frozenset()

    @classmethod
    def parse(cls, entries: str | Iterable[str] | None) -> "AllowList":
        """From `10.0.0.0/8,hooks.internal` (or a list of such entries)."""
        networks, names = allow_entries(entries)
        return cls(tuple(networks), frozenset(names))

    def admits(self, address: Address) -> bool:
        """A public address, or one in an allowed network."""
        plain = _unmapped(address)
        return is_public(address) or any(plain in net for net in self.networks)

    def admits_name(self, host: str) -> bool:
        return host.strip("[]").rstrip(".").lower() in self.names


def _unmapped(address: Address) -> Address:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def is_public(address: Address) -> bool:
    """An ordinary public unicast address: not loopback, private, shared (CGNAT),
    link-local, multicast, unspecified, reserved or documentation, in any of its forms."""
    address = _unmapped(address)
    if isinstance(address, ipaddress.IPv6Address):
        if any(address in net for net in NAT64):
            return is_public(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour and not is_public(address.sixtofour):
            return False
        if address.is_site_local:
            return False
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or address.is_loopback
        or address.is_link_local
        or address.is_unspecified
        or address.is_private
    )


@dataclass
class _Reach:
    """What one send may reach: the allow-list, and the addresses its allowed names
    resolved to during the send."""

    allow: AllowList
    named: set[Address] = field(default_factory=set)

    def admits(self, address: Address) -> bool:
        return address in self.named or self.allow.admits(address)


_in_force: contextvars.ContextVar[_Reach | None] = contextvars.ContextVar("reach", default=None)


@contextmanager
def guarded(allow: AllowList) -> Iterator[None]:
    """While in force, every resolution and connection of this context reaches only
    what `allow` admits."""
    token = _in_force.set(_Reach(allow))
    try:
        yield
    finally:
        _in_force.reset(token)


def reachable(
    host: str | None,
    port: int | str | None,
    allow: AllowList | None = None,
    family: int = 0,
    type: int = 0,  # getaddrinfo's own name
    proto: int = 0,
    flags: int = 0,
) -> list[tuple[Any, ...]]:
    """What getaddrinfo says of the host, if every address is one this send (or `allow`)
    may reach; raises Refused otherwise, or gaierror if it does not resolve."""
    reach = _Reach(allow) if allow is not None else _in_force.get() or _Reach(AllowList())
    found = resolve(host.strip("[]") if host else host, port, family, type, proto, flags)
    addresses = [ipaddress.ip_address(info[4][0]) for info in found]
    if host and reach.allow.admits_name(host):
        reach.named.update(addresses)
        return found
    refused = [a for a in addresses if not reach.admits(a)]
    if refused or not addresses:
        raise Refused(f"{host} resolves to {refused[0] if refused else 'nothing'}: not public")
    return found


# --- at subscription ---------------------------------------------------------------


def check_target(kind: str, url: str, allow: AllowList) -> None:
    """Refuse (400, naming `url`) a target that is malformed or whose host does not
    resolve to addresses this referee may reach."""
    try:
        hosts = webhook_hosts(url) if kind == "webhook" else apprise_hosts(url)
    except ValueError as refused:
        raise BadRequest("subscription/invalid", str(refused), {"field": "url"}) from None
    not_public = BadRequest(
        "subscription/not_public",
        "the URL's host does not resolve to a public address (the operator may allow others)",
        {"field": "url"},
    )
    for host, port in hosts:
        try:
            reachable(host, port, allow, type=socket.SOCK_STREAM)
        except socket.gaierror:
            if kind == "webhook":  # no address at all: nothing to post to
                raise not_public from None
        except (OSError, ValueError):  # refused, or a name no resolver takes
            raise not_public from None


def webhook_hosts(url: str) -> list[tuple[str, int]]:
    """The host a webhook URL posts to, read as requests reads it."""
    if not url.startswith(("http://", "https://")):
        raise ValueError("a webhook URL is http:// or https://")
    parsed = parse_url(url)  # raises LocationParseError, a ValueError
    if not parsed.host:
        raise ValueError("a webhook URL names a host")
    return [(parsed.host, parsed.port or (443 if parsed.scheme == "https" else 80))]


def apprise_hosts(url: str) -> list[tuple[str, int]]:
    """The server an Apprise URL names (json://host, mailto's mail server); none for a
    service with servers of its own (discord://, tgram://), checked as it connects."""
    plugin = apprise.Apprise.instantiate(url)
    if plugin is None:
        raise ValueError("Apprise does not know this URL")
    scheme = url.split("://", 1)[0].lower()
    if scheme in LOCAL_SCHEMES:
        raise ValueError(f"{scheme}:// acts on the referee's own machine: not offered")
    named = plugin.host if "host" in plugin.template_tokens else None
    server = getattr(plugin, "smtp_host", None) or named  # an e-mail's host is its domain
    return [(server, plugin.port or 0)] if server else []


def check_apprise(url: str) -> None:
    """Before Apprise sends: raises Refused if the server its URL names resolves to an
    address this send may not reach. A name that does not resolve may be no server at
    all (mailgun://user@domain names the sender's domain); Apprise's connections are
    checked anyway."""
    for host, port in apprise_hosts(url):
        try:
            reachable(host, port, type=socket.SOCK_STREAM)
        except socket.gaierror:
            pass


# --- webhooks: the check in the connection ------------------------------------------


def _pinned(connection: HTTPConnection, connect: Callable[[], socket.socket]) -> socket.socket:
    """Connect to each address the connection's host resolves to, every one checked
    before the first is tried; no second resolution can differ."""
    name = connection._dns_host
    try:
        found = reachable(name, connection.port, type=socket.SOCK_STREAM)
    except (OSError, ValueError) as refused:
        raise NewConnectionError(connection, f"not reached: {refused}") from refused
    error: Exception = NewConnectionError(connection, "no address")
    for address in dict.fromkeys(info[4][0] for info in found):
        connection._dns_host = address
        try:
            return connect()
        except (NewConnectionError, ConnectTimeoutError) as failed:
            error = failed
        finally:
            connection._dns_host = name
    raise error


class GuardedHTTPConnection(HTTPConnection):
    def _new_conn(self) -> socket.socket:
        return _pinned(self, super()._new_conn)


class GuardedHTTPSConnection(HTTPSConnection):
    def _new_conn(self) -> socket.socket:
        return _pinned(self, super()._new_conn)


def _kept(connection: Any) -> Any:
    """A connection taken from the pool, closed (so that it connects again, through the
    check) unless the address it reached is one the send in force admits: a kept
    connection may have been opened by another send, under another allow-list."""
    if connection.sock is None:
        return connection
    reach = _in_force.get() or _Reach(AllowList())
    try:
        peer = ipaddress.ip_address(connection.sock.getpeername()[0])
    except (OSError, ValueError):
        connection.close()
        return connection
    if not (reach.allow.admits_name(connection._dns_host) or reach.admits(peer)):
        connection.close()
    return connection


class GuardedHTTPPool(HTTPConnectionPool):
    ConnectionCls = GuardedHTTPConnection

    def _get_conn(self, timeout: float | None = None) -> Any:
        return _kept(super()._get_conn(timeout))


class GuardedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = GuardedHTTPSConnection

    def _get_conn(self, timeout: float | None = None) -> Any:
        return _kept(super()._get_conn(timeout))


def webhook_pool(*, connections: int = 1, targets: int = 10) -> PoolManager:
    """urllib3's pools, connecting only through the guard and straight to the target
    (urllib3 reads no proxy from the environment, which would resolve the target out of
    the guard's sight, and keeps no cookie), checking certificates against certifi's
    authorities as requests did; up to `connections` kept open to each of the last
    `targets` targets."""
    pools = PoolManager(num_pools=targets, maxsize=connections, ca_certs=certifi.where())
    pools.pool_classes_by_scheme = {  # type: ignore[assignment]
        "http": GuardedHTTPPool,
        "https": GuardedHTTPSPool,
    }
    return pools


_kept_pools: dict[int, PoolManager] = {}
_kept_pools_lock = threading.Lock()


def kept_pool(*, connections: int, targets: int) -> PoolManager:
    """This process's webhook pools, shared by its senders, so that one connection to a
    target (its TCP and TLS handshakes) serves many deliveries; a forked process starts
    its own."""
    with _kept_pools_lock:
        pid = os.getpid()
        if pid not in _kept_pools:
            _kept_pools.clear()
            _kept_pools[pid] = webhook_pool(connections=connections, targets=targets)
        return _kept_pools[pid]


# --- everything else: the socket module itself, while a send is in force -------------

_plain_connect = socket.socket.connect
_plain_connect_ex = socket.socket.connect_ex
_plain_sendto = socket.socket.sendto


def _getaddrinfo(
    host: Any,
    port: Any,
    family: int = 0,
    type: int = 0,  # getaddrinfo's own name
    proto: int = 0,
    flags: int = 0,
) -> list[tuple[Any, ...]]:
    if _in_force.get() is None:
        return resolve(host, port, family, type, proto, flags)
    name = host.decode("idna") if isinstance(host, bytes) else host
    return reachable(name, port, None, family, type, proto, flags)


def _checked(sock: socket.socket, address: Any) -> Any:
    """The address to connect or send to: as given when it may be reached, or the checked
    address of a name; raises Refused otherwise."""
    if _in_force.get() is None:
        return address
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        raise Refused("only internet addresses may be reached")
    found = reachable(address[0], address[1], None, sock.family, sock.type)
    try:
        ipaddress.ip_address(address[0])
        return address
    except ValueError:  # a name: the address it was checked at, not a second resolution
        return found[0][4]


def _connect(sock: socket.socket, address: Any) -> None:
    return _plain_connect(sock, _checked(sock, address))


def _connect_ex(sock: socket.socket, address: Any) -> int:
    return _plain_connect_ex(sock, _checked(sock, address))


def _sendto(sock: socket.socket, data: Any, *rest: Any) -> int:
    if len(rest) == 1:  # sendto(data, address) or sendto(data, flags, address)
        return _plain_sendto(sock, data, _checked(sock, rest[0]))
    return _plain_sendto(sock, data, rest[0], _checked(sock, rest[1]))


def install() -> None:
    """Have the socket module check what a guarded send resolves and connects to; other
    threads and contexts pass straight through. Once per process, at import, so that
    whatever wraps the socket module later (a test's fence) wraps the guard too."""
    if socket.getaddrinfo is _getaddrinfo:
        return
    setattr(socket, "getaddrinfo", _getaddrinfo)  # noqa: B010 - mypy: a module's function
    for name, checked in (("connect", _connect), ("connect_ex", _connect_ex), ("sendto", _sendto)):
        setattr(socket.socket, name, checked)


install()
