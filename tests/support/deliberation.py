"""Helpers for deliberation tests: persona, table and protocol files on disk,
scripted participants, and a deliberation run into a fresh log directory."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DONE = '```signal\n{"position": "ship it", "objections": [], "done": true}\n```'


def objecting(*objections: str) -> str:
    return (
        "```signal\n"
        + json.dumps({"position": "wait", "objections": list(objections), "done": False})
        + "\n```"
    )


def persona(
    folder: Path,
    pid: str,
    *,
    role: str = "debater",
    model: str = "inherit",
    body: str | None = None,
    **extra: str,
) -> Path:
    """Write personas/<pid>.md in heurema's format under `folder`."""
    path = folder / "personas" / f"{pid}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    fields = {"version": 1, "role": role, "model": model, "effort": "medium", **extra}
    front = "\n".join(f"{key}: {value}" for key, value in fields.items())
    path.write_text(f"---\n{front}\n---\n{body or f'You are {pid}.'}\n", encoding="utf-8")
    return path


def table(folder: Path, name: str, panel: list[str], synth: str | None = None) -> Path:
    path = folder / "tables" / f"{name}.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["version: 1", "panel:", *(f"  - {p}" for p in panel)]
    if synth:
        lines.append(f"synth: {synth}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def workspace(folder: Path) -> Path:
    """An empty debatebench workspace (the marker file only)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "debatebench-workspace.yml").write_text("version: 1\n", encoding="utf-8")
    return folder


def last_user_text(messages: list[Any]) -> str:
    return str(messages[-1].text)


def system_text(messages: list[Any]) -> str:
    return str(messages[0].text)
