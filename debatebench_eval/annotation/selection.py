"""Which of a folder's debates a labelling page shows, and which side each shows as A.

By default a stratified sample: the items are grouped by stratum (the pair of
models and the motion or question), and the page takes one item from each
stratum in turn, strata and items within them in a seeded order, until it has
enough; so a small page still covers every pairing and motion it can. With
`most_informative` the items whose verdict people are most needed to check
come first: a swap flip or a split panel, then the closest verdicts (a rubric
margin, or a known-answer judge's probability near one half).

The same seed draws, per item, which side the page shows as A (a rubric
debate's; a known-answer debate keeps the labels its record gave the answers).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from debatebench_eval.annotation.items import Item
from debatebench_eval.judging.rubric import MARGIN_SCALE
from debatebench_eval.record.protocol import SIDES, Side

DEFAULT_SIZE = 30


@dataclass(frozen=True)
class Selection:
    """The items chosen, in the page's order, and what was asked for."""

    items: list[Item]
    asked: int

    @property
    def short(self) -> bool:
        """Fewer items exist than were asked for (all of them are shown)."""
        return len(self.items) < self.asked


def select(items: Sequence[Item], size: int, seed: int, most_informative: bool) -> Selection:
    """`size` items (all when fewer exist), stratified or most informative first."""
    rng = random.Random(f"select:{seed}")
    chosen = informative(items, rng) if most_informative else stratified(items, rng)
    return Selection(chosen[:size], size)


def stratified(items: Sequence[Item], rng: random.Random) -> list[Item]:
    """Round-robin over the strata, each stratum's items and the strata shuffled."""
    strata: dict[tuple[tuple[str, ...], str], list[Item]] = {}
    for item in sorted(items, key=lambda i: i.item):
        strata.setdefault(item.stratum, []).append(item)
    groups = [strata[key] for key in sorted(strata)]
    for group in groups:
        rng.shuffle(group)
    rng.shuffle(groups)
    order: list[Item] = []
    for depth in range(max((len(g) for g in groups), default=0)):
        order += [group[depth] for group in groups if depth < len(group)]
    return order


def informative(items: Sequence[Item], rng: random.Random) -> list[Item]:
    """Flags first (swap flip, split panel: more flags first), then the closest verdicts;
    a debate the judge left unscored last; ties in a seeded order."""
    keyed = [(_rank(item), rng.random(), item.item, item) for item in items]
    return [entry[-1] for entry in sorted(keyed)]


def _rank(item: Item) -> tuple[int, float]:
    verdict = item.verdict
    if verdict is None:
        return (1, 2.0)
    flags = int(bool(verdict.swap_flipped)) + int(bool(verdict.panel_split))
    return (-flags, closeness(item))


def closeness(item: Item) -> float:
    """How decided the judge was, 0 (a coin toss) to 1: a rubric margin over its scale,
    a known-answer probability's distance from one half, doubled."""
    verdict = item.verdict
    if verdict is None:
        return 1.0
    if item.kind == "known_answer":
        return 1.0 if verdict.p_correct is None else abs(verdict.p_correct - 0.5) * 2
    return 1.0 if verdict.margin is None else abs(verdict.margin) / MARGIN_SCALE


def a_side(item: Item, seed: int) -> Side:
    """The side shown as A: the record's for a known-answer debate, else a seeded coin
    per item (the same page seed always shows an item the same way)."""
    if item.a_side is not None:
        return item.a_side
    return SIDES[random.Random(f"a-side:{seed}:{item.item}").randrange(2)]
