"""Where users look for the ranking: leaderboard.html and the leaderboard log that
`inspect view` lists beside the pair logs."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

from inspect_ai.log import read_eval_log

from debatebench_eval.tournament.leaderboard import write_leaderboard
from debatebench_eval.tournament.leaderboard_page import relative_location
from debatebench_eval.tournament.outcomes import read_tournament
from debatebench_eval.tournament.plots import _no_width_note


class _Page(HTMLParser):
    """The parts of the page a reader sees: headings, table cells, images, links."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[str] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self.cells: list[str] = []
        self._open: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "img":
            self.images.append(str(found.get("src")))
        elif tag == "a":
            self.links.append(str(found.get("href")))
        elif tag in ("h1", "h2", "td"):
            self._open = tag

    def handle_data(self, data: str) -> None:
        if self._open in ("h1", "h2"):
            self.headings.append(data.strip())
        elif self._open == "td":
            self.cells.append(data.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag == self._open:
            self._open = None


def _page(folder: Path) -> _Page:
    page = _Page()
    page.feed((folder / "leaderboard.html").read_text(encoding="utf-8"))
    return page


def test_the_page_holds_the_ranking_plots_caveats_and_a_link_per_pair(
    played: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "tourney"
    shutil.copytree(played, folder)
    write_leaderboard([str(folder)], out=str(folder))
    page = _page(folder)
    assert page.headings[:2] == ["Tournament leaderboard", "Plots"]
    for heading in ("Side advantage", "Judges", "Head to head", "Caveats", "Pair logs"):
        assert heading in page.headings
    # The ranking as the Markdown has it: rank, model, rating with its interval.
    assert page.cells[:5] == ["1", "ollama/m3", "2117 [2117, 2117]", "n/a", "1.00 [1.00, 1.00]"]
    assert len(page.images) == 3
    assert all(src.startswith("data:image/png;base64,iVBORw0KGgo") for src in page.images)
    # Self-contained: nothing is fetched from elsewhere.
    assert not re.search(r'src="(?!data:)', (folder / "leaderboard.html").read_text())
    pair_logs = [link for link in page.links if link.endswith(".eval")]
    assert len(pair_logs) == 3 and all("/" not in link for link in pair_logs)
    assert all((folder / link).exists() for link in pair_logs)


def test_a_log_elsewhere_is_linked_where_it_is(tmp_path: Path) -> None:
    assert relative_location(f"file://{tmp_path}/t/a.eval", str(tmp_path / "t")) == "a.eval"
    assert relative_location("s3://bucket/t/a.eval", "s3://bucket/t") == "a.eval"
    assert relative_location("s3://other/a.eval", str(tmp_path)) == "s3://other/a.eval"


def test_the_viewer_lists_the_models_in_rank_order(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "tourney"
    shutil.copytree(played, folder)
    write_leaderboard([str(folder)], out=str(folder), plots=False)
    log = read_eval_log(str(folder / "leaderboard.eval"))
    board = json.loads((folder / "leaderboard.json").read_text())
    assert log.status == "success" and log.eval.task == "debatebench/leaderboard"
    assert log.samples is not None
    assert [s.input for s in log.samples] == [row["model"] for row in board["models"]]
    assert [s.id for s in log.samples] == [1, 2, 3]
    first = log.samples[0].scores["leaderboard"]  # type: ignore[index]
    assert first.answer == "rank 1 · rating 2117 [2117, 2117]"
    assert first.value == {"rating": 2117.0, "rating_low": 2117.0, "rating_high": 2117.0,
                           "rating_width": 0.0, "win_rate": 1.0, "debates": 8.0,
                           "mean_margin": 13.0}  # fmt: skip
    assert log.eval.metadata and log.eval.metadata["leaderboard"]["models"] == board["models"]
    # At most 13 columns and the ranking's own numbers labelled; Inspect's
    # columns that mean nothing here are hidden.
    view = log.eval.viewer.task_samples_view  # type: ignore[union-attr]
    shown = [c.id for c in view.columns if c.visible]  # type: ignore[union-attr]
    assert len(shown) <= 13 and shown[:3] == ["sampleId", "input", "answer"]
    assert view.score_labels["rating"] == "Rating"  # type: ignore[union-attr,index]
    assert log.results is not None and log.results.headline is not None


def test_rating_again_reads_past_its_own_leaderboard_log(played: Path, tmp_path: Path) -> None:
    folder = tmp_path / "tourney"
    shutil.copytree(played, folder)
    write_leaderboard([str(folder)], out=str(folder), plots=False)
    logs = read_tournament([str(folder)])
    assert logs.skipped == [] and len(logs.logs) == 3
    again = write_leaderboard([str(folder)], out=str(folder), plots=False)
    assert f"{folder}/leaderboard.eval" in again


def test_a_rating_plot_says_why_it_draws_no_interval() -> None:
    point = {"value": 1.0, "low": 1.0, "high": 1.0}
    assert "separated" in _no_width_note([{"rating": point, "separated": True}])
    assert "could be formed" in _no_width_note([{"rating": {"value": 1.0}}])
    wide = {"value": 1.0, "low": 0.5, "high": 1.5}
    assert _no_width_note([{"rating": wide}, {"rating": point, "separated": True}]) == ""
