"""Shared test fixtures and paths."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "tests" / "scripts"
SHARED = ROOT.parent / "shared"
