"""Tournaments for tests: a small one run in-process through the command line against
the stub server with a scripted judge (mN scores 0.35 + 0.08 N (N up to 8) of every maximum), and
synthetic results drawn from known Bradley-Terry strengths."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from debatebench_eval.cli.main import main
from debatebench_eval.matches.results import DebateResult, JudgeView, SideStats

from support.judge_replies import rubric_reply, side_scores
from support.stub_server import StubBehaviour, StubServer

JUDGES = "ollama/j1,ollama/j2"
_TAGGED_TURN = re.compile(r"^\[t[0-9a-f]{8}\] \w+ — Side ([AB])\n.*?\[by \D*(\d+)\]", re.MULTILINE)
MODELS = "ollama/m1,ollama/m2,ollama/m3"


def ranked_judge(request: dict[str, Any]) -> str | None:
    """A stub server's scripted rubric judge for speeches tagged "[by mN]": every
    dimension at 0.35 + 0.08 N of its maximum (N up to 8), so the higher N wins.
    Other requests (speeches, the fact-check) get None: the stub answers them."""
    messages = request.get("messages") or []
    if len(messages) < 2 or "impartial judge" not in str(messages[0].get("content")):
        return None
    strength = dict(_TAGGED_TURN.findall(str(messages[-1].get("content"))))
    if set(strength) != {"A", "B"}:
        raise AssertionError(f"the judge prompt names no tagged speaker for each side: {strength}")
    a, b = (side_scores(0.35 + 0.08 * int(strength[label])) for label in "AB")
    return rubric_reply(a, b)


def upset_judge(request: dict[str, Any]) -> str | None:
    """`ranked_judge`, except that on the minimum-wage motion the lower N wins: each
    pair's stronger model wins two motions of three, so ratings are finite and their
    intervals narrow as debates accumulate (under `ranked_judge` alone every pair is
    separated and no interval ever closes)."""
    reply = ranked_judge(request)
    messages = request.get("messages") or []
    if reply is None or "minimum wage of fifteen dollars" not in str(messages[-1].get("content")):
        return reply
    strength = dict(_TAGGED_TURN.findall(str(messages[-1].get("content"))))
    a, b = (side_scores(0.99 - 0.08 * int(strength[label])) for label in "AB")
    return rubric_reply(a, b)


def run_tournament(log_dir: Path, models: str, *extra: str, limit: int = 2) -> StubBehaviour:
    """Run (or resume, or grow) a lightning tournament; return what the stub served."""
    behaviour = StubBehaviour(tag_speech=True, script=ranked_judge)
    with StubServer(behaviour) as stub, pytest.MonkeyPatch.context() as patch:
        patch.setenv("OLLAMA_BASE_URL", stub.base_url)
        code = main(["tournament", "run", "--models", models, "--judges", JUDGES,
                     "--format", "lightning", "--limit", str(limit), "-T", "fact_check=false",
                     "--log-dir", str(log_dir), "--display", "none", *extra])  # fmt: skip
    assert code == 0
    return behaviour


def synthetic_results(
    strengths: dict[str, float],
    motions: int,
    *,
    side: float = 0.3,
    seed: int = 0,
    words: dict[str, int] | None = None,
    words_effect: float = 0.0,
    judges: tuple[str, ...] = ("ollama/j1", "ollama/j2"),
) -> list[DebateResult]:
    """Scored debates of a full round robin drawn from Bradley-Terry strengths.

    With `words`, each model speaks that many words (plus noise) and the judges
    favour the longer side by `words_effect` logits per standard unit of length share.
    """
    rng = np.random.default_rng(seed)
    models = sorted(strengths)
    results = []
    for k in range(motions):
        motion = f"q{k:04d}"
        for i, a in enumerate(models):
            for b in models[i + 1 :]:
                for swapped in (False, True):
                    pro, con = (b, a) if swapped else (a, b)
                    spoken = {s: int((words or {}).get(m, 400) * rng.uniform(0.8, 1.2))
                              for s, m in (("pro", pro), ("con", con))}  # fmt: skip
                    share = (spoken["pro"] - spoken["con"]) / (spoken["pro"] + spoken["con"])
                    eta = strengths[pro] - strengths[con] + side + words_effect * share / 0.1
                    won = rng.random() < 1 / (1 + np.exp(-eta))
                    results.append(
                        _scored((a, b), motion, swapped, pro, con, won, spoken, judges, rng)
                    )
    return results


def _scored(pair, motion, swapped, pro, con, won, spoken, judges, rng) -> DebateResult:  # type: ignore[no-untyped-def]
    high, low = (70.0, 55.0) if won else (55.0, 70.0)
    maxima = {"argument_quality": 30.0, "clarity": 10.0}
    dims = {"pro": {"argument_quality": high * 0.3, "clarity": high * 0.1},
            "con": {"argument_quality": low * 0.3, "clarity": low * 0.1}}  # fmt: skip
    views = tuple(
        JudgeView(
            judge,
            True,
            "pro" if won else "con",
            bool(rng.random() < 0.1),
            {s: {n: v / maxima[n] + rng.normal(0, 0.03) for n, v in dims[s].items()} for s in dims},
        )
        for judge in judges
    )
    return DebateResult(
        pair, motion, swapped, pro, con, "scored", totals={"pro": high, "con": low},
        dimensions=dims, maxima=maxima, judges=views, trust="unvalidated",
        sides={s: SideStats(words=w, output_tokens=int(w * 1.3), budget_hits=0, turns=2)
               for s, w in spoken.items()},
    )  # fmt: skip


def leaderboard_results(
    models: int,
    motions: int,
    matchups: int,
    *,
    side: float = 0.3,
    seed: int = 0,
    words_effect: float = 0.2,
) -> tuple[list[DebateResult], dict[str, float]]:
    """Scored debates at a public leaderboard's shape: `matchups` random pairs (both
    sides each) spread over `motions` (every motion used once before any twice), drawn
    from known Bradley-Terry strengths and a length effect. Returns the strengths too."""
    rng = np.random.default_rng(seed)
    names = [f"ollama/model-{i:02d}" for i in range(models)]
    strengths = {m: float(s) for m, s in zip(names, np.linspace(-1.5, 1.5, models), strict=True)}
    words = {m: int(300 + 20 * i) for i, m in enumerate(names)}
    results = []
    for k in range(matchups):
        motion = f"q{k % motions:04d}"
        i, j = sorted(rng.choice(models, size=2, replace=False))
        a, b = names[i], names[j]
        for swapped in (False, True):
            pro, con = (b, a) if swapped else (a, b)
            spoken = {s: int(words[m] * rng.uniform(0.8, 1.2))
                      for s, m in (("pro", pro), ("con", con))}  # fmt: skip
            share = (spoken["pro"] - spoken["con"]) / (spoken["pro"] + spoken["con"])
            eta = strengths[pro] - strengths[con] + side + words_effect * share / 0.1
            won = rng.random() < 1 / (1 + np.exp(-eta))
            judges = ("ollama/j1",)
            results.append(_scored((a, b), motion, swapped, pro, con, won, spoken, judges, rng))
    return results, strengths
