"""The leaderboard's plots (matplotlib): ratings with their intervals, the
head-to-head win shares, the judges' agreement, and (known-answer debates) the
judge's accuracy against the debaters' persuasiveness.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

from debatebench_eval.core._inspect import file
from debatebench_eval.known_answer.persuasion import PairAccuracy

_GREY = "#d0d0d0"


def draw_plots(board: dict[str, Any], root: str) -> list[str]:
    """Write the PNGs that apply (none with fewer than two rated models)."""
    import matplotlib

    matplotlib.use("Agg")
    rated = [row for row in board["models"] if row.get("rating")]
    if len(rated) < 2:
        return []
    written = [save(_ratings(rated, board), f"{root}/ratings.png"),
               save(_head_to_head(rated, board), f"{root}/head_to_head.png")]  # fmt: skip
    if len(board["judges"]["judges"]) > 1:
        written.append(save(_judges(board["judges"]), f"{root}/judge_agreement.png"))
    return written


def save(figure: Any, path: str) -> str:
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=130, bbox_inches="tight")  # long model names stay whole
    plt.close(figure)
    with file(path, "wb") as handle:
        handle.write(buffer.getvalue())
    return path


def _ratings(rows: list[dict[str, Any]], board: dict[str, Any]) -> Any:
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["rating"]["value"])  # best at the top
    figure, axis = plt.subplots(figsize=(8, 1.2 + 0.55 * len(rows)))
    for y, row in enumerate(rows):
        _point_range(axis, row["rating"], y, "o", "#1f4e79", filled=True)
        if row.get("length_controlled"):
            _point_range(axis, row["length_controlled"], y - 0.25, "o", "#c55a11", filled=False)
    axis.set_yticks(range(len(rows)), [r["model"] for r in rows])
    axis.axvline(board["settings"]["base"], color="grey", linestyle="--", linewidth=1)
    anchor = board["settings"]["anchor"]
    axis.set_xlabel(f"rating ({board['settings']['base']:g} = {anchor}; 400 points = 10:1 odds)")
    lc = board.get("length_control") is not None
    note = "  (filled: raw; hollow: length-controlled)" if lc else ""
    axis.set_title(f"Bradley-Terry ratings, 95% intervals{note}{_no_width_note(rows)}",
                   fontsize=10)  # fmt: skip
    axis.set_ylim(-0.7, len(rows) - 0.4)
    axis.grid(axis="x", alpha=0.3)
    return figure


def _no_width_note(rows: list[dict[str, Any]]) -> str:
    """Why no interval is drawn, where none has width: separated results (every
    resample ranks them alike) or intervals the bootstrap could not form."""
    widths = [(r["rating"].get("low"), r["rating"].get("high")) for r in rows if r.get("rating")]
    if any(low is not None and high is not None and high > low for low, high in widths):
        return ""
    if any(r.get("separated") for r in rows):
        return "\nno interval has width: the results are separated (see the caveats)"
    return "\nno interval could be formed (see the caveats)"


def _point_range(axis: Any, figure: dict[str, Any], y: float, marker: str, colour: str,
                 *, filled: bool) -> None:  # fmt: skip
    value, low, high = figure["value"], figure.get("low"), figure.get("high")
    if low is not None and high is not None:
        axis.plot([low, high], [y, y], color=colour, linewidth=2 if filled else 1.2)
    axis.plot([value], [y], marker=marker, markersize=8, color=colour,
              markerfacecolor=colour if filled else "white")  # fmt: skip


def _head_to_head(rows: list[dict[str, Any]], board: dict[str, Any]) -> Any:
    import matplotlib.pyplot as plt
    import numpy as np

    models = [r["model"] for r in rows]  # rank order
    cells = {(h["model"], h["opponent"]): h for h in board["head_to_head"]}
    m = len(models)
    share = np.full((m, m), np.nan)
    for i, a in enumerate(models):
        for j, b in enumerate(models):
            if (a, b) in cells:
                share[i, j] = cells[(a, b)]["share"]
    size = 2.5 + 1.1 * m
    figure, axis = plt.subplots(figsize=(size + 1.5, size))
    colours = plt.get_cmap("RdBu").with_extremes(bad=_GREY)
    image = axis.imshow(np.ma.masked_invalid(share), cmap=colours, vmin=0, vmax=1)
    for i, a in enumerate(models):
        for j, b in enumerate(models):
            if (a, b) in cells:
                cell = cells[(a, b)]
                dark = abs(cell["share"] - 0.5) > 0.3
                axis.text(j, i, f"{cell['share']:.2f}\nn={cell['n']}", ha="center", va="center",
                          fontsize=8, color="white" if dark else "black")  # fmt: skip
    axis.set_xticks(range(m), models, rotation=35, ha="right")
    axis.set_yticks(range(m), models)
    axis.set_xlabel("opponent")
    axis.set_ylabel("model (rank order)")
    axis.set_title("Head to head: row model's share of the debates (ties as halves)", fontsize=10)
    figure.colorbar(image, ax=axis, fraction=0.046, pad=0.04, label="share won")
    return figure


def _judges(judges: dict[str, Any]) -> Any:
    import matplotlib.pyplot as plt
    import numpy as np

    names = [j["judge"] for j in judges["judges"]]
    n = len(names)
    agreement = np.full((n, n), np.nan)  # the diagonal stays grey
    labels = {}
    for pair in judges["pairwise"]:
        i, j = names.index(pair["judges"][0]), names.index(pair["judges"][1])
        value = np.nan if pair["agreement"] is None else pair["agreement"]
        agreement[i, j] = agreement[j, i] = value
        kappa = "n/a" if pair["kappa"] is None else f"{pair['kappa']:.2f}"
        labels[(i, j)] = labels[(j, i)] = f"{value:.2f}\nkappa {kappa}\nn={pair['n']}"
    size = 2.5 + 1.2 * n
    figure, axis = plt.subplots(figsize=(size + 1.5, size))
    colours = plt.get_cmap("viridis").with_extremes(bad=_GREY)
    image = axis.imshow(np.ma.masked_invalid(agreement), cmap=colours, vmin=0, vmax=1)
    for (i, j), text in labels.items():
        axis.text(j, i, text, ha="center", va="center", fontsize=9,
                  color="white" if agreement[i, j] < 0.6 else "black")  # fmt: skip
    axis.set_xticks(range(n), names, rotation=35, ha="right")
    axis.set_yticks(range(n), names)
    alpha = judges["alpha"]
    shown = "n/a" if alpha is None else f"{alpha:.2f}"
    axis.set_title(f"Judges: share of debates with the same winner\n"
                   f"Krippendorff's alpha (scores, interval) = {shown}", fontsize=10)  # fmt: skip
    figure.colorbar(image, ax=axis, fraction=0.046, pad=0.04, label="same winner")
    return figure


def accuracy_against_rating(pairs: Sequence[PairAccuracy], path: str) -> str:
    """Khan et al.'s Figure 1: the judge's accuracy in each pair's debates against the
    pair's mean persuasiveness rating (marker area by the pair's debates)."""
    import matplotlib

    matplotlib.use("Agg")
    return save(_accuracy_figure(pairs), path)


def _accuracy_figure(pairs: Sequence[PairAccuracy]) -> Any:
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 4))
    # Translucent: pairs at one point show as one darker marker, the larger around it.
    axis.scatter([p.mean_rating for p in pairs], [p.accuracy for p in pairs],
                 s=[_area(p) for p in pairs], alpha=0.6)  # fmt: skip
    axis.axhline(0.5, linestyle=":", color="grey")
    axis.set_xlabel("mean persuasiveness rating of the pair (Elo scale)")
    axis.set_ylabel("judge accuracy")
    axis.set_ylim(-0.05, 1.05)
    labels = [_label(axis, group) for group in _label_groups(pairs)]
    figure.canvas.draw()  # the axes' limits, and so where each point is drawn
    _part(figure, labels, [_marker_box(axis, p) for p in pairs])
    return figure


def _label(axis: Any, group: list[PairAccuracy]) -> Any:
    """The label of pairs at one point, a line for each, beside the largest marker."""
    radius = max(_radius(p) for p in group)
    return axis.annotate(
        "\n".join(" vs ".join(p.models) for p in group),
        _point(group[0]),
        xytext=(radius + 2, 0),
        textcoords="offset points",
        fontsize=7,
        va="center",
        bbox=_BEHIND_LABEL,
        # Stops at the marker's rim: seen only where `_part` moved the label away.
        arrowprops={**_LEADER, "shrinkB": radius + 1},
    )


def _area(pair: PairAccuracy) -> float:
    """A marker's area in square points, by the pair's debates."""
    return 20 + 4 * pair.debates


def _radius(pair: PairAccuracy) -> float:
    return math.sqrt(_area(pair)) / 2


def _point(pair: PairAccuracy) -> tuple[float, float]:
    return (pair.mean_rating, pair.accuracy)


def _marker_box(axis: Any, pair: PairAccuracy) -> Any:
    """Where a pair's marker is drawn, in pixels."""
    from matplotlib.transforms import Bbox

    x, y = axis.transData.transform(_point(pair))
    r = _radius(pair) * axis.figure.dpi / 72
    return Bbox.from_extents(x - r, y - r, x + r, y + r)


