"""The address printed in the director's URL, every table link and QR code when
the server listens on every interface (``--host 0.0.0.0``).

The choice itself is a pure function of the routing table and the interfaces;
the last test runs the real command in a network namespace of its own, with
a veth pair and a default route, and all its traffic stays on that pair.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bgclock.server.edge.lan import choose_address, default_route_interfaces
from tests._serve_proc import start
from tests._server_kit import free_port

HEADER = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT"


def route(*rows: tuple[str, str, str, int, str]) -> str:
    """/proc/net/route text: (iface, destination, flags, metric, mask) rows."""
    lines = [HEADER]
    for name, dest, flags, metric, mask in rows:
        lines.append(f"{name}\t{dest}\t0101A8C0\t{flags}\t0\t0\t{metric}\t{mask}\t0\t0\t0")
    return "\n".join(lines) + "\n"


LAPTOP = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlp2s0", "192.168.1.23")]


def test_the_default_route_interface_is_chosen() -> None:
    table = route(("docker0", "000011AC", "0001", 0, "0000FFFF"),
                  ("wlp2s0", "00000000", "0003", 600, "00000000"),
                  ("wlp2s0", "0001A8C0", "0001", 600, "00FFFFFF"))
    choice = choose_address(table, LAPTOP)
    assert choice.chosen is not None and choice.chosen.address == "192.168.1.23"
    # every other address is listed, loopback is not
    assert [c.address for c in choice.candidates] == ["172.17.0.1", "192.168.1.23"]
    assert [c.default_route for c in choice.candidates] == [False, True]


def test_the_lowest_metric_default_route_wins() -> None:
    table = route(("wlp2s0", "00000000", "0003", 600, "00000000"),
                  ("enp0s31f6", "00000000", "0003", 100, "00000000"))
    assert default_route_interfaces(table) == ["enp0s31f6", "wlp2s0"]
    choice = choose_address(table, [*LAPTOP, ("enp0s31f6", "10.0.0.5")])
    assert choice.chosen is not None and choice.chosen.interface == "enp0s31f6"


def test_a_route_that_is_down_is_not_the_default() -> None:
    table = route(("wlp2s0", "00000000", "0002", 600, "00000000"))
    assert default_route_interfaces(table) == []


def test_without_a_default_route_a_private_address_is_chosen() -> None:
    # A router with no uplink: no default route, the Wi-Fi address still works.
    interfaces = [("lo", "127.0.0.1"), ("eth9", "169.254.3.4"), ("wlan0", "192.168.0.7")]
    choice = choose_address(route(), interfaces)
    assert choice.chosen is not None and choice.chosen.address == "192.168.0.7"


def test_only_loopback_chooses_nothing() -> None:
    choice = choose_address(route(), [("lo", "127.0.0.1"), ("lo", "127.0.1.1")])
    assert choice.chosen is None and choice.candidates == ()


def test_garbled_route_lines_are_skipped() -> None:
    text = HEADER + "\nnonsense\nwlan0\tZZ\t0\tXX\t0\t0\t0\t00000000\n"
    assert default_route_interfaces(text) == []
    assert default_route_interfaces("") == []


# ------------------------------------------------------- a real interface

def _ip(*args: str, ns: str | None = None, check: bool = True) -> None:
    cmd = ["ip", *(["netns", "exec", ns, "ip"] if ns else []), *args]
    subprocess.run(cmd, check=check, capture_output=True, timeout=30)


@contextlib.contextmanager
def namespace() -> Iterator[tuple[str, str, str]]:
    """A network namespace reached from here over a veth pair 10.200.N.1 <->
    10.200.N.2 (its default route via 10.200.N.1), plus a second interface
    10.201.N.1 inside it: (namespace, its default-route address, the other)."""
    tag = secrets.token_hex(3)
    ns, here, there = f"bgclock-{tag}", f"bgh{tag}", f"bgn{tag}"
    n = 1 + secrets.randbelow(250)
    near, far, other = f"10.200.{n}.1", f"10.200.{n}.2", f"10.201.{n}.1"
    try:
        _ip("netns", "add", ns)
        _ip("link", "add", here, "type", "veth", "peer", "name", there)
        _ip("link", "set", there, "netns", ns)
        _ip("addr", "add", f"{near}/24", "dev", here)
        _ip("link", "set", here, "up")
        _ip("link", "set", "lo", "up", ns=ns)
        _ip("addr", "add", f"{far}/24", "dev", there, ns=ns)
        _ip("link", "set", there, "up", ns=ns)
        _ip("route", "add", "default", "via", near, ns=ns)
        # a second interface (as docker0 or a VPN would be): listed, not chosen
        _ip("link", "add", f"bgx{tag}", "type", "veth", "peer", "name", f"bgy{tag}", ns=ns)
        _ip("addr", "add", f"{other}/24", "dev", f"bgx{tag}", ns=ns)
        _ip("link", "set", f"bgx{tag}", "up", ns=ns)
        _ip("link", "set", f"bgy{tag}", "up", ns=ns)
        yield ns, far, other
    finally:
        _ip("netns", "del", ns, check=False)
        _ip("link", "del", here, check=False)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="network namespaces need root")
@pytest.mark.skipif(shutil.which("ip") is None, reason="iproute2's ip is missing")
def test_links_carry_the_lan_address_in_a_namespace(tmp_path: Path) -> None:
    port = free_port()
    with namespace() as (ns, lan, other):
        serving = start(["--host", "0.0.0.0", "--port", str(port), "--db",
                         str(tmp_path / "t.db")], prefix=["ip", "netns", "exec", ns])
        try:
            listed = next(x for x in serving.lines if x.startswith("Addresses of this machine"))
            assert f"{lan} (bgn" in listed and "default route" in listed
            assert other in listed and "127.0.0.1" not in listed
            assert serving.director_url.startswith(f"http://{lan}:{port}/director?key=")
            # the director, from outside the namespace, over the veth pair
            auth = {"Authorization": f"Bearer {serving.key}"}
            with httpx.Client(base_url=f"http://{lan}:{port}", headers=auth, timeout=10,
                              trust_env=False) as http:
                t = http.post("/api/tournaments", json={"name": "LAN night"}).json()
                table = http.post(f"/api/tournaments/{t['id']}/tables",
                                  json={"rules": "usbgf-2013-delay", "length": 5}).json()
                assert table["url"].startswith(f"http://{lan}:{port}/t/{table['id']}?token=")
                listing = http.get(f"/api/tournaments/{t['id']}").json()
                assert listing["tables"][0]["url"] == table["url"]
                assert http.get(f"/api/tables/{table['id']}/qr.svg").status_code == 200
                # the phone's view: the table's link opens its page
                page = http.get(table["url"].removeprefix(f"http://{lan}:{port}"))
                assert page.status_code == 200
        finally:
            serving.stop()


@pytest.mark.skipif(not Path("/proc/net/route").exists(), reason="Linux only")
def test_both_ways_of_reading_the_interfaces_agree() -> None:
    from bgclock.server.edge.lan import _from_ioctl, local_interfaces

    if shutil.which("ip") is None:
        pytest.skip("iproute2's ip is missing")
    # ``ip`` lists every address of an interface, the ioctl its first
    firsts = {name: address for name, address in reversed(local_interfaces())}
    assert set(_from_ioctl()) <= set(local_interfaces())
    assert {name: address for name, address in _from_ioctl()}.items() <= firsts.items()


def test_without_proc_the_kernels_route_choice_is_used(tmp_path: Path) -> None:
    from bgclock.server.edge.lan import find_lan_address, local_interfaces

    choice = find_lan_address(tmp_path / "no-route-file")
    if shutil.which("ip") is not None and choice.chosen is not None:
        assert choice.chosen.address in {a for _, a in local_interfaces()}
    assert all(not c.address.startswith("127.") for c in choice.candidates)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="network namespaces need root")
@pytest.mark.skipif(shutil.which("ip") is None, reason="iproute2's ip is missing")
def test_only_loopback_is_said_loudly(tmp_path: Path) -> None:
    ns = f"bgclock-{secrets.token_hex(3)}"
    try:
        _ip("netns", "add", ns)
        _ip("link", "set", "lo", "up", ns=ns)
        serving = start(["--host", "0.0.0.0", "--port", str(free_port()), "--db",
                         str(tmp_path / "t.db")], prefix=["ip", "netns", "exec", ns])
        err = serving.stop()
    finally:
        _ip("netns", "del", ns, check=False)
    assert serving.director_url.startswith("http://127.0.0.1:")
    warning = [line for line in err.splitlines() if "WARNING" in line]
    assert len(warning) == 1 and "--public-url" in warning[0], err
