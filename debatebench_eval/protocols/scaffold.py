"""A workspace on disk: `init` lays out the starter files, `new` adds a persona.

`init` writes, in the current folder, `debatebench-workspace.yml` (the
marker by which runs find the workspace), `personas/` (proposer, skeptic,
synthesizer), `tables/default.yml`, `teams/` (the debate's two teams) and
`motions/starter.yaml`, all copied from the shipped files. A file that is
already there is never touched, whatever it holds: running it again only
reports what it kept. `new` writes a persona skeleton with heurema's naming
rules into the nearest workspace.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.protocols.personas import ROLES, valid_segment
from debatebench_eval.protocols.workspace import HEUREMA_DIR, WORKSPACE_MARKER, check_marker

MARKER_TEXT = (
    "# A debatebench-eval workspace: runs started in this folder or below read\n"
    "# personas/ and tables/ here (debatebench-eval init made it).\n"
    "version: 1\n"
)
STARTER_MOTIONS = 3
_COPIED = (
    "personas/proposer.md",
    "personas/skeptic.md",
    "personas/synthesizer.md",
    "tables/default.yml",
    "teams/advocate.yaml",
    "teams/skeptic.yaml",
)


@dataclass(frozen=True)
class Written:
    path: Path
    created: bool
    # For a kept file: whether it still holds the starter text.
    unchanged: bool = False

    def line(self) -> str:
        if self.created:
            return f"created {self.path}"
        state = "the starter, unchanged" if self.unchanged else "edited; left as it is"
        return f"kept {self.path} (exists: {state})"


def starter_files() -> dict[str, str]:
    """Each file `init` writes, relative to the workspace, with its text."""
    shipped = data_dir("tasks")
    files = {WORKSPACE_MARKER: MARKER_TEXT}
    for relative in _COPIED:
        files[relative] = (shipped / relative).read_text(encoding="utf-8")
    files["motions/starter.yaml"] = _starter_motions(shipped / "motions" / "default.yaml")
    return files


def _starter_motions(path: Path) -> str:
    data = load_yaml(path, "the shipped motion set")
    header = (
        "# A few motions to start from:\n"
        "#   inspect eval debatebench/debate -T motions=motions/starter.yaml\n"
    )
    chosen = {"motions": data["motions"][:STARTER_MOTIONS]}
    return header + yaml.safe_dump(chosen, sort_keys=False, allow_unicode=True, width=100)


def init_workspace(folder: Path) -> list[Written]:
    written = []
    for relative, text in starter_files().items():
        path = folder / relative
        if path.exists():
            same = path.is_file() and path.read_text(encoding="utf-8") == text
            written.append(Written(path, created=False, unchanged=same))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(Written(path, created=True))
    return written


def persona_segments(name: str) -> list[str]:
    """heurema's validatePersonaID: `name` or `namespace/name`."""
    where = "persona name"
    if not name:
        raise ConfigError(where, "empty", "a name or namespace/name")
    if Path(name).is_absolute():
        raise ConfigError(where, f"{name!r} is absolute", "a relative name or namespace/name")
    if "\\" in name:
        raise ConfigError(where, f"{name!r} uses '\\'", "'/' as the namespace separator")
    segments = name.split("/")
    if len(segments) > 2:
        raise ConfigError(where, f"{name!r} is too deep", "name or namespace/name")
    if not all(valid_segment(s) for s in segments):
        raise ConfigError(
            where, f"{name!r}", "non-empty segments of letters, digits, hyphens and underscores"
        )
    return segments


def persona_skeleton(name: str, role: str) -> str:
    return (
        f"---\nversion: 1\nrole: {role}\nmodel: inherit\neffort: medium\n---\n"
        f"You are {name}. Edit this system prompt to describe the persona's role and perspective.\n"
    )


def new_persona(start: Path, name: str, role: str) -> Path:
    """Write a persona skeleton into the nearest workspace (ours, else heurema's)."""
    segments = persona_segments(name)
    if role not in ROLES:
        raise ConfigError("--role", f"got {role!r}", "debater or synthesizer")
    root = _workspace_root(start)
    path = root.joinpath("personas", *segments).with_suffix(".md")
    if path.exists():
        raise ConfigError(str(path), f"persona {name!r} already exists", "a new persona name")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(persona_skeleton(name, role), encoding="utf-8")
    return path


def _workspace_root(start: Path) -> Path:
    for folder in (start.resolve(), *start.resolve().parents):
        if (folder / WORKSPACE_MARKER).is_file():
            check_marker(folder / WORKSPACE_MARKER)
            return folder
        if (folder / HEUREMA_DIR).is_dir():
            return folder / HEUREMA_DIR
    raise ConfigError(
        str(start), "no workspace here or above", "one: run debatebench-eval init first"
    )
