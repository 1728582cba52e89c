"""Debates judged anywhere, read as tournament results so `rate` can rate them.

Two sources, one result per debate, exactly as a tournament's logs give them:

- an **outcomes table**, CSV (a header row) or JSONL (one object a line), with
  `motion`, `pro`, `con` and `winner` (`pro`, `con` or `tie`), and optionally
  one margin: `margin`, the winner's lead (more than 0 for a win), or
  `pro_margin`, the signed margin pro - con as some leaderboards publish it
  (its sign must agree with the winner); `judge`, and each side's length for
  the length control: `pro_words`/`con_words` or `pro_tokens`/`con_tokens`.
  Per-judge columns `judge:NAME` (instead of `judge`) give each judge's own
  verdict (`pro`, `con` or `tie`; empty: that judge did not read the debate),
  `winner` staying the panel's; with more than one judge a debate, the
  leaderboard adds the judge-aware rating.
  A tie is half a win for each side whatever margin its row gives (a judge's
  tie can come with unequal means: readings that disagreed); its margin counts
  as 0 in the mean margin;
- a **folder of debatebench 0.1.x files**, local or at any URL Inspect reads
  (`s3://bucket/folder`): each score file `NAME-scores.json` with its transcript
  `NAME.json` (what `export` writes) or `NAME-transcript.json` (what debatebench
  writes). The models come from the transcript, the totals, dimensions, winner
  and judge from the score file.

Matchups are formed as from our logs: a debate's pair is its two models in
sorted order, so the debate with the sides exchanged is its twin, and a matchup
counts only when both are there and scored (a missing twin is listed as
`missing`). A repeat of a debate (same models, sides and motion) keeps the
first and lists the rest as duplicates; a debate with the same model on both
sides is no matchup and is listed as skipped. A malformed row stops everything
with one message naming the file, the line and the column; a malformed score
file, the file and the key.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from debatebench_eval.core._inspect import file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.interop.transcript_file import load_json, read_transcript
from debatebench_eval.matches.results import DebateResult, JudgeView, SideStats
from debatebench_eval.record.protocol import SIDES
from debatebench_eval.record.store import DebateRecord
from debatebench_eval.runs.location import child, file_names
from debatebench_eval.tournament.debate_kind import FORFEITS, side_stats
from debatebench_eval.tournament.kind import Rated

REQUIRED = ("motion", "pro", "con", "winner")
OPTIONAL = (
    "margin", "pro_margin", "judge", "pro_words", "con_words", "pro_tokens", "con_tokens",
)  # fmt: skip
WINNERS = ("pro", "con", "tie")
JUDGE_COLUMN = "judge:"  # judge:NAME, that judge's own verdict
SCORES_SUFFIX = "-scores.json"
_MISSING_TWIN = "not in the source: a matchup needs both debates, sides exchanged"


@dataclass(frozen=True)
class Imported:
    """Debates judged elsewhere, as results, with what was left out and why."""

    kind: str  # "outcomes" or "debatebench"
    locations: list[str]
    results: list[DebateResult]
    skipped: list[dict[str, str]] = field(default_factory=list)
    duplicates: list[dict[str, object]] = field(default_factory=list)

    @property
    def models(self) -> tuple[str, ...]:
        return tuple(sorted({m for d in self.results for m in (d.pro, d.con)}))

    @property
    def judges(self) -> tuple[str, ...]:
        return tuple(sorted({v.judge for d in self.results for v in d.judges}))

    @property
    def motions(self) -> tuple[str, ...]:
        return tuple(sorted({d.motion for d in self.results}))


# --- the outcomes table ------------------------------------------------------------


def rated(source: Imported) -> Rated:
    """The debates as a leaderboard rates them, under a header with the keys a
    tournament's has where they mean something here."""
    pairs = sorted({d.pair for d in source.results})
    header = {
        "source": source.kind,
        "identity": {"judges": list(source.judges), "models": list(source.models)},
        "models": list(source.models),
        "motions": [{"id": m} for m in source.motions],
        "pairs": [list(p) for p in pairs],
        "folders": source.locations,
        "logs": [],
        "skipped_logs": source.skipped,
    }
    return Rated(header, source.models, source.judges, source.results, source.duplicates)


