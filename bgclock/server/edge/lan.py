"""Which address of this machine the tables' devices can reach.

A server bound to every interface (``--host 0.0.0.0``) has to print *one*
address in the director's URL, every table link and every QR code.  The
machine's host name is no help (Debian maps it to 127.0.1.1), so the choice
follows the routing table instead: the interface that carries the default
route is the one that faces the Wi-Fi router, and the phones.

``choose_address`` is pure: it takes the text of ``/proc/net/route`` and the
interfaces' IPv4 addresses, and returns every candidate with the one chosen.
``local_interfaces`` and ``find_lan_address`` read this machine (``ip -j addr``,
falling back to the interfaces' ``SIOCGIFADDR``; elsewhere than Linux, the
route the kernel picks for a UDP socket *connected* to a documentation address,
which sends nothing).  No packet leaves the machine.
"""

from __future__ import annotations

import ipaddress
import json
import shutil
import socket
import struct
import subprocess
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

#: RTF_UP in /proc/net/route's Flags column.
_RTF_UP: Final = 0x1
#: A TEST-NET-1 address (RFC 5737): never a real host. A UDP ``connect`` to it
#: only asks the kernel which route it would take.
_PROBE: Final = ("192.0.2.1", 9)


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """An IPv4 address of this machine that other devices might reach."""

    interface: str
    address: str
    #: The interface carries the default route.
    default_route: bool = False

    def describe(self) -> str:
        where = f"{self.address} ({self.interface}"
        return where + (", default route)" if self.default_route else ")")


@dataclass(frozen=True, slots=True, kw_only=True)
class LanChoice:
    """Every candidate, and the one to print (None: only loopback was found)."""

    candidates: tuple[Candidate, ...]
    chosen: Candidate | None


def default_route_interfaces(route_text: str) -> list[str]:
    """The interfaces of the default routes in ``/proc/net/route`` text, best
    (lowest metric) first.  Unreadable lines are skipped."""
    found: list[tuple[int, int, str]] = []
    lines = route_text.splitlines()
    for order, line in enumerate(lines[1:]):
        cols = line.split()
        if len(cols) < 8:
            continue
        name, destination, flags, metric, mask = cols[0], cols[1], cols[3], cols[6], cols[7]
        try:
            up = int(flags, 16) & _RTF_UP
            is_default = int(destination, 16) == 0 and int(mask, 16) == 0
            rank = int(metric)
        except ValueError:
            continue
        if up and is_default:
            found.append((rank, order, name))
    names: list[str] = []
    for _, _, name in sorted(found):
        if name not in names:
            names.append(name)
    return names


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast)


def choose_address(route_text: str, interfaces: Iterable[tuple[str, str]]) -> LanChoice:
    """The address to give devices: the first of the default-route interface
    (the lowest metric's), else the first private address, else any other
    non-loopback one; ``chosen`` is None when only loopback addresses exist.

    ``interfaces`` are (interface name, IPv4 address) pairs in the system's order.

    >>> route = ("Iface Destination Gateway Flags RefCnt Use Metric Mask\\n"
    ...          "wlan0 00000000 0101A8C0 0003 0 0 600 00000000\\n")
    >>> choose_address(route, [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"),
    ...                        ("wlan0", "192.168.1.23")]).chosen.address
    '192.168.1.23'
    """
    defaults = default_route_interfaces(route_text)
    candidates = tuple(
        Candidate(interface=name, address=address, default_route=name in defaults)
        for name, address in interfaces if _usable(address)
    )
    chosen: Candidate | None = None
    for name in defaults:
        chosen = next((c for c in candidates if c.interface == name), None)
        if chosen is not None:
            break
    if chosen is None:
        private = [c for c in candidates if ipaddress.IPv4Address(c.address).is_private
                   and not ipaddress.IPv4Address(c.address).is_link_local]
        fallback = private or list(candidates)
        chosen = fallback[0] if fallback else None
    return LanChoice(candidates=candidates, chosen=chosen)


# --------------------------------------------------------- reading the machine

def _from_ip_json(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for link in json.loads(text):
        for info in link.get("addr_info", []):
            if info.get("family") == "inet" and "local" in info:
                out.append((str(info.get("label") or link["ifname"]).split(":")[0],
                            str(info["local"])))
    return out


def _from_ioctl() -> list[tuple[str, str]]:
    import fcntl

    siocgifaddr = 0x8915
    out: list[tuple[str, str]] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            try:
                raw = fcntl.ioctl(s.fileno(), siocgifaddr,
                                  struct.pack("256s", name.encode()[:15]))
            except OSError:  # no IPv4 address on this interface
                continue
            out.append((name, socket.inet_ntoa(raw[20:24])))
    return out


def local_interfaces() -> list[tuple[str, str]]:
    """This machine's (interface, IPv4 address) pairs."""
    ip = shutil.which("ip")
    if ip is not None:
        try:
            done = subprocess.run([ip, "-j", "-4", "addr", "show"], capture_output=True,
                                  text=True, timeout=5, check=True)
            return _from_ip_json(done.stdout)
        except (OSError, subprocess.SubprocessError, ValueError, KeyError, TypeError):
            pass
    if sys.platform.startswith("linux"):
        try:
            return _from_ioctl()
        except OSError:
            pass
    return []


def _probe_route() -> list[tuple[str, str]]:
    """The source address the kernel would use toward the outside (no packet sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)
            address = str(s.getsockname()[0])
    except OSError:
        return []
    return [("system", address)]


def find_lan_address(route_file: Path = Path("/proc/net/route")) -> LanChoice:
    """This machine's candidates and the address to print."""
    try:
        route_text = route_file.read_text()
    except OSError:
        route_text = ""
    interfaces: Sequence[tuple[str, str]] = local_interfaces() if route_text else []
    if not route_text:
        # Not Linux: the probe's answer is the default route's address.
        probe = _probe_route()
        names = {address for _, address in probe}
        interfaces = [*probe]
        try:
            for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
                address = str(info[4][0])
                if address not in names:
                    names.add(address)
                    interfaces.append(("host name", address))
        except OSError:
            pass
        route_text = "Iface Destination Gateway Flags RefCnt Use Metric Mask\n" + (
            "default 00000000 00000000 0001 0 0 0 00000000\n" if probe else "")
    return choose_address(route_text, interfaces)
