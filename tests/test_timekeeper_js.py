"""The table page's timekeeper module (``timekeeper.js``) run by node: the
device's short name and what the table's info says of this device's claim
(docs/pages.md "The timekeeper")."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest

from tests.conftest import ROOT

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is missing")
MODULE = ROOT / "bgclock" / "web" / "static" / "timekeeper.js"

ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/126.0 Mobile Safari/537.36")
IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
          "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


def _run(calls: list[tuple[str, list[Any]]]) -> list[Any]:
    """Each ``(function, args)`` of the module, called in node."""
    script = (
        f"const m = await import({json.dumps(MODULE.as_uri())});"
        f"const calls = {json.dumps(calls)};"
        "console.log(JSON.stringify(calls.map(([f, args]) => m[f](...args))));")
    assert NODE is not None
    out = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True,
                         text=True, check=True, timeout=30).stdout
    return list(json.loads(out))


def test_a_devices_short_name_is_its_browser_and_the_end_of_its_id() -> None:
    names = _run([("deviceName", ["d-0011223344556677", ANDROID]),
                  ("deviceName", ["d-89abcdef", IPHONE]),
                  ("deviceName", ["d-1234", FIREFOX]),
                  ("deviceName", ["d-x9z0", ""])])
    assert names == ["Android Chrome ·6677", "iOS Safari ·cdef", "Linux Firefox ·1234",
                     "device ·x9z0"]
    # the protocol's bound on a name (hello.name: 1-40 characters)
    [long] = _run([("deviceName", ["d-" + "a" * 60, ANDROID])])
    assert 1 <= len(long) <= 40


def test_the_claim_as_the_page_reads_it() -> None:
    link = {"state": "offline", "keeper": True, "keeper_device": "d-1",
            "keeper_name": "Android Chrome ·d-1"}
    mine, other, none = _run([("keeperOf", [{"link": link}, "d-1"]),
                              ("keeperOf", [{"link": link}, "d-2"]),
                              ("keeperOf", [{"link": {"state": "online"}}, "d-2"])])
    assert mine == {"kept": True, "mine": True, "name": "Android Chrome ·d-1", "online": False}
    assert other["kept"] and not other["mine"] and not other["online"]
    assert none == {"kept": False, "mine": False, "name": "", "online": True}
