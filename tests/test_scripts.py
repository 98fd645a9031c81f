"""Conformance: every clock script in tests/scripts/ and the spec's examples pass.

Runs through ``bgclock.script.run_file``, the code path of ``bgclock replay``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgclock.script import run_file
from tests.conftest import SCRIPTS, SHARED

OURS = sorted(SCRIPTS.glob("*/*.json"))
EXAMPLES = sorted((SHARED / "spec" / "examples").glob("*.json"))


@pytest.mark.parametrize("path", OURS + EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_script_passes(path: Path) -> None:
    code, line, _ = run_file(path)
    assert code == 0, line


def test_enough_scripts_per_preset() -> None:
    from bgclock.core import PRESETS

    by_preset = {p: len(list((SCRIPTS / p).glob("*.json"))) for p in PRESETS}
    assert sum(by_preset.values()) >= 80, by_preset
    assert all(n >= 5 for n in by_preset.values()), by_preset
