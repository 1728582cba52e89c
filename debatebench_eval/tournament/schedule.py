"""The schedule: which models debate which motions, and which tournament that is.

A tournament is a round robin over unordered model pairs, every pair debating
every motion twice with the sides exchanged. A known-answer tournament
(`oversight`) debates questions instead of motions, each twice with the two
models exchanged between the pro and con positions. Two hashes name it. The identity
(settings and judges) says which tournament a log folder holds: a folder never
mixes two. The schedule hash (identity, models, motions) says how far it has
grown: models and motions may be added later and only what is new runs.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any, TypeVar

import yaml

from debatebench_eval.core.arguments import refuse_removed
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.record.motions import Motion

SCHEMA = 1
# The task a tournament's debates run: rubric-judged debates on motions, or
# known-answer debates on questions. A folder never holds both.
DEBATE = "debate"
OVERSIGHT = "oversight"
TASKS = (DEBATE, OVERSIGHT)
_SLUG = re.compile(r"[^A-Za-z0-9.]+")


def canonical_json(value: Any) -> str:
    """One spelling per value, so equal settings hash equal on any machine."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


def motion_sha256(motion: Motion) -> str:
    """What the tournament scheduled under a motion's id: a later edit shows here."""
    return digest({"text": motion.text, "topic": motion.topic, "category": motion.category})


def motion_record(motion: Motion) -> dict[str, Any]:
    return {"id": motion.id, "text": motion.text, "topic": motion.topic,
            "category": motion.category, "sha256": motion_sha256(motion)}  # fmt: skip


def question_sha256(question: Question) -> str:
    """What the tournament scheduled under a question's id: a later edit shows here."""
    return digest({k: v for k, v in asdict(question).items() if k != "id"})


def question_record(question: Question) -> dict[str, Any]:
    return {**asdict(question), "answers": list(question.answers),
            "sha256": question_sha256(question)}  # fmt: skip


@dataclass(frozen=True)
class Settings:
    """Everything that makes two debates comparable: a change is another tournament."""

    phases: tuple[str, ...]
    format: str | None
    task_args: tuple[tuple[str, Any], ...]
    seed: int
    allow_self_judging: bool
    rubric_sha256: str
    # Dollars a debate may spend before Inspect stops it (it enters each task's identity).
    cost_limit: float | None = None
    # Seconds to wait for one model reply (Inspect's timeout); None: the task's default.
    timeout: int | None = None
    # The task every debate runs (DEBATE or OVERSIGHT).
    task: str = DEBATE

    def as_dict(self) -> dict[str, Any]:
        limits = {
            # Only when set: a tournament without one keeps the identity it had.
            **({"cost_limit": self.cost_limit} if self.cost_limit is not None else {}),
            **({"timeout": self.timeout} if self.timeout is not None else {}),
        }
        if self.task == OVERSIGHT:  # no phases, format or rubric: the task and its -T
            return {"task": self.task, "task_args": dict(self.task_args), "seed": self.seed,
                    "allow_self_judging": self.allow_self_judging, **limits}  # fmt: skip
        # A debate tournament's identity names no task: the one it had before oversight.
        return {
            "phases": list(self.phases),
            "format": self.format,
            "task_args": dict(self.task_args),
            "seed": self.seed,
            "allow_self_judging": self.allow_self_judging,
            "rubric_sha256": self.rubric_sha256,
            **limits,
        }

    def debate_args(self) -> dict[str, Any]:
        """The `debate` task's arguments (each enters Inspect's task identity); the seed
        and the timeout go in the task's generate settings (`generate_settings`)."""
        shape = {"format": self.format} if self.format else {}
        guard = {"strict_judge": not self.allow_self_judging}
        return {**shape, **dict(self.task_args), "paired": True, **guard}

    def oversight_args(self) -> dict[str, Any]:
        """The `oversight` task's arguments: every question in both orders, the judge
        guard as for debates."""
        return {**dict(self.task_args), "paired": True, "strict_judge": not self.allow_self_judging}

    def generate_settings(self) -> dict[str, Any]:
        """Inspect's seed and timeout of every debate (they enter its task identity)."""
        return {"seed": self.seed, **({"timeout": self.timeout} if self.timeout else {})}


@dataclass(frozen=True)
class Schedule:
    """Models (sorted), judges (in the order given: the first one fact-checks),
    motions or, in an oversight tournament, questions (in the order first
    scheduled) and settings. No I/O."""

    models: tuple[str, ...]
    judges: tuple[str, ...]
    motions: tuple[Motion, ...]
    settings: Settings
    questions: tuple[Question, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(sorted(self.models)))

    def identity(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "settings": self.settings.as_dict(), "judges": list(self.judges)}

    @property
    def identity_hash(self) -> str:
        return digest(self.identity())

    @property
    def schedule_hash(self) -> str:
        questions = [question_sha256(q) for q in self.questions]
        asked = {"questions": questions} if questions else {}
        return digest({"identity": self.identity_hash, "models": list(self.models),
                       "motions": [motion_sha256(m) for m in self.motions], **asked})  # fmt: skip

    @property
    def items(self) -> tuple[str, ...]:
        """What each pair debates, by id: the motions, or an oversight tournament's questions."""
        if self.settings.task == OVERSIGHT:
            return tuple(q.id for q in self.questions)
        return tuple(m.id for m in self.motions)

    @property
    def eval_set_id(self) -> str:
        # Every worker stamps its logs with the plan's id (selection mode).
        return f"debatebench-{self.identity_hash[:16]}"

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        return pairs_of(self.models)

    def debates(self) -> int:
        return len(self.pairs) * len(self.items) * 2

    def grown(self, other: Schedule) -> Schedule:
        """This schedule with `other`'s models and motions added (the schedule only grows:
        a dataset that shrank would make Inspect re-run a whole pair)."""
        if other.identity_hash != self.identity_hash:
            raise ValueError("only a schedule of the same tournament can be merged")
        motions = _grown(self.motions, other.motions, motion_sha256, _EDITED_MOTION)
        questions = _grown(self.questions, other.questions, question_sha256, _EDITED_QUESTION)
        return replace(
            self,
            models=tuple(sorted({*self.models, *other.models})),
            motions=motions,
            questions=questions,
        )


