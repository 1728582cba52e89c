"""The schedule: which models debate which items, and which tournament that is.

A tournament is a round robin over unordered model pairs, every pair debating
every item twice with the sides exchanged: the motions of a rubric debate, the
questions of a known-answer one (the task kind says which: `tournament.kind`).
Two hashes name it. The identity (settings and judges) says which tournament a
log folder holds: a folder never mixes two. The schedule hash (identity, models,
items) says how far it has grown: models and items may be added later and only
what is new runs.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from debatebench_eval.core.arguments import refuse_removed
from debatebench_eval.core.errors import ConfigError

SCHEMA = 1
_SLUG = re.compile(r"[^A-Za-z0-9.]+")


def canonical_json(value: Any) -> str:
    """One spelling per value, so equal settings hash equal on any machine."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()


@dataclass(frozen=True)
class Item:
    """One thing every pair debates (a motion, a question), as the tournament records
    it: its id, a digest of its content (a later edit under the id shows there), its
    record in the folder, the item itself, and its text for messages."""

    id: str
    sha256: str
    record: dict[str, Any] = field(compare=False)
    value: Any = field(compare=False)
    text: str = field(compare=False, default="")


@dataclass(frozen=True)
class Settings:
    """Everything that makes two debates comparable: a change is another tournament.
    The task kind says which settings those are (`identity`: its own fields, as they
    enter the hash); the limits are every kind's."""

    task: str
    identity: dict[str, Any] = field(hash=False)
    # Dollars a debate may spend before Inspect stops it (it enters each task's identity).
    cost_limit: float | None = None
    # Seconds to wait for one model reply (Inspect's timeout); None: the task's default.
    timeout: int | None = None

    def as_dict(self) -> dict[str, Any]:
        limits = {
            # Only when set: a tournament without one keeps the identity it had.
            **({"cost_limit": self.cost_limit} if self.cost_limit is not None else {}),
            **({"timeout": self.timeout} if self.timeout is not None else {}),
        }
        return {**self.identity, **limits}

    @property
    def task_args(self) -> dict[str, Any]:
        return dict(self.identity.get("task_args") or {})

    @property
    def seed(self) -> int:
        return int(self.identity["seed"])

    @property
    def allow_self_judging(self) -> bool:
        return bool(self.identity["allow_self_judging"])

    def generate_settings(self) -> dict[str, Any]:
        """Inspect's seed and timeout of every debate (they enter its task identity)."""
        return {"seed": self.seed, **({"timeout": self.timeout} if self.timeout else {})}


# A matchup an adaptive schedule chose: a pair (sorted) and an item, both sides.
Chosen = tuple[str, str, str]


@dataclass(frozen=True)
class Schedule:
    """Models (sorted), judges (in the order given: the first one fact-checks), the
    items (in the order first scheduled, under the manifest's `item_key`), settings,
    and which pairs debate which items: every pair every item (a round robin, `chosen`
    None), or the matchups an adaptive schedule chose, in the order chosen. No I/O."""

    models: tuple[str, ...]
    judges: tuple[str, ...]
    items: tuple[Item, ...]
    settings: Settings
    item_key: str = "motions"
    chosen: tuple[Chosen, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "models", tuple(sorted(self.models)))

    def identity(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "settings": self.settings.as_dict(), "judges": list(self.judges)}

    @property
    def identity_hash(self) -> str:
        return digest(self.identity())

    @property
    def schedule_hash(self) -> str:
        digests = [item.sha256 for item in self.items]
        # A tournament of motions hashed its motions alone; any other kind's items come
        # beside an empty motion list, and a round robin names no matchups: every folder
        # keeps the hash it was planned with.
        hashed: dict[str, Any] = {"motions": digests} if self.item_key == "motions" else {
            "motions": [], self.item_key: digests}  # fmt: skip
        if self.chosen is not None:
            hashed["matchups"] = [list(c) for c in self.chosen]
        return digest({"identity": self.identity_hash, "models": list(self.models), **hashed})

    @property
    def adaptive(self) -> bool:
        return self.chosen is not None

    def matchups(self) -> tuple[Chosen, ...]:
        """Every scheduled matchup: the chosen ones, or every pair on every item."""
        if self.chosen is not None:
            return self.chosen
        return tuple((a, b, item.id) for a, b in self.pairs for item in self.items)

    def pair_items(self, a: str, b: str) -> tuple[Item, ...]:
        """The items the pair debates, in the order they were scheduled."""
        if self.chosen is None:
            return self.items
        by_id = {item.id: item for item in self.items}
        first, second = sorted((a, b))
        return tuple(by_id[i] for x, y, i in self.chosen if (x, y) == (first, second))

    @property
    def scheduled_pairs(self) -> tuple[tuple[str, str], ...]:
        """The pairs that debate at least one item."""
        if self.chosen is None:
            return self.pairs
        found = {(a, b) for a, b, _ in self.chosen}
        return tuple(p for p in self.pairs if p in found)

    def with_chosen(self, added: Iterable[Chosen]) -> Schedule:
        """This schedule with more chosen matchups (a round robin becomes the matchups it
        holds, then these): each matchup once, in the order first chosen."""
        known = list(self.matchups())
        seen = set(known)
        for a, b, item in added:
            first, second = sorted((a, b))
            matchup = (first, second, item)
            if matchup not in seen:
                seen.add(matchup)
                known.append(matchup)
        return replace(self, chosen=tuple(known))

    @property
    def item_ids(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.items)

    @property
    def eval_set_id(self) -> str:
        # Every worker stamps its logs with the plan's id (selection mode).
        return f"debatebench-{self.identity_hash[:16]}"

    @property
    def pairs(self) -> tuple[tuple[str, str], ...]:
        return pairs_of(self.models)

    def debates(self) -> int:
        return len(self.matchups()) * 2

    def grown(self, other: Schedule) -> Schedule:
        """This schedule with `other`'s models and items added (the schedule only grows:
        a dataset that shrank would make Inspect re-run a whole pair)."""
        if other.identity_hash != self.identity_hash:
            raise ValueError("only a schedule of the same tournament can be merged")
        known = {item.id: item for item in self.items}
        noun = self.item_key.removesuffix("s")
        for item in other.items:
            old = known.get(item.id)
            if old is not None and old.sha256 != item.sha256:
                raise ConfigError(
                    f"--{self.item_key}: {noun} {item.id!r}",
                    f"its content differs from the one this tournament scheduled ({old.text!r})",
                    f"the {noun} unchanged, or the new one under a new id",
                )  # fmt: skip
        added = tuple(item for item in other.items if item.id not in known)
        grown = replace(
            self, models=tuple(sorted({*self.models, *other.models})), items=self.items + added
        )
        if self.chosen is None and other.chosen is None:
            return grown  # a round robin grows as one
        # Once a schedule is made of chosen matchups it stays so: a run without
        # --adaptive completes the round robin, an adaptive one adds what it chooses.
        explicit = replace(grown, chosen=self.matchups())
        if other.chosen is None:
            return explicit.with_chosen(replace(grown, chosen=None).matchups())
        return explicit.with_chosen(other.chosen)


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
