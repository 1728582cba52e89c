"""The checks that say whether "debate helps the judge" means anything, read from the
runs given, each naming the run to make where the runs lack it.

- Knowledge gap: debate can only help a judge when the debaters know more than
  it. The debaters' own accuracy is the `expert` protocol judged by a debater's
  model; the judge's is its `naive` accuracy. Their paired difference over
  shared questions should be clearly above zero.
- Rounds: the paired difference, full debate minus opening statements only
  (a `rounds=1` debate run, or the judge's belief after round 1 of a run with
  `judge_each_round`). Near zero: rebuttals add nothing.
- Verification: among debates whose two sides had different numbers of
  verified quotes, how often the judge sided with the side that had more.
  Near 1 the judge checks claims; near 0.5 it does not use the checks.
- Family: whether the judge shares a model family with a debater
  (`judging.families`): a judge favours its family's writing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from debatebench_eval.judging.families import family
from debatebench_eval.known_answer.stats import (
    Interval,
    Outcome,
    accuracy_of,
    by_question,
    paired_difference,
)

DEBATERS = ("debate", "open", "consultancy")


@dataclass(frozen=True)
class JudgedSample:
    """One judged sample: its outcome and its score's metadata."""

    outcome: Outcome
    meta: dict[str, Any]


@dataclass
class Run:
    """The judged samples of one protocol in one log, with who judged and who spoke."""

    protocol: str
    rounds: int | None
    judges: set[str] = field(default_factory=set)
    speakers: set[str] = field(default_factory=set)
    samples: list[JudgedSample] = field(default_factory=list)

    def per_question(self) -> dict[str, list[float]]:
        return by_question((s.outcome.question, float(s.outcome.correct)) for s in self.samples)


@dataclass(frozen=True)
class Check:
    """One precondition: its figure (None: not measured) and what it says, or the run
    that would measure it."""

    name: str
    value: Interval | None
    reading: str


def preconditions(runs: Sequence[Run]) -> list[Check]:
    """The four checks, for the debate (or, without one, the consultancy) of the runs."""
    main = _main_runs(runs)
    if not main:
        missing = "no debate, open or consultancy run among the logs: nothing to check"
        return [Check(name, None, missing) for name in ("knowledge gap", "rounds",
                                                        "verification", "family")]  # fmt: skip
    return [knowledge_gap(runs, main), rounds_check(runs), verification(runs), family_check(main)]


def _main_runs(runs: Sequence[Run]) -> list[Run]:
    for protocol in DEBATERS:
        found = [r for r in runs if r.protocol == protocol and r.speakers]
        if found:
            return found
    return []


def _pooled(runs: Sequence[Run]) -> dict[str, list[float]]:
    pooled: dict[str, list[float]] = {}
    for run in runs:
        for question, values in run.per_question().items():
            pooled.setdefault(question, []).extend(values)
    return pooled


def _models(models: set[str]) -> str:
    return ", ".join(sorted(models)) or "?"


def knowledge_gap(runs: Sequence[Run], main: Sequence[Run]) -> Check:
    judges = set().union(*(r.judges for r in main))
    speakers = set().union(*(r.speakers for r in main))
    expert = [r for r in runs if r.protocol == "expert" and r.judges and r.judges <= speakers]
    naive = [r for r in runs if r.protocol == "naive" and r.judges and r.judges <= judges]
    make = []
    if not expert:
        make.append(f"-T protocol=expert --model-role judge={min(speakers)} (the debaters' own)")
    if not naive:
        make.append(f"-T protocol=naive --model-role judge={min(judges)} (the judge alone)")
    if make:
        return Check("knowledge gap", None, "not measured; run " + " and ".join(make))
    gap = paired_difference(_pooled(expert), _pooled(naive))
    mean_expert, mean_naive = _mean(_pooled(expert)), _mean(_pooled(naive))
    reading = (
        f"debaters ({_models(set().union(*(r.judges for r in expert)))}) reading the evidence "
        f"{mean_expert:.3f}, the judge alone {mean_naive:.3f}"
    )
    if gap is None:
        return Check("knowledge gap", None, f"{reading}; no question judged by both")
    return Check("knowledge gap", gap, f"{reading}; {_sign(gap, 'the debaters know more')}")


def _mean(per_question: dict[str, list[float]]) -> float:
    means = [sum(v) / len(v) for v in per_question.values()]
    return sum(means) / len(means) if means else float("nan")


def _sign(interval: Interval, above: str) -> str:
    if interval.low > 0:
        return f"above 0: {above}"
    if interval.high < 0:
        return "below 0"
    return "the interval holds 0: not shown"