# What a motion or question edited under its id is told: (flag, kind, what differs, expected).
_EDITED_MOTION = ("--motions", "motion", "its text, topic or category",
                  "the motion unchanged, or the new text under a new id")  # fmt: skip
_EDITED_QUESTION = ("--questions", "question",
                    "its text, answers, right answer, evidence or category",
                    "the question unchanged, or the new one under a new id")  # fmt: skip
Item = TypeVar("Item", Motion, Question)


def _grown(
    scheduled: tuple[Item, ...],
    asked: tuple[Item, ...],
    sha256: Callable[[Item], str],
    edited: tuple[str, str, str, str],
) -> tuple[Item, ...]:
    """The scheduled motions (or questions) and the new ones after them; one edited under
    its id is refused (its debates so far were about the old one)."""
    known: dict[str, Item] = {item.id: item for item in scheduled}
    flag, kind, differs, expected = edited
    for item in asked:
        old = known.get(item.id)
        if old is not None and sha256(old) != sha256(item):
            was = old.text if isinstance(old, Motion) else old.question
            raise ConfigError(f"{flag}: {kind} {item.id!r}",
                              f"{differs} differs from the one this tournament scheduled ({was!r})",
                              expected)  # fmt: skip
    return scheduled + tuple(item for item in asked if item.id not in known)


def pairs_of(models: Iterable[str]) -> tuple[tuple[str, str], ...]:
    ordered = sorted(set(models))
    return tuple((a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :])


def slug(model: str) -> str:
    return _SLUG.sub("-", model).strip("-")


def pair_task_name(a: str, b: str) -> str:
    """The Inspect task of one head-to-head: its logs, and its name in `inspect view`."""
    return f"{slug(a)}_vs_{slug(b)}"


def parse_names(text: str, flag: str, *, minimum: int) -> tuple[str, ...]:
    """A comma-separated list of model names, each once."""
    names = [part.strip() for part in text.split(",")]
    if any(not name for name in names):
        raise ConfigError(flag, f"an empty name in {text!r}", "names separated by single commas")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ConfigError(flag, f"{name} is listed twice", "each model once")
        if "/" not in name:
            raise ConfigError(
                flag, f"{name!r} has no provider", "PROVIDER/MODEL, e.g. ollama/qwen3:8b"
            )
        seen.add(name)
    if len(names) < minimum:
        raise ConfigError(
            flag, f"{len(names)} model(s) ({text})", f"at least {minimum}, separated by commas"
        )
    slugs: dict[str, str] = {}
    for name in names:
        other = slugs.setdefault(slug(name), name)
        if other != name:
            raise ConfigError(
                flag, f"{other} and {name} give the same task name {slug(name)!r}",
                "model names that differ in a letter or digit",
            )  # fmt: skip
    return tuple(names)


def parse_task_args(
    items: Iterable[str], allowed: Iterable[str], owned: Mapping[str, str]
) -> dict[str, Any]:
    """`-T key=value` pairs, values read as YAML scalars (as Inspect reads them).

    `owned` maps keys the tournament sets itself to the flag to use instead.
    """
    allowed = set(allowed)
    args: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"-T {item}", "no '='", "key=value, e.g. -T budget=800")
        if key in owned:
            raise ConfigError(f"-T {key}", "set by the tournament itself", owned[key])
        refuse_removed([key])
        if key not in allowed:
            raise ConfigError(f"-T {key}", "unknown option", f"one of {', '.join(sorted(allowed))}")
        if key in args:
            raise ConfigError(f"-T {key}", "given twice", "each option once")
        try:
            args[key] = yaml.safe_load(raw) if raw.strip() else None
        except yaml.YAMLError as exc:
            raise ConfigError(
                f"-T {key}", f"not a YAML value ({exc})", "a YAML scalar or list"
            ) from None
    return args


# Options that a debate takes per role ("{pro: N, con: M}"); in a tournament every
# model argues both roles, so a cap by role would differ by side, not by model.
PER_ROLE = ("budget", "reasoning_budget")
SLOT = "in a tournament a role is a slot in a pair, not a model"


def refuse_role_mappings(task_args: Mapping[str, Any]) -> None:
    """One number for every debater, never a mapping by role."""
    for key in PER_ROLE:
        value = task_args.get(key)
        if isinstance(value, Mapping):
            raise ConfigError(
                f"-T {key}",
                f"a mapping by role ({', '.join(map(str, value))})",
                f"one number for every debater: {SLOT}",
            )


def first_difference(there: Any, here: Any, path: str = "") -> str | None:
    """The first setting that differs between two identities, in words."""
    if isinstance(there, dict) and isinstance(here, dict):
        for key in sorted({*there, *here}):
            found = first_difference(
                there.get(key), here.get(key), f"{path}.{key}" if path else key
            )
            if found:
                return found
        return None
    if there != here:
        name = path.removeprefix("settings.")
        name = f"-T {name.removeprefix('task_args.')}" if name.startswith("task_args.") else name
        return f"{name} is {_shown(there)} there, {_shown(here)} here"
    return None


def _shown(value: Any) -> str:
    if value is None:
        return "not set"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)