# A label stays legible over the line at 0.5 and the other markers.
_BEHIND_LABEL = {"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none",
                 "alpha": 0.75}  # fmt: skip
_LEADER = {"arrowstyle": "-", "color": "grey", "linewidth": 0.5, "shrinkA": 0}
# Points closer than this share of each axis's span (the ratings', and accuracy's 0 to
# 1) are one point to the eye: a few pixels apart on a figure 6 inches wide.
_SAME_POINT = 0.02


def _label_groups(pairs: Sequence[PairAccuracy]) -> list[list[PairAccuracy]]:
    """The pairs at (nearly) one point, each group to be named by one label, a line
    for each pair, at the first of them: labels written over each other name no one."""
    ratings = [p.mean_rating for p in pairs]
    x_span = (max(ratings) - min(ratings) if ratings else 0.0) or 1.0
    groups: list[list[PairAccuracy]] = []
    for p in sorted(pairs, key=lambda p: (p.mean_rating, p.accuracy, p.models)):
        for group in groups:
            x, y = _point(group[0])
            dx, dy = abs(p.mean_rating - x) / x_span, abs(p.accuracy - y)
            if dx <= _SAME_POINT and dy <= _SAME_POINT:
                group.append(p)
                break
        else:
            groups.append([p])
    return groups


