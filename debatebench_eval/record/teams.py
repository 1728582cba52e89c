"""Teams: a debater's persona (identity only, never a model or a budget).

A team file is YAML with `id`, `name`, `voice`, `stance`, `values` and an
optional `corpus` (a JSONL path relative to the team file), or a Markdown file
with the same keys as YAML front matter and the persona's brief as its body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import BeforeValidator, model_validator

from debatebench_eval.core.config_file import ConfigFile, Said, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.front_matter import split_front_matter
from debatebench_eval.core.reply_model import expected_error
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.yamlio import parse_yaml

# Properties of a run, not of a persona: a team must debate under any model.
RUN_KEYS = ("model", "base_url", "budget", "prep_budget", "side")
BUILTIN_TEAMS = {"advocate": "advocate.yaml", "skeptic": "skeptic.yaml"}


def _values(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise expected_error("a list of non-empty strings")
    return tuple(v.strip() for v in value)


Text = Annotated[str, text()]


class TeamFile(ConfigFile):
    """A team file's keys (a Markdown team's front matter)."""

    id: Text
    name: Text
    voice: Text
    stance: Text
    values: Annotated[
        tuple[str, ...], BeforeValidator(_values), Said("a list of non-empty strings")
    ]
    # A JSONL path, resolved against the team file.
    corpus: Annotated[str | None, text("a path to a JSONL file")] = None

    @model_validator(mode="before")
    @classmethod
    def _no_run_setting(cls, data: Any) -> Any:
        for key in RUN_KEYS if isinstance(data, dict) else ():
            if key in data:
                raise expected_error(
                    "it on the run (task argument or run.yaml team entry), not in the team file",
                    f"'{key}' is a run setting, not part of a team",
                    key,
                )
        return data


@dataclass(frozen=True)
class Team:
    id: str
    name: str
    voice: str
    stance: str
    values: tuple[str, ...]
    corpus: str | None = None
    brief: str | None = None
    # How the run named the team (a built-in name, or the path as written),
    # and where its file is: a corpus is found next to the file.
    file: str = field(default="", compare=False)
    path: str = field(default="", compare=False)

    def snapshot(self) -> dict[str, Any]:
        """The team as recorded in a transcript (stays readable if the file changes)."""
        return {
            "id": self.id,
            "name": self.name,
            "voice": self.voice,
            "stance": self.stance,
            "values": list(self.values),
            "corpus": self.corpus,
            "brief": self.brief,
        }


def resolve_team(spec: str, *, base: Path | None = None) -> Team:
    """Load a team by built-in name (`advocate`, `skeptic`) or by path."""
    if spec in BUILTIN_TEAMS:
        return load_team(data_dir("tasks") / "teams" / BUILTIN_TEAMS[spec], label=spec)
    path = Path(spec).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    return load_team(path, label=spec)


def load_team(path: Path, *, label: str | None = None) -> Team:
    """Load and validate one team file (.yaml/.yml or .md with front matter)."""
    where = str(path)
    if not path.is_file():
        raise ConfigError(where, "team file not found", "a team file (.yaml, .yml or .md)")
    text = path.read_text(encoding="utf-8")
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        data, brief = parse_yaml(text, where, "a YAML mapping of team keys"), None
    elif suffix == ".md":
        data, brief = _parse_markdown(text, where)
    else:
        raise ConfigError(where, f"unknown extension {suffix!r}", ".yaml, .yml or .md")
    team = _team_from_mapping(data, where, brief)
    _check_corpus(team, path)
    named = str(path) if label is None else label
    return Team(**{**team.__dict__, "file": named, "path": str(path.resolve())})


def _parse_markdown(text: str, where: str) -> tuple[Any, str]:
    data, brief = split_front_matter(text, where, "team keys")
    if not brief:
        raise ConfigError(
            where, "the persona body is empty", "the persona's brief below the front matter"
        )
    return data, brief


def _team_from_mapping(data: Any, where: str, brief: str | None) -> Team:
    team = parse_file(TeamFile, data, where)
    return Team(**team.model_dump(), brief=brief)


def _check_corpus(team: Team, path: Path) -> None:
    # A corpus is resolved against the team file, so a team directory can be
    # moved as a whole.
    if team.corpus is not None and not (path.parent / team.corpus).is_file():
        raise ConfigError(
            f"{path}: corpus",
            f"corpus file {team.corpus!r} not found next to the team file",
            "a JSONL file path relative to the team file",
        )
