"""Where the checkout's folders are, for tests and benchmark scripts."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"
RESULTS = ROOT / "results"
