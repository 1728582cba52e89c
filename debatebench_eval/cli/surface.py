"""What each registered task, scorer and solver accepts, and how each option is documented.

One source for `debatebench-eval list`, the generated reference pages and the
check of the commands quoted in the docs: a factory's options are its
signature (name, type, default) with the meaning from its docstring's `Args:`;
its option group's keys are the group's fields. The names a factory accepts
beyond its signature (Python keywords such as `with`, the groups' keys, each
an option of its own) are the same constants the factory itself checks
against, so none is kept by hand here.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

from pydantic.fields import FieldInfo

from debatebench_eval._registry import ALIAS_PREFIX, SCORERS, SOLVERS, TASKS
from debatebench_eval.core._inspect import registry_info
from debatebench_eval.core.options import OptionGroup
from debatebench_eval.core.run_options import PROBE_ONLY, RUN_KEYS, RunOptions
from debatebench_eval.debating.task import DEBATE_ARGS
from debatebench_eval.interop.judge_task import JUDGE_TASK_ARGS
from debatebench_eval.judging.options import JudgeCalls, JudgingOptions
from debatebench_eval.known_answer.orders import OversightJudging
from debatebench_eval.known_answer.task import OWN_ARGS as OVERSIGHT_ARGS
from debatebench_eval.protocols.options import DELIBERATION_KEYS, DeliberationOptions
from debatebench_eval.protocols.solver import DELIBERATE_ARGS
from debatebench_eval.protocols.tasks import ADJUDICATE_ARGS, PANEL_ARGS
from debatebench_eval.truth_crucible.options import CRUCIBLE_RUN_KEYS, ScoringOptions
from debatebench_eval.truth_crucible.options import DEBATE_ARGS as CRUCIBLE_ARGS
from debatebench_eval.validation.fact_check_scorer import PLANTED_JUDGING
from debatebench_eval.validation.sensitivity_scorer import SENSITIVITY_JUDGING
from debatebench_eval.validation.speech_task import VALIDATION_ARGS

# The judging groups, each named for what it sets, a base before the groups that
# extend it: `list` and the reference document a key once, on the group that declares it.
JUDGING_GROUPS: tuple[tuple[type[OptionGroup], str], ...] = (
    (JudgeCalls, "the judge's calls"),
    (JudgingOptions, "rubric judging"),
    (ScoringOptions, "crucible scoring"),
    (OversightJudging, "known-answer judging"),
)


@dataclass(frozen=True)
class Accepts:
    """A factory's judging group (if any), the group keys it reads (None: all) and the
    names it takes besides its signature's; `flat`: the other groups (`RunOptions`),
    each with the keys it reads, shown with its own options."""

    group: type[OptionGroup] | None = None
    group_keys: tuple[str, ...] | None = None
    extra: tuple[str, ...] = ()
    flat: tuple[tuple[type[OptionGroup], tuple[str, ...]], ...] = ()

    def group_name(self) -> str | None:
        return None if self.group is None else self.group.GROUP


_RUN = ((RunOptions, RUN_KEYS),)
_PROBE = ((RunOptions, PROBE_ONLY),)
_CRUCIBLE_RUN = ((RunOptions, CRUCIBLE_RUN_KEYS),)
_DELIBERATION = (*_RUN, (DeliberationOptions, DELIBERATION_KEYS))

# Keyed by the short name. Every registered object needs a row when it has
# `**unknown` (tests/cli/test_surface.py fails otherwise): what it reads from
# there is only what its own code says.
_ACCEPTS: dict[str, Accepts] = {
    "debate": Accepts(JudgingOptions, extra=DEBATE_ARGS, flat=_RUN),
    "judge": Accepts(JudgingOptions, extra=JUDGE_TASK_ARGS, flat=_PROBE),
    "judge_validation": Accepts(extra=VALIDATION_ARGS),
    "fact_check_validation": Accepts(JudgingOptions, PLANTED_JUDGING, flat=_PROBE),
    "judge_sensitivity": Accepts(JudgingOptions, SENSITIVITY_JUDGING, flat=_PROBE),
    "crucible": Accepts(
        ScoringOptions, extra=CRUCIBLE_ARGS, flat=((RunOptions, CRUCIBLE_RUN_KEYS),)
    ),
    "panel": Accepts(extra=PANEL_ARGS, flat=_DELIBERATION),
    "adjudicate": Accepts(JudgeCalls, ("judge_schema",), ADJUDICATE_ARGS, flat=_DELIBERATION),
    "oversight": Accepts(OversightJudging, extra=OVERSIGHT_ARGS, flat=_RUN),
    "judge_accuracy": Accepts(OversightJudging),
    "rubric": Accepts(JudgingOptions),
    "fact_check": Accepts(JudgingOptions),
    "planted_claims": Accepts(JudgingOptions),
    "rubric_sensitivity": Accepts(JudgingOptions),
    "crucible_score": Accepts(ScoringOptions),
    "deliberate": Accepts(extra=DELIBERATE_ARGS),
}


@dataclass(frozen=True)
class Option:
    """One option as the reference shows it."""

    name: str
    type: str
    default: str
    doc: str


@dataclass(frozen=True)
class Registered:
    """A task, scorer or solver as the user names it."""

    kind: str  # task, scorer, solver
    obj: Callable[..., Any]

    @property
    def short(self) -> str:
        return registry_info(self.obj).name.split("/", 1)[-1]

    @property
    def name(self) -> str:
        return f"{ALIAS_PREFIX}/{self.short}"

    @property
    def doc(self) -> str:
        return inspect.getdoc(self.obj) or ""

    @property
    def summary(self) -> str:
        return self.doc.splitlines()[0] if self.doc else ""

    @property
    def accepts(self) -> Accepts:
        return _ACCEPTS.get(self.short, Accepts())

    def options(self) -> list[Option]:
        """The signature's options, each with its meaning from the docstring's Args."""
        meanings = docstring_args(self.doc)
        own = [
            Option(name, _type_text(p.annotation), _default_text(p.default), meanings.get(name, ""))
            for name, p in _parameters(self.obj).items()
        ]
        return own + self.run_options()

    def run_options(self) -> list[Option]:
        """The keys of its other groups it reads, as the groups document them."""
        return [
            o for group, keys in self.accepts.flat for o in group_fields(group) if o.name in keys
        ]

    def group_keys(self) -> tuple[str, ...]:
        group = self.accepts.group
        if group is None:
            return ()
        keys = self.accepts.group_keys
        return group.option_keys() if keys is None else keys

    def option_names(self) -> frozenset[str]:
        """Every name accepted as `-T`/`-S key=value`: the signature, the extra names,
        and the groups' keys."""
        own = set(_parameters(self.obj)) | set(self.accepts.extra)
        for _, keys in self.accepts.flat:
            own |= set(keys)
        return frozenset(own | set(self.group_keys()))

    def takes_unknown(self) -> bool:
        return any(
            p.kind is inspect.Parameter.VAR_KEYWORD
            for p in inspect.signature(self.obj).parameters.values()
        )


