"""Rows of a table-like file (YAML list, JSONL, CSV), each with where it came from.

Shared by every file of rows the project reads (motions, known-answer
questions): the row's place (`line 3`, `motions[2]`) travels with it, so the
model that checks the row names the file, the line and the field.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import load_yaml

ROW_SUFFIXES = ".yaml, .yml, .jsonl or .csv"


def read_rows(path: Path, list_key: str, columns: Iterable[str]) -> list[tuple[str, Any]]:
    """Every row of the file with its place; `list_key` is the YAML mapping's list
    (`motions:`), `columns` the CSV header's allowed names."""
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        return yaml_rows(path, list_key)
    if suffix in (".jsonl", ".ndjson"):
        return jsonl_rows(path)
    if suffix == ".csv":
        return csv_rows(path, tuple(columns))
    raise ConfigError(str(path), f"unknown extension {suffix!r}", ROW_SUFFIXES)


def yaml_rows(path: Path, list_key: str) -> list[tuple[str, Any]]:
    data = load_yaml(path, f"a YAML list of {list_key}")
    if isinstance(data, dict) and set(data) == {list_key}:
        data = data[list_key]
    if not isinstance(data, list):
        raise ConfigError(
            str(path),
            f"top level is {type(data).__name__}",
            f"a list, or a mapping with '{list_key}'",
        )
    return [(f"{list_key}[{i}]", row) for i, row in enumerate(data)]


def jsonl_rows(path: Path) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append((f"line {number}", json.loads(line)))
        except json.JSONDecodeError as exc:
            raise ConfigError(
                f"{path}: line {number}", f"invalid JSON ({exc.msg})", "one JSON object"
            ) from None
    return rows


def csv_rows(path: Path, columns: tuple[str, ...]) -> list[tuple[str, Any]]:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        unknown = [name for name in reader.fieldnames or [] if name not in columns]
        if unknown:
            raise ConfigError(str(path), f"unknown column(s) {unknown}", f"columns from {columns}")
        # Line 1 is the header, so data rows start at line 2.
        return [
            (f"line {i}", {k: v for k, v in row.items() if v}) for i, row in enumerate(reader, 2)
        ]
