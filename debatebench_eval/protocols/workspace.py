"""Where personas and tables come from, and the index of all of them.

Three roots, in order: the nearest `.heurema/debate/` walking up from the
working directory (heurema's own discovery, so its workspaces are read as
they are), the nearest folder holding `debatebench-workspace.yml` (this
project's workspace, made by `debatebench-eval init`, with `personas/` and
`tables/`), and the personas and tables shipped with the package. An id
found in both user roots is an error naming both files; the shipped ones
are a fallback that a user's own persona or table of the same id replaces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from debatebench_eval.core.config_file import ConfigFile, VersionOne, parse_file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.resources import data_dir
from debatebench_eval.core.yamlio import load_yaml
from debatebench_eval.protocols.personas import Persona, parse_persona, valid_segment
from debatebench_eval.protocols.tables import Table, parse_table

V = TypeVar("V", Persona, Table)
HEUREMA_DIR = Path(".heurema") / "debate"
WORKSPACE_MARKER = "debatebench-workspace.yml"


@dataclass(frozen=True)
class Root:
    kind: str  # "heurema", "workspace" or "bundled"
    path: Path


@dataclass(frozen=True)
class Layer:
    """The personas and tables of the user's roots, or of the shipped ones."""

    personas: dict[str, Persona] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)


@dataclass(frozen=True)
class Index:
    user: Layer
    bundled: Layer
    roots: tuple[Root, ...]

    @property
    def has_workspace(self) -> bool:
        """Whether a user's workspace was found (or given): its files then decide."""
        return any(root.kind != "bundled" for root in self.roots)

    def workspace_folders(self) -> str:
        return ", ".join(str(root.path) for root in self.roots if root.kind != "bundled")

    def table(self, name: str) -> Table | None:
        return self.user.tables.get(name) or self.bundled.tables.get(name)

    def table_names(self) -> list[str]:
        return sorted({*self.user.tables, *self.bundled.tables})

    def shadowed(self) -> list[str]:
        """Shipped ids a user's file replaces (recorded with each run)."""
        personas = [f"persona {p}" for p in self.bundled.personas if p in self.user.personas]
        tables = [f"table {t}" for t in self.bundled.tables if t in self.user.tables]
        return sorted(personas + tables)


def bundled_root() -> Root:
    return Root("bundled", data_dir("tasks"))


def discover_roots(start: Path, workspace: str | None = None, flag: str = "-T") -> tuple[Root, ...]:
    """The user roots (from `start` upward, or in `workspace` alone) and the shipped one."""
    if workspace is not None:
        return (*_given_roots(Path(workspace).expanduser(), f"{flag} workspace"), bundled_root())
    found: list[Root] = []
    heurema = _nearest(start, lambda d: (d / HEUREMA_DIR).is_dir())
    if heurema is not None:
        found.append(Root("heurema", heurema / HEUREMA_DIR))
    ours = _nearest(start, lambda d: (d / WORKSPACE_MARKER).is_file())
    if ours is not None:
        check_marker(ours / WORKSPACE_MARKER)
        found.append(Root("workspace", ours))
    return (*found, bundled_root())


def _given_roots(folder: Path, label: str) -> list[Root]:
    if not folder.is_dir():
        raise ConfigError(label, f"{folder} is not a folder", "a folder with personas/ and tables/")
    roots = []
    if (folder / HEUREMA_DIR).is_dir():
        roots.append(Root("heurema", folder / HEUREMA_DIR))
    if (folder / "personas").is_dir() or (folder / "tables").is_dir():
        roots.append(Root("workspace", folder))
    if not roots:
        raise ConfigError(
            label,
            f"{folder} has no personas/, tables/ or .heurema/debate/",
            "a workspace made by debatebench-eval init, or a heurema workspace",
        )
    return roots


def _nearest(start: Path, holds: Callable[[Path], bool]) -> Path | None:
    for folder in (start.resolve(), *start.resolve().parents):
        if holds(folder):
            return folder
    return None


class WorkspaceMarker(ConfigFile):
    """debatebench-workspace.yml: `version: 1`, nothing else."""

    version: VersionOne


def check_marker(path: Path) -> None:
    parse_file(WorkspaceMarker, load_yaml(path, "version: 1"), str(path))


def load_index(roots: tuple[Root, ...]) -> Index:
    user = Layer()
    bundled = Layer()
    for root in roots:
        layer = bundled if root.kind == "bundled" else user
        for persona in _personas(root.path / "personas"):
            _add(layer.personas, persona.id, persona, persona.file, "persona")
        for table in _tables(root.path / "tables"):
            _add(layer.tables, table.name, table, table.file, "table")
    return Index(user=user, bundled=bundled, roots=roots)


def _add(into: dict[str, V], key: str, value: V, file: str, what: str) -> None:
    if key in into:
        other = getattr(into[key], "file", "")
        raise ConfigError(
            file, f"{what} id {key!r} is also defined in {other}", f"unique {what} ids"
        )
    into[key] = value


def _personas(folder: Path) -> Iterator[Persona]:
    """heurema's layout: `<name>.md` or `<namespace>/<name>.md`; hidden and
    non-Markdown files ignored; Markdown nested deeper is an error."""
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            _check_segment(entry, entry.name, "namespace")
            yield from _namespace(entry)
        elif entry.suffix == ".md":
            _check_segment(entry, entry.stem, "persona name")
            yield parse_persona(entry, entry.stem)


def _namespace(folder: Path) -> Iterator[Persona]:
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir():
            deeper = [p for p in entry.rglob("*.md") if not _hidden_below(p, entry)]
            if deeper:
                raise ConfigError(
                    str(deeper[0]),
                    "a persona nested two levels below personas/",
                    "personas/<name>.md or personas/<namespace>/<name>.md",
                )
        elif entry.suffix == ".md":
            _check_segment(entry, entry.stem, "persona name")
            yield parse_persona(entry, f"{folder.name}/{entry.stem}")


def _hidden_below(path: Path, top: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(top).parts)


def _check_segment(path: Path, name: str, what: str) -> None:
    if not valid_segment(name):
        raise ConfigError(str(path), f"invalid {what} {name!r}", "only letters, digits, - and _")


def _tables(folder: Path) -> Iterator[Table]:
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.is_dir() or entry.suffix != ".yml":
            continue
        _check_segment(entry, entry.stem, "table name")
        yield parse_table(entry, entry.stem)
