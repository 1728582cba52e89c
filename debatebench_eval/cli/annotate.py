"""`debatebench-eval annotate LOG_DIR`: a blind labelling page for a folder's debates."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError, print_error

DEFAULT_PAGE = "labels.html"
_KIND_WORDS = {"rubric": "rubric debates (who argued better)",
               "known_answer": "known-answer debates (which answer is right)"}  # fmt: skip


def add_commands(commands: Any) -> None:
    """Add `annotate` to the subcommands."""
    from debatebench_eval.annotation.selection import DEFAULT_SIZE

    page = commands.add_parser(
        "annotate",
        help="write one self-contained HTML page to label a folder's debates by hand, blind "
        "(sides as A/B, no models, no judge output; debates known by opaque ids), and beside "
        "it the page's key (PAGE.key.json: which debate each id is); the page exports the "
        "labels as JSONL",
    )
    page.add_argument("log_dir", metavar="LOG_DIR", help="a folder of debate or oversight logs")
    page.add_argument(
        "-o", "--out", default=DEFAULT_PAGE, help=f"the page (default ./{DEFAULT_PAGE})"
    )
    page.add_argument("--size", type=int, default=DEFAULT_SIZE,
                      help=f"how many debates the page shows (default {DEFAULT_SIZE})")  # fmt: skip
    page.add_argument("--most-informative", action="store_true",
                      help="the debates whose verdict most needs checking first (swap flips, "
                      "split panels, close margins or judge probabilities) instead of a "
                      "sample stratified over model pairs and motions")  # fmt: skip
    page.add_argument("--seed", type=int, default=0,
                      help="draws the sample and the side each debate shows as A "
                      "(default 0)")  # fmt: skip
    page.set_defaults(run=run_annotate)


def run_annotate(args: argparse.Namespace) -> int:
    from debatebench_eval.annotation.items import read_folder
    from debatebench_eval.annotation.page import render_page
    from debatebench_eval.annotation.page_key import key_path, page_key, write_key
    from debatebench_eval.annotation.selection import select

    try:
        if args.size < 1:
            raise ConfigError("--size", str(args.size), "a whole number of at least 1")
        found = read_folder(args.log_dir)
        if not found.items:
            raise ConfigError(args.log_dir, "no finished debate in it",
                              "a folder of debatebench/debate logs, or debatebench/oversight "
                              "logs of protocol debate, consultancy or open",
                              also=found.notes)  # fmt: skip
    except ConfigError as exc:
        print_error("annotate", exc)
        return 2
    chosen = select(found.items, args.size, args.seed, args.most_informative)
    key = page_key(chosen.items, args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_page(chosen.items, key), encoding="utf-8")
    written = write_key(key, key_path(out))
    for line in summary(found.notes, chosen, args, key.page):
        print(line)
    print(f"key: {written} (which debate each id on the page is: keep it from the annotators; "
          "`agreement` reads it beside the labels files)")  # fmt: skip
    print(out)
    return 0


def summary(notes: list[str], chosen: Any, args: argparse.Namespace, page: str) -> list[str]:
    how = "most informative first" if args.most_informative else "stratified over pair and motion"
    counts = Counter(item.kind for item in chosen.items)
    lines = [f"{len(chosen.items)} debates on the page ({how}, seed {args.seed}, page id {page}):"]
    lines += [f"  {counts[kind]} {words}" for kind, words in _KIND_WORDS.items() if counts[kind]]
    if chosen.short:
        lines.append(f"asked for {chosen.asked}, the folder has {len(chosen.items)}: "
                     "all of them are on the page")  # fmt: skip
    lines += notes
    return lines
