"""Debate boards with one planted defect each, and a clean one, for the leaderboard's
diagnostics (`tournament.diagnostics`), as arenakit audits generic pairwise boards
but with motions, sides and judges as factors.

Every board is a round robin over motions, each pair debating each motion once
from each side; each debate is read by three judges, and the panel's verdict is
their majority. A judge of discrimination a gives pro the debate with
probability sigma(a (s_pro - s_con + h)): 1 a good judge, 0 a coin.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from debatebench_eval.matches.results import DebateResult, JudgeView, SideStats
from debatebench_eval.tournament.judged_elsewhere import Imported, rated
from debatebench_eval.tournament.kind import Rated

JUDGES = ("ollama/j1", "ollama/j2", "ollama/j3")
MODELS = ("ollama/a", "ollama/b", "ollama/c", "ollama/d")
# Which model of (pro, con) wins, by judge: a rule in place of a draw.
Rule = Callable[[str, str, str, int], bool]


def debate(motion: str, pro: str, con: str, verdicts: tuple[bool, ...], n: int) -> DebateResult:
    """One scored debate: each judge's verdict (True: pro won), the panel's their majority."""
    won = sum(verdicts) * 2 > len(verdicts)
    views = tuple(
        JudgeView(j, True, "pro" if v else "con") for j, v in zip(JUDGES, verdicts, strict=False)
    )
    pair = (min(pro, con), max(pro, con))
    return DebateResult(
        pair, motion, pro != pair[0], pro, con, "scored",
        totals={"pro": 1.0 if won else 0.0, "con": 0.0 if won else 1.0},
        dimensions={"pro": {}, "con": {}}, judges=views,
        sides={"pro": SideStats(), "con": SideStats()}, log="planted.jsonl", sample_id=str(n),
    )  # fmt: skip


def drawn(
    strengths: dict[str, float],
    motions: int,
    *,
    side: float = 0.0,
    judges: tuple[float, ...] = (1.0, 1.0, 1.0),
    seed: int = 0,
) -> list[DebateResult]:
    """A round robin whose verdicts are drawn from the strengths, each judge by its
    discrimination."""
    rng = np.random.default_rng(seed)

    def verdicts(pro: str, con: str) -> tuple[bool, ...]:
        eta = strengths[pro] - strengths[con] + side
        return tuple(bool(rng.random() < 1 / (1 + np.exp(-a * eta))) for a in judges)

    return _round_robin(sorted(strengths), motions, verdicts)


def ruled(models: tuple[str, ...], motions: int, rule: Rule) -> list[DebateResult]:
    """A round robin whose every judge follows `rule(motion, pro, con, k)` (True: pro
    won; k counts the pair's debates so far)."""
    seen: dict[tuple[str, str], int] = {}

    def verdicts(pro: str, con: str, motion: str) -> tuple[bool, ...]:
        key = (min(pro, con), max(pro, con))
        seen[key] = seen.get(key, 0) + 1
        return (rule(motion, pro, con, seen[key] - 1),) * len(JUDGES)

    return _round_robin(list(models), motions, verdicts, with_motion=True)


def _round_robin(models: list[str], motions: int, verdicts, with_motion: bool = False):  # type: ignore[no-untyped-def]
    results = []
    for k in range(motions):
        motion = f"m{k:02d}"
        for i, a in enumerate(models):
            for b in models[i + 1 :]:
                for pro, con in ((a, b), (b, a)):
                    found = verdicts(pro, con, motion) if with_motion else verdicts(pro, con)
                    results.append(debate(motion, pro, con, found, len(results)))
    return results


def as_rated(results: list[DebateResult]) -> Rated:
    return rated(Imported("outcomes", ["planted.jsonl"], results))


def fragile_top() -> list[DebateResult]:
    """a and b alike against everyone, c and d well below; a beats b in 13 of 24:
    a's place at #1 rests on its two extra wins over b."""

    def rule(motion: str, pro: str, con: str, k: int) -> bool:
        pair = {pro, con}
        if pair == {"ollama/a", "ollama/b"}:
            return (pro == "ollama/a") == (k < 13)  # a wins the pair's first 13
        if pair & {"ollama/a", "ollama/b"}:
            top = pro in ("ollama/a", "ollama/b")
            return top if k % 6 else not top  # the better side wins 5 of 6
        return (pro == "ollama/c") == (k % 2 == 0)

    return ruled(MODELS, 12, rule)


def cycle() -> list[DebateResult]:
    """a beats b, b beats c, c beats a, each in 20 of 24 debates; d loses most."""
    beats = {("ollama/a", "ollama/b"), ("ollama/b", "ollama/c"), ("ollama/c", "ollama/a")}

    def rule(motion: str, pro: str, con: str, k: int) -> bool:
        if "ollama/d" in (pro, con):
            return (con == "ollama/d") == (k % 4 != 0)  # d wins 1 in 4
        winner_is_pro = (pro, con) in beats
        return winner_is_pro if k % 6 else not winner_is_pro  # 20 of 24

    return ruled(MODELS, 12, rule)


def one_motion() -> list[DebateResult]:
    """d loses every debate but those on m03, where it wins all six; a > b > c else."""
    order = {"ollama/a": 0, "ollama/b": 1, "ollama/c": 2, "ollama/d": 3}

    def rule(motion: str, pro: str, con: str, k: int) -> bool:
        if "ollama/d" in (pro, con):
            return (pro == "ollama/d") == (motion == "m03")
        better_is_pro = order[pro] < order[con]
        return better_is_pro if k % 4 else not better_is_pro

    return ruled(MODELS, 12, rule)


CLEAN = {"ollama/a": 1.2, "ollama/b": 0.4, "ollama/c": -0.4, "ollama/d": -1.2}