def read_outcomes(path: str) -> Imported:
    """Every row of a CSV or JSONL outcomes file (by its extension) as a result; a
    local path or any URL Inspect reads (s3://...)."""
    extension = PurePosixPath(path).suffix
    suffix = extension.lower()
    if suffix not in (".csv", ".jsonl"):
        raise ConfigError(f"--outcomes {path}", f"the extension is {extension or 'none'!r}",
                          "a .csv or .jsonl file")  # fmt: skip
    try:
        with file(path, "r") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"--outcomes {path}", f"cannot be read ({exc})",
                          "a readable UTF-8 file") from None  # fmt: skip
    rows = _csv_rows(path, text) if suffix == ".csv" else _jsonl_rows(path, text)
    debates, skipped = [], []
    for line, row in rows:
        debate = _outcome(path, line, row)
        if debate.pro == debate.con:
            skipped.append({"log": f"{path}:{line}", "why": _SELF_PLAY.format(debate.pro)})
        else:
            debates.append(debate)
    if not debates and not skipped:
        raise ConfigError(f"--outcomes {path}", "it has no rows", "one row per debate")
    return _imported("outcomes", [path], debates, skipped)


_SELF_PLAY = "the same model ({}) on both sides: no matchup"


def _csv_rows(path: str, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    reader = csv.reader(text.splitlines())
    header = [name.strip() for name in next(reader, [])]
    _check_columns(path, 1, header)
    for values in reader:
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            raise ConfigError(f"{path}, line {line}", f"{len(values)} values",
                              f"{len(header)}, one per column of the header")  # fmt: skip
        yield line, {k: (v.strip() or None) for k, v in zip(header, values, strict=True)}


def _jsonl_rows(path: str, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except ValueError as exc:
            raise ConfigError(f"{path}, line {line}", f"not JSON ({exc})",
                              "one JSON object a line") from None  # fmt: skip
        if not isinstance(row, dict):
            raise ConfigError(f"{path}, line {line}", f"a JSON {type(row).__name__}",
                              "one JSON object a line")  # fmt: skip
        _check_columns(path, line, list(row))
        yield line, row


def _check_columns(path: str, line: int, names: list[str]) -> None:
    known = (*REQUIRED, *OPTIONAL)
    for name in names:
        if name.startswith(JUDGE_COLUMN) and name[len(JUDGE_COLUMN) :].strip():
            continue
        if name not in known:
            raise ConfigError(f"{path}, line {line}, column {name!r}", "an unknown column",
                              f"one of {', '.join(known)}, or judge:NAME")  # fmt: skip
    if "judge" in names and any(n.startswith(JUDGE_COLUMN) for n in names):
        raise ConfigError(f"{path}, line {line}, column 'judge'", "given with judge:NAME columns",
                          "one judge (judge) or each judge's verdict (judge:NAME)")  # fmt: skip
    for name in REQUIRED:
        if name not in names:
            raise ConfigError(f"{path}, line {line}, column {name!r}", "it is missing",
                              f"the columns {', '.join(REQUIRED)} in every row")  # fmt: skip


def _outcome(path: str, line: int, row: dict[str, Any]) -> DebateResult:
    cell = _Cell(path, line, row)
    motion, pro, con = cell.text("motion"), cell.text("pro"), cell.text("con")
    winner = cell.text("winner").lower()
    if winner not in WINNERS:
        cell.fail("winner", f"got {row['winner']!r}", "pro, con or tie")
    margin = _lead(cell, winner)
    # A tie is a tie whatever its margin: equal totals, half a win each, a margin of 0.
    lead = 1.0 if margin is None else margin
    totals = {"pro": lead if winner == "pro" else 0.0, "con": lead if winner == "con" else 0.0}
    views = _views(cell, winner)
    sides: dict[str, SideStats] = {
        s: SideStats(words=cell.count(f"{s}_words"), output_tokens=cell.count(f"{s}_tokens"))
        for s in SIDES
    }
    pair = (min(pro, con), max(pro, con))
    return DebateResult(
        pair, motion, pro != pair[0], pro, con, "scored", totals=totals,
        dimensions={s: {} for s in SIDES},
        judges=views, sides=sides, margin_known=margin is not None, log=f"{path}:{line}",
        sample_id=str(line),
    )  # fmt: skip


def _views(cell: _Cell, winner: str) -> tuple[JudgeView, ...]:
    """The judge's reading (`judge`), or each judge's own (`judge:NAME`)."""
    if cell.row.get("judge") is not None:
        return (JudgeView(cell.text("judge"), True, winner, None, {}),)
    views = []
    for column, value in cell.row.items():
        if not column.startswith(JUDGE_COLUMN) or value is None or not str(value).strip():
            continue
        verdict = str(value).strip().lower()
        if verdict not in WINNERS:
            cell.fail(
                column, f"got {value!r}", "pro, con or tie (that judge's verdict), or nothing"
            )
        views.append(JudgeView(column[len(JUDGE_COLUMN) :].strip(), True, verdict, None, {}))
    return tuple(views)


def _lead(cell: _Cell, winner: str) -> float | None:
    """The winner's lead from `margin` (the lead itself) or `pro_margin` (pro - con,
    signed), the one the row gives; None when it gives neither."""
    if cell.row.get("margin") is not None and cell.row.get("pro_margin") is not None:
        cell.fail("pro_margin", "given with margin", "one of margin (the winner's lead) or "
                  "pro_margin (pro - con)")  # fmt: skip
    if cell.row.get("pro_margin") is None:
        lead = cell.number("margin")
        if winner != "tie" and lead == 0:
            cell.fail("margin", f"got 0 for a win by {winner}", "more than 0, or nothing")
        return lead
    signed = cell.number("pro_margin", signed=True)
    assert signed is not None
    sign = {"pro": 1, "con": -1}.get(winner)
    if sign is not None and signed * sign <= 0:
        cell.fail("pro_margin", f"got {signed:g} for a win by {winner}",
                  f"a number {'above' if sign > 0 else 'below'} 0 (pro - con)")  # fmt: skip
    return abs(signed)


@dataclass(frozen=True)
class _Cell:
    """One row's values, each checked with an error naming its line and column."""

    path: str
    line: int
    row: dict[str, Any]

    def fail(self, column: str, found: str, expected: str) -> None:
        raise ConfigError(f"{self.path}, line {self.line}, column {column!r}", found, expected)

    def text(self, column: str) -> str:
        value = self.row.get(column)
        if not isinstance(value, str) or not value.strip():
            self.fail(column, f"got {value!r}", "a non-empty text")
        return str(value).strip()

    def number(self, column: str, *, signed: bool = False) -> float | None:
        value = self.row.get(column)
        if value is None:
            return None
        try:
            found = float(value) if not isinstance(value, bool) else math.nan
        except ValueError:
            found = math.nan
        if not math.isfinite(found) or (found < 0 and not signed):
            self.fail(column, f"got {value!r}", "a number" if signed else "a number, 0 or more")
        return found

    def count(self, column: str) -> int:
        found = self.number(column)
        if found is None:
            return 0
        if found != int(found):
            self.fail(column, f"got {self.row[column]!r}", "a whole number, 0 or more")
        return int(found)


# --- a folder of debatebench files --------------------------------------------------


def is_debatebench_folder(folder: str) -> bool:
    """A folder (local or a URL) with debatebench score files and no tournament of ours."""
    names = file_names(folder)
    return (
        names is not None
        and "tournament.json" not in names
        and any(name.endswith(SCORES_SUFFIX) for name in names)
    )


def read_debatebench(folders: list[str]) -> Imported:
    """Every score file of the folders, with its transcript, as a result."""
    debates, skipped = [], []
    for folder in folders:
        names = file_names(folder) or set()
        for sheet_name in sorted(n for n in names if n.endswith(SCORES_SUFFIX)):
            name = sheet_name[: -len(SCORES_SUFFIX)]
            scores = child(folder, sheet_name)
            transcript = _transcript_of(folder, name, names)
            if transcript is None:
                skipped.append({"log": scores, "why": f"no transcript ({name}.json or "
                                f"{name}-transcript.json) beside it"})  # fmt: skip
                continue
            record = read_transcript(transcript)
            assert record.run is not None  # a transcript always has its run
            models = {s.side: s.model for s in record.run.sides}
            if models["pro"] == models["con"]:
                skipped.append({"log": scores, "why": _SELF_PLAY.format(models["pro"])})
                continue
            debates.append(_judged(record, load_json(scores), scores, models))
    return _imported("debatebench", list(folders), debates, skipped)


def _transcript_of(folder: str, name: str, names: set[str]) -> str | None:
    for candidate in (f"{name}.json", f"{name}-transcript.json"):
        if candidate in names:
            return child(folder, candidate)
    return None


def _judged(
    record: DebateRecord, sheet: dict[str, Any], file: str, models: dict[str, str]
) -> DebateResult:
    """One debate from its transcript and its debatebench score file (schema 2)."""
    assert record.run is not None
    sides = _sheet_sides(sheet, file)
    dimensions: dict[str, dict[str, float]] = {
        s: {n: d["score"] for n, d in sides[s]["dimensions"].items()} for s in SIDES
    }
    maxima = {n: d["max"] for n, d in sides["pro"]["dimensions"].items()}
    totals: dict[str, float] = {s: float(sides[s]["total"]) for s in SIDES}
    judge = sheet.get("judge_model")
    if not isinstance(judge, str) or not judge:
        raise ConfigError(f"{file}, key 'judge_model'", f"got {judge!r}", "the judge's name")
    winner = "tie" if totals["pro"] == totals["con"] else max(SIDES, key=lambda s: totals[s])
    fractions: dict[str, dict[str, float]] = {
        s: {n: v / maxima[n] for n, v in dimensions[s].items() if maxima[n]} for s in SIDES
    }
    declared = sheet.get("winner")
    forfeited = (
        ("con" if declared == "pro" else "pro") if sheet.get("winner_reason") in FORFEITS else None
    )
    pro, con = models["pro"], models["con"]
    pair = (min(pro, con), max(pro, con))
    return DebateResult(
        pair, record.run.motion, pro != pair[0], pro, con, "scored", totals=totals,
        dimensions=dimensions, maxima=maxima, forfeited=forfeited,
        judges=(JudgeView(judge, True, winner, None, fractions),),
        sides=side_stats(record), log=file, sample_id=record.run.motion_id,
    )  # fmt: skip


def _sheet_sides(sheet: dict[str, Any], file: str) -> dict[str, dict[str, Any]]:
    """The score file's sides by name, each with numeric totals and dimensions."""
    if sheet.get("schema_version") != 2:
        raise ConfigError(f"{file}, key 'schema_version'", f"got {sheet.get('schema_version')!r}",
                          "2 (a debatebench 0.1.x score file)")  # fmt: skip
    found: dict[str, dict[str, Any]] = {}
    for i, side in enumerate(sheet.get("sides") or []):
        at = f"{file}, key 'sides[{i}]"
        name = side.get("side") if isinstance(side, dict) else None
        if name not in SIDES or name in found:
            raise ConfigError(f"{at}.side'", f"got {name!r}", "pro and con, once each")
        if not _is_number(side.get("total")):
            raise ConfigError(f"{at}.total'", f"got {side.get('total')!r}", "a number")
        dims = side.get("dimensions")
        if not isinstance(dims, dict) or not dims:
            raise ConfigError(f"{at}.dimensions'", f"got {dims!r}", "the scored dimensions")
        for dim, entry in dims.items():
            for key in ("score", "max"):
                value = entry.get(key) if isinstance(entry, dict) else None
                if not _is_number(value):
                    raise ConfigError(f"{at}.dimensions.{dim}.{key}'", f"got {value!r}",
                                      "a number")  # fmt: skip
        found[name] = side
    if set(found) != set(SIDES):
        raise ConfigError(f"{file}, key 'sides'", f"sides {sorted(found)}", "pro and con")
    return found


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


# --- matchups, as from our logs -----------------------------------------------------


def _imported(
    kind: str, locations: list[str], debates: list[DebateResult], skipped: list[dict[str, str]]
) -> Imported:
    """The first copy of each debate, the repeats as duplicates, and a `missing`
    result for each debate whose twin (sides exchanged) is absent."""
    kept: dict[tuple[Any, ...], DebateResult] = {}
    duplicates: list[dict[str, object]] = []
    for debate in debates:
        if debate.key in kept:
            duplicates.append({**debate.listing(), "kept": kept[debate.key].log})
        else:
            kept[debate.key] = debate
    results = list(kept.values())
    for (pair, motion, swapped), debate in list(kept.items()):
        if (pair, motion, not swapped) not in kept:
            results.append(DebateResult(
                pair, motion, not swapped, debate.con, debate.pro, "missing",
                reason=_MISSING_TWIN,
            ))  # fmt: skip
    return Imported(kind, locations, results, skipped, duplicates)