def registered() -> list[Registered]:
    """Every task, scorer and solver, in the registry's order."""
    return [
        *(Registered("task", obj) for obj in TASKS),
        *(Registered("scorer", obj) for obj in SCORERS),
        *(Registered("solver", obj) for obj in SOLVERS),
    ]


def by_name(kind: str) -> dict[str, Registered]:
    """The objects of one kind under both names they are registered as."""
    found: dict[str, Registered] = {}
    for item in registered():
        if item.kind == kind:
            found[item.name] = item
            found[f"debatebench_eval/{item.short}"] = item
    return found


def group_fields(group: type[OptionGroup]) -> list[Option]:
    """A group's keys, each with its type, default and description."""
    return [_field_option(key, field) for key, field in group.model_fields.items()]


def args_section(doc: str) -> str:
    """The entries of a docstring's `Args:` section, as `list` prints them ('' if none)."""
    return _args_parts(doc)[0]


def after_args(doc: str) -> str:
    """The docstring's text after its `Args:` entries ('' if none): a note on all of them."""
    return _args_parts(doc)[1]


_ARG_LINE = re.compile(r"^(\s+)(\*{0,2}\w+)(?: \([^)]*\))?:\s?(.*)$")


def _args_parts(doc: str) -> tuple[str, str]:
    """The `Args:` entries, and what follows them: the first line that is neither an
    entry nor indented under one (a paragraph back at the margin) ends them."""
    if "Args:" not in doc:
        return "", ""
    lines = doc.split("Args:", 1)[1].rstrip().splitlines()
    indent: int | None = None
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if indent is None and _ARG_LINE.match(line):
            indent = depth
        elif indent is None or (depth <= indent and not _ARG_LINE.match(line)):
            return "\n".join(lines[:number]).rstrip(), "\n".join(lines[number:]).strip()
    return "\n".join(lines), ""


