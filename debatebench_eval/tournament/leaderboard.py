"""`debatebench-eval tournament rate`: leaderboard.json (every figure), leaderboard.md
(the table a person reads, with its caveats), the plots, leaderboard.html (all of
it on one page) and leaderboard.eval (the ranking in `inspect view`).

What the leaderboard holds is the task kind's (`TaskKind.board`: a rubric
tournament's, or an oversight tournament's persuasiveness and truth); debates
judged elsewhere are rubric debates. Written through Inspect's file access, so
`--out` may be any location Inspect takes for logs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from debatebench_eval.core._inspect import file
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.tournament.judged_elsewhere import (
    is_debatebench_folder,
    rated,
    read_debatebench,
    read_outcomes,
)
from debatebench_eval.tournament.kind import Rated, RateOptions, TaskKind
from debatebench_eval.tournament.kinds import DEFAULT, kind_named
from debatebench_eval.tournament.leaderboard_log import write_leaderboard_log
from debatebench_eval.tournament.leaderboard_page import leaderboard_page
from debatebench_eval.tournament.outcomes import rated as tournament_rated
from debatebench_eval.tournament.outcomes import read_tournament


def write_leaderboard(
    folders: Sequence[str],
    *,
    out: str,
    options: RateOptions | None = None,
    plots: bool = True,
    outcomes: str | None = None,
) -> list[str]:
    """Rate the debates of `folders` (a tournament's logs, or folders of debatebench
    score files) or of an `outcomes` file, and write the leaderboard to `out`."""
    options = options or RateOptions()
    if options.resamples < 100:
        raise ConfigError("--resamples", f"got {options.resamples}",
                          "at least 100 (1000 is the default)")  # fmt: skip
    kind, source = read_source(folders, outcomes)
    board = kind.board(source, options)
    root = out.rstrip("/")
    written = [_write(f"{root}/leaderboard.json", json.dumps(board.figures, indent=2) + "\n"),
               _write(f"{root}/leaderboard.md", board.text)]  # fmt: skip
    drawn = board.plots(root) if plots else []
    images = {path.rsplit("/", 1)[-1]: _read_bytes(path) for path in drawn}
    page = leaderboard_page(board.figures, board.text, images, root)
    written += [*drawn, _write(f"{root}/leaderboard.html", page)]
    written.append(write_leaderboard_log(board.figures, root, kind.columns, kind.rating))
    return written


def read_source(folders: Sequence[str], outcomes: str | None) -> tuple[TaskKind, Rated]:
    """A tournament's logs (of its kind), debatebench folders, or an outcomes file
    (rubric debates): exactly one."""
    debates = kind_named(DEFAULT)
    if outcomes is not None:
        if folders:
            raise ConfigError("tournament rate", f"both LOG_DIR ({folders[0]}) and --outcomes",
                              "one source: folders, or --outcomes FILE")  # fmt: skip
        return debates, rated(read_outcomes(outcomes))
    if not folders:
        raise ConfigError("tournament rate", "no source given",
                          "LOG_DIR (a tournament's, or debatebench score files), or "
                          "--outcomes FILE")  # fmt: skip
    theirs = [is_debatebench_folder(f) for f in folders]
    if all(theirs):
        return debates, rated(read_debatebench(list(folders)))
    if any(theirs):
        mixed = folders[theirs.index(True)]
        raise ConfigError(mixed, "debatebench score files, among tournament folders",
                          "folders of one kind: tournament logs, or debatebench files")  # fmt: skip
    logs = read_tournament(folders)
    return kind_named(logs.schedule.settings.task), tournament_rated(logs)


def _read_bytes(path: str) -> bytes:
    with file(path, "rb") as handle:
        data: bytes = handle.read()
    return data


def _write(path: str, text: str) -> str:
    with file(path, "w") as handle:
        handle.write(text)
    return path
