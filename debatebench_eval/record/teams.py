"""Teams: a debater's persona (identity only, never a model or a budget).

A team file is YAML with `id`, `name`, `voice`, `stance`, `values` and an
optional `corpus` (a JSONL path relative to the team file), or a Markdown file
with the same keys as YAML front matter and the persona's brief as its body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.front_matter import split_front_matter
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.yamlio import parse_yaml

TEAM_KEYS = ("id", "name", "voice", "stance", "values", "corpus")
REQUIRED_TEAM_KEYS = ("id", "name", "voice", "stance", "values")
# Properties of a run, not of a persona: a team must debate under any model.
RUN_KEYS = ("model", "base_url", "budget", "prep_budget", "side")
BUILTIN_TEAMS = {"advocate": "advocate.yaml", "skeptic": "skeptic.yaml"}


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
        data, brief = _parse_yaml(text, where), None
    elif suffix == ".md":
        data, brief = _parse_markdown(text, where)
    else:
        raise ConfigError(where, f"unknown extension {suffix!r}", ".yaml, .yml or .md")
    team = _team_from_mapping(data, where, brief)
    _check_corpus(team, path)
    named = str(path) if label is None else label
    return Team(**{**team.__dict__, "file": named, "path": str(path.resolve())})


def _parse_yaml(text: str, where: str) -> dict[str, Any]:
    data = parse_yaml(text, where, "a YAML mapping of team keys")
    if not isinstance(data, dict):
        raise ConfigError(where, f"top level is {type(data).__name__}", "a mapping of team keys")
    return data


def _parse_markdown(text: str, where: str) -> tuple[dict[str, Any], str]:
    data, brief = split_front_matter(text, where, "team keys")
    if not brief:
        raise ConfigError(
            where, "the persona body is empty", "the persona's brief below the front matter"
        )
    return data, brief


def _team_from_mapping(data: dict[str, Any], where: str, brief: str | None) -> Team:
    for key in RUN_KEYS:
        if key in data:
            raise ConfigError(
                f"{where}: {key}",
                f"'{key}' is a run setting, not part of a team",
                "it on the run (task argument or run.yaml team entry), not in the team file",
            )
    unknown = sorted(set(data) - set(TEAM_KEYS))
    if unknown:
        raise ConfigError(where, f"unknown key(s) {unknown}", f"only {', '.join(TEAM_KEYS)}")
    missing = [key for key in REQUIRED_TEAM_KEYS if key not in data]
    if missing:
        raise ConfigError(
            where, f"missing key(s) {missing}", f"all of {', '.join(REQUIRED_TEAM_KEYS)}"
        )
    for key in ("id", "name", "voice", "stance"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise ConfigError(f"{where}: {key}", f"got {data[key]!r}", "a non-empty string")
    values = data["values"]
    if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
        raise ConfigError(f"{where}: values", f"got {values!r}", "a list of non-empty strings")
    corpus = data.get("corpus")
    if corpus is not None and (not isinstance(corpus, str) or not corpus.strip()):
        raise ConfigError(f"{where}: corpus", f"got {corpus!r}", "a path to a JSONL file")
    return Team(
        id=data["id"].strip(),
        name=data["name"].strip(),
        voice=data["voice"].strip(),
        stance=data["stance"].strip(),
        values=tuple(v.strip() for v in values),
        corpus=corpus,
        brief=brief,
    )


def _check_corpus(team: Team, path: Path) -> None:
    # A corpus is resolved against the team file, so a team directory can be
    # moved as a whole.
    if team.corpus is not None and not (path.parent / team.corpus).is_file():
        raise ConfigError(
            f"{path}: corpus",
            f"corpus file {team.corpus!r} not found next to the team file",
            "a JSONL file path relative to the team file",
        )
