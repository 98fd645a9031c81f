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


def test_a_device_names_itself_after_its_table_in_its_language() -> None:
    # issue 33: a name a player can read, not "Android Chrome ·3f9a"
    names = _run([("deviceName", [3, "it"]), ("deviceName", [3, "en"]),
                  ("deviceName", [10**18, "it"])])
    assert names[:2] == ["Tavolo 3", "Table 3"]
    assert 1 <= len(names[2]) <= 40  # the protocol's bound on a name (hello.name)


def test_the_claim_as_the_page_reads_it() -> None:
    link = {"state": "offline", "keeper": True, "keeper_device": "d-1",
            "keeper_name": "Android Chrome ·d-1"}
    mine, other, none = _run([("keeperOf", [{"link": link}, "d-1"]),
                              ("keeperOf", [{"link": link}, "d-2"]),
                              ("keeperOf", [{"link": {"state": "online"}}, "d-2"])])
    assert mine == {"kept": True, "mine": True, "name": "Android Chrome ·d-1", "online": False}
    assert other["kept"] and not other["mine"] and not other["online"]
    assert none == {"kept": False, "mine": False, "name": "", "online": True}


def test_the_hand_overs_refusals_are_in_both_languages_and_the_protocol_page() -> None:
    # issue 33: the refusals a request for the time may get (live.table_state)
    words = MODULE.parent / "timekeeper-strings.js"
    script = (f"const m = await import({json.dumps(words.as_uri())});"
              "console.log(JSON.stringify(m.STRINGS));")
    assert NODE is not None
    strings = json.loads(subprocess.run([NODE, "--input-type=module", "-e", script],
                                        capture_output=True, text=True, check=True,
                                        timeout=30).stdout)
    listed = (ROOT / "docs" / "protocol.md").read_text()
    for code in ("not_keeper", "handed_over", "not_timekeeper", "no_request"):
        for lang in ("en", "it"):
            assert f"ref.{code}" in strings[lang], (lang, code)
        assert f"| `{code}` |" in listed, code
