"""Which addresses a webhook may reach: the operator's allow-list, checked on the addresses a
host name resolves to (at registration and again before every send), so that a name that
resolves to a private address cannot make the server call into a private network.

The allow-list (`CONCLAVE_WEBHOOK_ALLOW`) is comma-separated networks in CIDR notation and/or
the word `public` (any globally routable address, `ipaddress.is_global`); loopback only by
default. Every address a name resolves to must be allowed (a name with one private address
among public ones is refused), and the send then connects to one of exactly those addresses,
not to whatever a second resolution might say (no DNS rebinding between check and connect).
"""
from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from schema.service import Rejected

MAX_URL = 2000
RESOLVE_SECONDS = 5.0  # a registration (or a send) does not wait longer on a slow resolver


@dataclass(frozen=True)
class AllowList:
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
    public: bool = False

    @classmethod
    def parse(cls, text: str) -> "AllowList":
        """From the setting's text; a malformed entry fails the server's start, loudly."""
        networks, public = [], False
        for item in (part.strip() for part in text.split(",")):
            if not item:
                continue
            if item.lower() == "public":
                public = True
                continue
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"CONCLAVE_WEBHOOK_ALLOW: {item!r} is neither a network (CIDR) nor 'public'") from None
        return cls(tuple(networks), public)

    def allows(self, address: str) -> bool:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone id names no other address
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped  # ::ffff:10.0.0.1 is 10.0.0.1
        if any(ip in net for net in self.networks):
            return True
        return self.public and ip.is_global


@dataclass(frozen=True)
class Target:
    """A webhook URL taken apart, with the addresses its host resolved to (all allowed)."""

    url: str
    scheme: str
    host: str
    port: int
    path: str  # with its query
    addresses: tuple[str, ...] = ()

    def pinned_url(self, address: str) -> str:
        """The URL with the host replaced by one checked address (the Host header and TLS
        server name keep the original host)."""
        shown = f"[{address}]" if ":" in address else address
        return f"{self.scheme}://{shown}:{self.port}{self.path}"

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host if self.port == default else f"{host}:{self.port}"


def parse(url: str) -> Target:
    """An http(s) URL with a host and no credentials, else BAD_WEBHOOK_URL."""
    if not isinstance(url, str) or not url or len(url) > MAX_URL or any(ch <= " " for ch in url):
        raise Rejected("BAD_WEBHOOK_URL", f"a webhook URL is an http(s) URL of at most {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Rejected("BAD_WEBHOOK_URL", f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Rejected("BAD_WEBHOOK_URL", "a webhook URL must be http:// or https:// with a host")
    if parts.username is not None or parts.password is not None:
        raise Rejected("BAD_WEBHOOK_URL", "a webhook URL may not carry credentials (the signature authenticates)")
    if parts.fragment:
        raise Rejected("BAD_WEBHOOK_URL", "a webhook URL may not have a fragment")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(url=url, scheme=parts.scheme, host=parts.hostname,
                  port=port or (443 if parts.scheme == "https" else 80), path=path)


async def resolve(url: str, allow: AllowList) -> Target:
    """The URL's target with every address its host resolves to now, all allowed; else
    WEBHOOK_ADDRESS_REFUSED (or WEBHOOK_UNRESOLVABLE when the name resolves to nothing)."""
    target = parse(url)
    try:
        infos = await asyncio.wait_for(asyncio.get_running_loop().getaddrinfo(target.host, target.port,
                                                                              type=socket.SOCK_STREAM),
                                       RESOLVE_SECONDS)
    except asyncio.TimeoutError:
        raise Rejected("WEBHOOK_UNRESOLVABLE", f"the webhook's host {target.host!r} did not resolve within "
                                               f"{RESOLVE_SECONDS:g} s") from None
    except (socket.gaierror, UnicodeError) as exc:
        raise Rejected("WEBHOOK_UNRESOLVABLE", f"the webhook's host {target.host!r} does not resolve ({exc})") from None
    addresses = tuple(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise Rejected("WEBHOOK_UNRESOLVABLE", f"the webhook's host {target.host!r} does not resolve")
    refused = [a for a in addresses if not allow.allows(a)]
    if refused:
        raise Rejected("WEBHOOK_ADDRESS_REFUSED",
                       f"the webhook's host {target.host!r} resolves to an address this server may not call "
                       f"({refused[0]}); the operator allows only CONCLAVE_WEBHOOK_ALLOW")
    return Target(target.url, target.scheme, target.host, target.port, target.path, addresses)
