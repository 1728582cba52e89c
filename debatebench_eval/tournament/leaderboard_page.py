"""leaderboard.html: the leaderboard as one self-contained page.

The page is the Markdown leaderboard rendered to HTML (markdown-it-py, which
Inspect already brings through rich), with the plots embedded as data URIs
after the ratings table and a link per pair to its log, so the file can be
mailed or opened from an object store with nothing beside it.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from markdown_it import MarkdownIt

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1200px; margin: 2em auto;
       padding: 0 1em; color: #1b1b1b; line-height: 1.45; overflow-wrap: break-word; }
.table { max-width: 100%; overflow-x: auto; }
.logs td:last-child { white-space: normal; overflow-wrap: anywhere; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 1.8em;
     border-bottom: 1px solid #ddd; padding-bottom: .2em; }
table { border-collapse: collapse; margin: .8em 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #d6d6d6; padding: .3em .7em; text-align: left; }
td { white-space: nowrap; } th { vertical-align: bottom; }
th { background: #f2f4f7; }
tbody tr:nth-child(even) { background: #fafbfc; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { color: #555; font-size: .9em; }
code { background: #f2f4f7; padding: 0 .25em; border-radius: 3px; }
"""

_CAPTIONS = {
    "ratings.png": "Ratings with their 95% intervals.",
    "head_to_head.png": "Head to head: the row model's share of its debates against the column.",
    "judge_agreement.png": "How often each pair of judges named the same winner.",
    "rounds.png": "Adaptive rounds: the widest 95% interval against the debates rated.",
    "accuracy_vs_rating.png": "The judge's accuracy in each pair's debates against the pair's "
    "mean persuasiveness rating (Khan et al. 2024, Figure 1).",
}


def leaderboard_page(board: dict[str, Any], markdown_text: str, plots: Mapping[str, bytes],
                     root: str) -> str:  # fmt: skip
    """The whole page: `markdown_text` (the leaderboard's Markdown) with `plots`
    (file name -> PNG bytes) after its ratings table and the pair logs at the end."""
    renderer = MarkdownIt("commonmark", {"html": False}).enable("table")
    head, _, rest = markdown_text.partition("\n## ")
    body = [_boxed(renderer.render(head)), _figures(plots)]
    if rest:
        body.append(_boxed(renderer.render("## " + rest)))
    body.append(_log_links(board, root))
    tournament = board["tournament"]
    name = tournament.get("id") or tournament.get("source") or ""
    title = html.escape(f"Tournament leaderboard {name}".strip())
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def _boxed(rendered: str) -> str:
    """Each table in a box of its own that scrolls sideways when the table is wider
    than the page (a judge-reliability table is), so the page itself never does."""
    return rendered.replace("<table>", '<div class="table"><table>').replace(
        "</table>", "</table></div>"
    )


def _figures(plots: Mapping[str, bytes]) -> str:
    if not plots:
        return "<p>No plots: fewer than two models are rated, or plots were turned off.</p>"
    parts = ["<h2>Plots</h2>"]
    for name, data in plots.items():
        encoded = base64.b64encode(data).decode("ascii")
        caption = html.escape(_CAPTIONS.get(name, name))
        parts.append(
            f'<figure><img alt="{html.escape(name)}" src="data:image/png;base64,{encoded}">'
            f"<figcaption>{caption}</figcaption></figure>"
        )
    return "\n".join(parts)


def _log_links(board: dict[str, Any], root: str) -> str:
    """The pair logs, linked from the page's folder `root`; `inspect view` is pointed
    at the folders the logs are in (not where the page was written: `--out`)."""
    logs = board["tournament"].get("logs") or []
    folders = [str(f) for f in board["tournament"].get("folders") or []] or [root]
    views = " and ".join(f"<code>inspect view --log-dir {html.escape(f)}</code>" for f in folders)
    parts = [
        "<h2>Pair logs</h2>",
        f"<p>Each pair's debates, turns and judge readings are in its Inspect log; open them "
        f"all with {views}.</p>",
    ]
    if not logs:
        return "\n".join([*parts, "<p>No log holds a debate of this tournament yet.</p>"])
    # In a box of its own too; a log's long file name breaks where it must.
    rows = ['<div class="table logs"><table><thead><tr><th>pair</th><th>debates</th>'
            "<th>status</th><th>log</th></tr></thead><tbody>"]  # fmt: skip
    for log in logs:
        href = relative_location(str(log["location"]), root)
        pair = " vs ".join(html.escape(str(m)) for m in log["pair"])
        rows.append(
            f"<tr><td>{pair}</td><td>{log['samples']}</td><td>{html.escape(str(log['status']))}"
            f'</td><td><a href="{html.escape(href, quote=True)}">'
            f"{html.escape(PurePosixPath(href).name)}</a></td></tr>"
        )
    rows.append("</tbody></table></div>")
    return "\n".join([*parts, *rows])


def relative_location(location: str, root: str) -> str:
    """A log's address as seen from the page: relative when it sits under the
    page's folder (so the folder can move), else as the log list gave it."""
    base = root if "://" in root else os.path.abspath(root)
    for prefix in (base.rstrip("/") + "/", "file://" + base.rstrip("/") + "/"):
        if location.startswith(prefix):
            return location[len(prefix) :]
    return location
