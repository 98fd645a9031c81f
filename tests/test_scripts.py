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


def test_docs_rules_lists_every_script_under_its_preset() -> None:
    # docs/rules.md maps each clause to its scripts: a script missing there is
    # a rule nobody can find.
    import re

    text = (SCRIPTS.parents[1] / "docs" / "rules.md").read_text()
    sections = {s.split("`")[1]: s for s in re.split(r"^## ", text, flags=re.MULTILINE)
                if s.startswith("`")}
    missing = [f"{p.parent.name}/{p.name}" for p in OURS
               if f"`{p.name}`" not in sections.get(p.parent.name, "")]
    assert not missing, missing
