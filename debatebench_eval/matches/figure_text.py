"""How the leaderboard writes a figure (`value [low, high]`, with no "-0"), its
figures as JSON (no NaN), and its list of excluded debates."""

from __future__ import annotations

import math
from typing import Any


def finite(value: Any) -> Any:
    """NaN and infinities become null: JSON has no NaN."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    if hasattr(value, "tolist"):
        return finite(value.tolist())
    return value


def interval_text(figure: dict[str, Any] | None, places: int = 0) -> str:
    """`value [low, high]`, or the value alone where the interval is undefined."""
    if not figure or figure.get("value") is None:
        return "n/a"
    value, low, high = (figure.get(k) for k in ("value", "low", "high"))
    assert value is not None
    if low is None or high is None:
        return number_text(value, places)
    return f"{number_text(value, places)} [{number_text(low, places)}, {number_text(high, places)}]"


def number_text(value: Any, places: int) -> str:
    text = f"{value:.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.000"


# Excluded debates listed in the Markdown; the JSON has them all.
LISTED = 50


def excluded_table(excluded: dict[str, list[dict[str, Any]]], item: str) -> list[str]:
    """The excluded debates (by why) as a Markdown table; `item` names the column of
    what was debated (motion, or question)."""
    found = [(why, d) for why, ds in excluded.items() for d in ds]
    lines = ["", f"| why | pro | con | {item} | reason |", "|---|---|---|---|---|"]
    for why, d in found[:LISTED]:
        reason = (d.get("reason") or "").replace("|", "/")
        lines.append(f"| {why} | {d['pro']} | {d['con']} | {d['motion']} | {reason} |")
    if len(found) > LISTED:
        lines.append(f"| … {len(found) - LISTED} more in leaderboard.json | | | | |")
    return lines