def _part(figure: Any, labels: list[Any], markers: list[Any]) -> None:
    """Move each label that would cover a marker or a label placed before it to the
    nearest free place above or below, a step at a time (a grey line leads back to its
    point): points near each other, though not at one place, keep legible labels."""
    renderer = figure.canvas.get_renderer()
    placed = list(markers)
    for label in sorted(labels, key=lambda t: (-t.xy[1], t.xy[0])):
        dx, dy = label.xyann
        for step in range(400):  # a bound: 200 steps either way is past any figure
            label.xyann = (dx, dy + (step + 1) // 2 * 3 * (-1 if step % 2 else 1))
            box = _text_box(label, renderer)
            if not any(box.overlaps(other) for other in placed):
                break
        placed.append(box)


def _text_box(label: Any, renderer: Any) -> Any:
    """A label's text where it is drawn, in pixels (its leader line left out)."""
    from matplotlib.text import Text

    label.get_window_extent(renderer)  # places the text at its point and offset
    return Text.get_window_extent(label, renderer)


def belief_by_round(means: dict[str, dict[int, float]], path: str) -> str:
    """The judge's mean p_correct after each round, one line per protocol heard round by
    round; naive and expert (no rounds, drawn at round 0) as dashed levels."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6.4, 4))
    last = max((n for rounds in means.values() for n in rounds), default=1)
    for protocol, rounds in sorted(means.items()):
        if set(rounds) == {0}:
            axis.axhline(rounds[0], linestyle="--", linewidth=1,
                         color=_PROTOCOL_COLOUR.get(protocol),
                         label=f"{protocol} (no rounds)")  # fmt: skip
            continue
        axis.plot(list(rounds), list(rounds.values()), marker="o", label=protocol,
                  color=_PROTOCOL_COLOUR.get(protocol))  # fmt: skip
    axis.axhline(0.5, color=_GREY, linewidth=0.8)
    axis.set_xticks(range(1, last + 1))
    axis.set_xlabel("after round")
    axis.set_ylabel("mean p_correct")
    axis.set_ylim(0, 1)
    axis.set_title("The judge's belief in the right answer, round by round")
    axis.legend(loc="lower right", fontsize=8)
    return save(figure, path)


# One colour a protocol, the same on every plot, none of two alike (matplotlib's cycle
# drew consultancy and the expert level in two close blues).
_PROTOCOL_COLOUR = {"naive": "#7a7a7a", "expert": "#000000", "consultancy": "#7570b3",
                    "debate": "#d95f02", "open": "#1b9e77"}  # fmt: skip