def docstring_args(doc: str) -> dict[str, str]:
    """Google-style `Args:` entries as one line of text each."""
    entries: dict[str, list[str]] = {}
    indent: int | None = None
    current: list[str] | None = None
    for line in args_section(doc).splitlines():
        match = _ARG_LINE.match(line)
        if match and (indent is None or len(match.group(1)) == indent):
            indent = len(match.group(1))
            current = entries.setdefault(match.group(2).lstrip("*"), [])
            current.append(match.group(3).strip())
        elif current is not None and line.strip():
            current.append(line.strip())
    return {name: " ".join(words) for name, words in entries.items()}


@dataclass(frozen=True)
class GroupDoc:
    """A judging group as `list` and the reference document it: the keys it declares
    (not those of its base, documented there) and who reads one of them."""

    group: type[OptionGroup]
    what: str
    options: tuple[Option, ...]
    users: tuple[Registered, ...]
    base: type[OptionGroup] | None

    def users_text(self, mark: Callable[[str], str] = str) -> str:
        """Who reads it, by kind (`rubric` is a scorer and `fact_check` one too, beside
        the options of those names): `the tasks a, b and the scorers c`."""
        kinds = []
        for kind in ("task", "scorer", "solver"):
            names = [mark(item.short) for item in self.users if item.kind == kind]
            if names:
                kinds.append(f"the {kind}{'s' if len(names) > 1 else ''} {', '.join(names)}")
        return " and ".join(kinds)


def judging_groups() -> list[GroupDoc]:
    """Each of `JUDGING_GROUPS`, its users found from what each object accepts."""
    found = []
    for group, what in JUDGING_GROUPS:
        base = next((b for b, _ in JUDGING_GROUPS if b is not group and issubclass(group, b)), None)
        # A key the group declares again differently (its own default, say) is its own.
        inherited = set(group_fields(base)) if base else set()
        own = tuple(o for o in group_fields(group) if o not in inherited)
        keys = {o.name for o in own}
        users = tuple(
            item
            for item in registered()
            if item.accepts.group is not None
            and issubclass(item.accepts.group, group)
            and keys & set(item.group_keys())
        )
        found.append(GroupDoc(group, what, own, users, base))
    return found


def _parameters(obj: Callable[..., Any]) -> dict[str, inspect.Parameter]:
    return {
        name: p
        for name, p in inspect.signature(obj).parameters.items()
        if p.kind not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    }


def _type_text(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty:
        return ""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return _readable(str(text or annotation))


def _default_text(default: Any) -> str:
    if default is inspect.Parameter.empty:
        return "required"
    return repr(default) if not isinstance(default, str) else f'"{default}"'


def _field_option(key: str, field: FieldInfo) -> Option:
    built_in = field.default_factory is not None
    default = "(built in)" if built_in else _default_text(field.default)
    return Option(key, _annotation_text(field.annotation), default, field.description or "")


def _annotation_text(annotation: Any) -> str:
    """A field's type as a reader says it: each of a union's members (whose own
    `__name__` is the bare word `Union`), a literal as its values."""
    origin = get_origin(annotation)
    if origin in (Union, UnionType):
        return " or ".join(_annotation_text(member) for member in get_args(annotation))
    if origin is Literal:
        return " or ".join(f'"{value}"' for value in get_args(annotation))
    return _readable(getattr(annotation, "__name__", None) or str(annotation))


def _readable(text: str) -> str:
    """A type as a reader says it: `str or None` (a table cell cannot hold a bare |)."""
    return text.replace("typing.", "").replace("NoneType", "None").replace(" | ", " or ")