def rounds_check(runs: Sequence[Run]) -> Check:
    debates = [r for r in runs if r.protocol == "debate"]
    full = [r for r in debates if (r.rounds or 0) > 1]
    opening = [r for r in debates if r.rounds == 1]
    if full and opening:
        diff = paired_difference(_pooled(full), _pooled(opening))
        how = "full debate - a rounds=1 run"
    else:
        diff, how = _from_beliefs(full)
    if diff is None:
        make = "-T protocol=debate -T rounds=1 beside the full debate, or the full debate "
        return Check("rounds", None, f"not measured; run {make}with -T judge_each_round=true")
    return Check("rounds", diff, f"{how}; {_sign(diff, 'later rounds help the judge')}")


def _from_beliefs(full: Sequence[Run]) -> tuple[Interval | None, str]:
    """Full minus opening from the judge's belief after round 1 in the same samples."""
    last: dict[str, list[float]] = {}
    first: dict[str, list[float]] = {}
    for sample in (s for r in full for s in r.samples):
        after = sample.meta.get("right_by_round") or {}
        if after.get("1") is None:
            continue
        question = sample.outcome.question
        last.setdefault(question, []).append(float(sample.outcome.correct))
        first.setdefault(question, []).append(float(after["1"]))
    how = "full debate - the judge's belief after round 1 (judge_each_round)"
    return paired_difference(last, first), how


def verification(runs: Sequence[Run]) -> Check:
    picks: list[tuple[str, bool]] = []
    debates = 0
    for sample in (s for r in runs if r.protocol in ("debate", "open") for s in r.samples):
        debates += 1
        sided = _sided_with_more(sample.meta)
        if sided is not None:
            picks.append((sample.outcome.question, sided))
    share = accuracy_of(picks)
    if share is None:
        why = "no debate run" if not debates else f"no debate of {debates} whose sides' "
        why += "verified quotes differed" if debates else ""
        return Check("verification", None, f"not measured: {why}")
    return Check(
        "verification",
        share,
        f"the judge sided with more verified quotes in {sum(p for _, p in picks)} of "
        f"{len(picks)} debates where the counts differed (of {debates}); 0.5: it does "
        "not use the checks",
    )


def _sided_with_more(meta: dict[str, Any]) -> bool | None:
    """Whether the pick was the side with more verified quotes (None: equal counts)."""
    counts = meta.get("verified_quotes") or {}
    sides = meta.get("assignment") or {}
    if set(counts) != {"pro", "con"} or meta.get("pick") is None:
        return None
    if counts["pro"] == counts["con"]:
        return None
    more = "pro" if counts["pro"] > counts["con"] else "con"
    return bool(sides.get(more) == meta["pick"])


def family_check(main: Sequence[Run]) -> Check:
    judges = set().union(*(r.judges for r in main))
    speakers = set().union(*(r.speakers for r in main))
    shared = {family(j) for j in judges} & {family(s) for s in speakers}
    names = f"judge {_families(judges)}; debaters {_families(speakers)}"
    if shared:
        return Check("family", None, f"shared ({', '.join(sorted(shared))}): {names}; a "
                     "judge may favour its own family's writing")  # fmt: skip
    return Check("family", None, f"none shared: {names}")


def _families(models: set[str]) -> str:
    return ", ".join(f"{m} ({family(m)})" for m in sorted(models))


def preconditions_table(checks: Sequence[Check]) -> str:
    lines = ["| check | value | 95% interval | what it says |", "|---|---|---|---|"]
    for check in checks:
        value = interval = "-"
        if check.value is not None:
            value = (
                f"{check.value.value:+.3f}"
                if check.name != "verification"
                else (f"{check.value.value:.3f}")
            )
            interval = f"{check.value.low:+.3f} to {check.value.high:+.3f}"
            if check.name == "verification":
                interval = f"{check.value.low:.3f} to {check.value.high:.3f}"
        lines.append(f"| {check.name} | {value} | {interval} | {check.reading} |")
    return "\n".join(lines) + "\n"


def belief_means(runs: Sequence[Run]) -> dict[str, dict[int, float]]:
    """Mean p_correct after each round, per protocol with beliefs round by round (a
    stopped sample keeps its last belief); naive and expert as one point, round 0."""
    found: dict[str, dict[int, list[float]]] = {}
    for run in runs:
        for sample in run.samples:
            path = _path(sample, run)
            for number, p in path.items():
                found.setdefault(run.protocol, {}).setdefault(number, []).append(p)
    return {
        protocol: {n: round(sum(v) / len(v), 10) for n, v in sorted(rounds.items())}
        for protocol, rounds in found.items()
        if len(rounds) > 1 or run_without_rounds(protocol)
    }


def run_without_rounds(protocol: str) -> bool:
    return protocol in ("naive", "expert")


def _path(sample: JudgedSample, run: Run) -> dict[int, float]:
    if run_without_rounds(run.protocol):
        return {0: sample.outcome.p_correct}
    given = {int(k): v for k, v in (sample.meta.get("p_correct_by_round") or {}).items()}
    if not given:
        return {}
    path: dict[int, float] = {}
    current: float | None = None
    for number in range(1, max(run.rounds or 0, max(given)) + 1):
        current = given.get(number, current)
        if current is not None:
            path[number] = current
    return path
