"""The validation report a reader opens: every n/a says why, each source's
calibration has its n and interval, and the figure draws y = x, matches its
colours across panels and states the trust verdict."""

from __future__ import annotations

import matplotlib
import pytest

from debatebench_eval.trust.stats import Row, summarise
from debatebench_eval.validation.report import markdown, plot, source_calibration

matplotlib.use("Agg")


def _rows() -> list[Row]:
    """Two sources over four topics; the judge tracks the humans, `B` half a point high."""
    rows = []
    for i in range(24):
        source = "A" if i % 2 else "B"
        human = 1.5 + (i % 6) * 0.6
        score = round(human) + (1 if source == "B" and i % 4 == 0 else 0)
        rows.append(Row(f"s{i:02d}", float(min(score, 5)), human, source, i % 4, [3] * 15,
                        list(range(15))))  # fmt: skip
    rows.append(Row("lone", 3.0, 3.0, "C", 0, [3] * 15, list(range(15))))  # one speech: no interval
    return rows


def test_each_source_has_its_n_and_a_t_interval_or_says_why_not() -> None:
    by_source = {c.source: c for c in source_calibration(_rows())}
    assert (by_source["A"].n, by_source["B"].n, by_source["C"].n) == (12, 12, 1)
    b = by_source["B"]
    assert b.low is not None and b.high is not None and b.low < b.bias < b.high
    assert by_source["C"].low is None
    text = markdown(summarise(_rows()), "judge", _rows())
    assert "| C | 1 | +0.00 | n/a (fewer than 2 speeches, or no spread) |" in text
    assert f"| B | 12 | {b.bias:+.2f} | [{b.low:+.2f}, {b.high:+.2f}] |" in text


def test_every_undefined_figure_says_why_and_the_verdict_is_stated() -> None:
    text = markdown(summarise(_rows()), "judge", _rows())
    assert "| human ceiling, leave-one-annotator-out (0) | n/a |" in text
    assert "- ceiling_by_annotator: no annotator rated 30 or more of these 25 speeches" in text
    assert "Verdict at the default thresholds: not trusted: " in text
    assert "25 speeches scored, fewer than 600" in text


def test_the_figure_draws_agreement_matching_colours_and_the_verdict() -> None:
    rows = _rows()
    figure = plot(rows, summarise(rows), "judge")
    scatter, bars = figure.axes
    diagonal = [line for line in scatter.get_lines() if line.get_label() == "judge = human"]
    assert len(diagonal) == 1 and list(diagonal[0].get_xdata()) == list(diagonal[0].get_ydata())
    legend = {text.get_text().split(" (")[0]: handle.get_facecolor()[0][:3]
              for text, handle in zip(scatter.get_legend().get_texts(),
                                      scatter.get_legend().legend_handles, strict=False)
              if hasattr(handle, "get_facecolor")}  # fmt: skip
    labels = [tick.get_text() for tick in bars.get_yticklabels()]
    assert any(label.startswith("C (n=1, no interval") for label in labels)
    for label, patch in zip(labels, bars.patches, strict=True):
        source = label.split(" (")[0]
        assert patch.get_facecolor()[:3] == pytest.approx(legend[source])
    assert "not trusted: " in figure.get_suptitle()
