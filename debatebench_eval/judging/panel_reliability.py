"""The judges' reliability over a tournament: how much of its order their habits could
explain (`judging.reliability` for every figure's definition and interval).

Read from the scored debates: each judge's own verdict and margin (from its
orientation-mean scores), the tournament's verdict (the debate's result),
the opener and each side's words from the debate's record, and each repeat's
winner when the judges judged more than once. The swap rule the debates were
judged under is reported with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from debatebench_eval.judging.reliability import PANEL, Judged, diagnostics
from debatebench_eval.matches.results import DebateResult, JudgeView
from debatebench_eval.record.protocol import SIDES


def reliability(scored: Sequence[DebateResult]) -> dict[str, Any]:
    """Every reliability figure, and the swap rule(s) the verdicts were reached under."""
    rules = sorted({d.swap_rule for d in scored}) or ["mean"]
    debates = [judged(d) for d in scored if d.totals is not None]
    return {"swap_rule": rules[0] if len(rules) == 1 else "mixed: " + ", ".join(rules),
            **diagnostics(debates)}  # fmt: skip


def judged(debate: DebateResult) -> Judged:
    assert debate.totals is not None
    margin = debate.totals["pro"] - debate.totals["con"]
    result = debate.result
    panel = "pro" if result == 1 else "con" if result == 0 else "tie"
    verdicts = {PANEL: (panel, margin)}
    repeats: dict[str, tuple[str, ...]] = {}
    for view in debate.judges:
        if view.valid and view.winner is not None:
            verdicts[view.judge] = (view.winner, _margin(view, debate.maxima))
            if view.repeat_winners:
                repeats[view.judge] = view.repeat_winners
    words: dict[str, int] | None = (
        {side: debate.sides[side].words for side in SIDES} if debate.sides else None
    )
    return Judged(verdicts, {"pro": debate.pro, "con": debate.con}, debate.opener,
                  words if words and any(words.values()) else None, repeats)  # fmt: skip


def _margin(view: JudgeView, maxima: dict[str, float]) -> float:
    """The judge's own margin, in rubric points, from its scores as fractions."""
    points = {
        side: sum(f * maxima.get(name, 0.0) for name, f in view.fractions.get(side, {}).items())
        for side in SIDES
    }
    return points["pro"] - points["con"]
