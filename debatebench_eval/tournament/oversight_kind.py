"""The known-answer debate as a tournament's task kind (`--task oversight`): two models
defend the two answers of a question, each model both answers over the pair's two
debates, and a judge picks one. A model's rating is its persuasiveness: how often
the judge sided with it, whatever answer it was assigned (Khan et al. 2024); the
judge's accuracy per pair is set against the pair's mean rating
(`tournament.oversight_board`). `tournament.kind` has the protocol.

Its identity names the task, its -T options, the seed and the judge guard: it has
no phases, format or rubric.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from inspect_ai import Task
from inspect_ai.log import EvalSample

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.options import Taker
from debatebench_eval.core.run_options import RUN_KEYS, RunOptions
from debatebench_eval.known_answer import task as known_answer
from debatebench_eval.known_answer.assignment import TWO_DEBATERS
from debatebench_eval.known_answer.log_reader import SCORER, judge_score
from debatebench_eval.known_answer.questions import Question, default_questions, load_questions
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.matches.results import DebateResult
from debatebench_eval.matches.spend import debate_spend
from debatebench_eval.tournament import oversight_board
from debatebench_eval.tournament.debate_kind import OWNED as DEBATE_OWNED
from debatebench_eval.tournament.kind import (
    Asked,
    Board,
    Column,
    Items,
    Rated,
    RateOptions,
    reason_line,
)
from debatebench_eval.tournament.schedule import Item, Schedule, Settings, digest, parse_task_args

# -T keys the tournament sets itself, with what to use instead.
OWNED = {
    "questions": "--questions FILE and --limit N",
    "quality": "--questions FILE (a question file)",
    "quality_hard": "--questions FILE (a question file)",
    "seed": DEBATE_OWNED["seed"],
    "timeout": DEBATE_OWNED["timeout"],
    "paired": "nothing: every question is debated with the models in both positions",
    "strict_judge": DEBATE_OWNED["strict_judge"],
}
_TAKER = Taker("debatebench-eval tournament")


def question_sha256(question: Question) -> str:
    """What the tournament scheduled under a question's id: a later edit shows here."""
    return digest({k: v for k, v in asdict(question).items() if k != "id"})


def question_record(question: Question) -> dict[str, Any]:
    return {**asdict(question), "answers": list(question.answers),
            "sha256": question_sha256(question)}  # fmt: skip


class Questions:
    """An oversight tournament's items: the questions, recorded whole in its folder
    (their text and evidence), named by id in the leaderboard."""

    key: str = "questions"
    noun: str = "question"
    flag: str = "--questions"

    def item(self, question: Question) -> Item:
        return Item(question.id, question_sha256(question), question_record(question),
                    question, question.question)  # fmt: skip

    def from_record(self, data: dict[str, Any]) -> Item:
        first, second = data["answers"]
        return self.item(Question(str(data["id"]), str(data["question"]),
                                  (str(first), str(second)), int(data["correct"]),
                                  data.get("evidence"), data.get("category")))  # fmt: skip

    def header(self, items: tuple[Item, ...]) -> dict[str, Any]:
        return {"questions": [item.id for item in items]}


class OversightKind:
    """`--task oversight`: known-answer debates on questions."""

    name = "oversight"
    task = "debatebench/oversight"
    scorer = SCORER
    rating = (
        "persuasiveness: Bradley-Terry ratings of how often the judge sided with a model, "
        "whatever answer it was assigned, with a pro/con position advantage"
    )
    # No margin: the judge picks an answer.
    columns: tuple[Column, ...] = (
        Column("rating", "Rating", 0), Column("rating_low", "95% low", 0),
        Column("rating_high", "95% high", 0), Column("rating_width", "95% width", 0),
        Column("win_rate", "Judge sided", 2), Column("debates", "Debates", 0),
    )  # fmt: skip
    items: Items = Questions()

    def requested(self, asked: Asked, common: Settings) -> tuple[Settings, tuple[Item, ...]]:
        """The oversight task's -T options and questions: only a protocol with two
        debaters can be a match between two models."""
        asked.refuse(self.name, ("--questions",),
                     "--questions FILE and -T options of the oversight task")  # fmt: skip
        task_args = parse_task_args(asked.task_items, known_answer.ARGS, OWNED)
        protocol = task_args.get("protocol", "debate")
        if protocol not in TWO_DEBATERS:
            raise ConfigError(
                "-T protocol", f"{protocol}: a tournament needs two debaters to match",
                f"protocol {' or '.join(TWO_DEBATERS)}",
            )  # fmt: skip
        RunOptions.parse({k: v for k, v in task_args.items() if k in RUN_KEYS}, _TAKER)
        identity = {"task": self.name, "task_args": task_args, "seed": common.seed,
                    "allow_self_judging": common.allow_self_judging}  # fmt: skip
        settings = Settings(self.name, identity, common.cost_limit, common.timeout)
        found = _questions(asked.flags.get("--questions"), asked.limit)
        return settings, tuple(Questions().item(q) for q in found)

    def pair_base(self, schedule: Schedule, items: tuple[Item, ...]) -> Task:
        """The pair's questions in both orders, the judge guard as for debates."""
        settings = schedule.settings
        args = {**settings.task_args, "paired": True,
                "strict_judge": not settings.allow_self_judging}  # fmt: skip
        return known_answer.oversight_over(tuple(item.value for item in items), args)

    def outcome(self, sample: EvalSample, pair: tuple[str, str], log: str) -> DebateResult:
        return oversight_result(sample, pair, log)

    def board(self, rated: Rated, options: RateOptions) -> Board:
        return oversight_board.board(rated, options)


def _questions(source: str | None, limit: int | None) -> tuple[Question, ...]:
    path = None if source in (None, "default") else Path(str(source)).expanduser()
    found = default_questions() if path is None else load_questions(path)
    if limit is None:
        return found
    if not 1 <= limit <= len(found):
        where = source or "the shipped set"
        expected = f"1 to {len(found)} (the questions in {where})"
        raise ConfigError("--limit", f"got {limit}", expected)
    return found[:limit]


def oversight_result(sample: EvalSample, pair: tuple[str, str], log: str) -> DebateResult:
    """One sample of an oversight pair's log as a result: scored when the judge picked
    an answer (whom it sided with and whether it was right), unscored when no judge's
    reply could be used."""
    meta = sample.metadata or {}
    swapped = bool(meta.get("swapped"))
    pro, con = (pair[1], pair[0]) if swapped else pair
    common: dict[str, Any] = {
        "pair": pair, "motion": str(meta.get("question_id", sample.id)), "swapped": swapped,
        "pro": pro, "con": con, "log": log, "sample_id": str(sample.id), "uuid": sample.uuid,
        "spend": debate_spend(sample.role_usage, sample.model_usage, pair),
    }  # fmt: skip
    if sample.error is not None:
        return DebateResult(**common, status="error", reason=reason_line(sample.error.message))
    score = judge_score(sample.scores or {})
    pick = None if score is None else (score.metadata or {}).get("pick")
    if pick is None:
        why = (
            f"no {SCORER} score in the log"
            if score is None
            else str(score.explanation or "no judge's reply could be used")
        )
        return DebateResult(**common, status="unscored", reason=reason_line(why))
    record = sample.store_as(OversightRecord)
    return DebateResult(**common, status="scored", sided_with=_side_of(pick, record),
                        correct=pick == record.correct_label)  # fmt: skip


def _side_of(pick: str, record: OversightRecord) -> str | None:
    sides = [side for side, label in record.assignment.items() if label == pick]
    return sides[0] if sides else None
