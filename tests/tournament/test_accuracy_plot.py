"""The oversight leaderboard's accuracy-against-rating plot names every pair legibly:
pairs at one point share one label, and no label covers another label or a marker.
Checked on the figure's own text objects and their drawn extents, not on pixels."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.known_answer.persuasion import PairAccuracy
from debatebench_eval.tournament.plots import (
    _accuracy_figure,
    _marker_box,
    _text_box,
    accuracy_against_rating,
)

PAIRS = [
    PairAccuracy(("m1", "m2"), 1010.0, 0.75, 12),
    PairAccuracy(("m3", "m4"), 1010.0, 0.75, 12),  # the same point as m1 vs m2
    PairAccuracy(("m1", "m3"), 1012.0, 0.70, 12),  # near it, not on it
    PairAccuracy(("m2", "m4"), 990.0, 0.50, 30),  # on the line at 0.5, a larger marker
    PairAccuracy(("m2", "m3"), 970.0, 0.60, 12),
]


@pytest.fixture
def figure() -> Iterator[Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    drawn = _accuracy_figure(PAIRS)
    yield drawn
    plt.close(drawn)


def test_pairs_at_one_point_share_one_label_naming_each(figure: Any) -> None:
    texts = sorted(t.get_text() for t in figure.axes[0].texts)
    assert texts == ["m1 vs m2\nm3 vs m4", "m1 vs m3", "m2 vs m3", "m2 vs m4"]
    shared = next(t for t in figure.axes[0].texts if "\n" in t.get_text())
    assert shared.xy == (1010.0, 0.75)


def test_no_label_covers_another_label_or_a_marker(figure: Any) -> None:
    renderer = figure.canvas.get_renderer()
    axis = figure.axes[0]
    labels = {t.get_text(): _text_box(t, renderer) for t in axis.texts}
    for (a, box_a), (b, box_b) in combinations(labels.items(), 2):
        assert not box_a.overlaps(box_b), f"{a!r} covers {b!r}"
    for pair in PAIRS:
        marker = _marker_box(axis, pair)
        covering = [text for text, box in labels.items() if box.overlaps(marker)]
        assert not covering, f"{covering} cover the marker of {pair.models}"
    # Each label begins right of its own point and stays beside it.
    for label in axis.texts:
        x, y = axis.transData.transform(label.xy)
        box = labels[label.get_text()]
        assert box.x0 > x and box.y0 - 40 < y < box.y1 + 40


def test_one_pair_or_none_draws_too(tmp_path: Path) -> None:
    alone = accuracy_against_rating(PAIRS[:1], str(tmp_path / "one.png"))
    assert Path(alone).stat().st_size > 1000
    assert Path(accuracy_against_rating([], str(tmp_path / "none.png"))).exists()
    drawn = accuracy_against_rating(PAIRS, str(tmp_path / "all.png"))
    assert Path(drawn).stat().st_size > 1000
