"""Which debates a page shows: a stratified round-robin by default, the debates whose
verdict most needs checking first with most_informative; seeded, sides drawn per item."""

from __future__ import annotations

from collections import Counter
from typing import Any

from debatebench_eval.annotation.items import Item, ItemSpeech, JudgeVerdict
from debatebench_eval.annotation.selection import a_side, select


def item(n: int, models: tuple[str, str] = ("a", "b"), topic: str = "m0", **verdict: Any) -> Item:
    kind = "known_answer" if "p_correct" in verdict else "rubric"
    return Item(item=f"log.eval:s{n}:1", digest=f"{n:016x}", kind=kind, log="log.eval",
                sample_id=f"s{n}", epoch=1, models=models, topic=topic, prompt="P.",
                speeches=(ItemSpeech(speaker="pro", stage="opening", text="x"),),
                a_side="pro" if kind == "known_answer" else None,
                verdict=JudgeVerdict(**verdict) if verdict else None)  # fmt: skip


def grid() -> list[Item]:
    """Three pairs by two motions; one stratum holds ten debates, the others one each."""
    found = [item(i, ("a", "b"), "m0", winner="pro", margin=30.0) for i in range(10)]
    n = 10
    for models in (("a", "b"), ("a", "c"), ("b", "c")):
        for topic in ("m0", "m1"):
            if (models, topic) != (("a", "b"), "m0"):
                found.append(item(n, models, topic, winner="con", margin=30.0))
                n += 1
    return found


def test_a_small_stratified_page_covers_every_stratum_first() -> None:
    chosen = select(grid(), 6, seed=0, most_informative=False)
    assert len({i.stratum for i in chosen.items}) == 6
    bigger = select(grid(), 8, seed=0, most_informative=False)
    counts = Counter(i.stratum for i in bigger.items)
    assert counts[(("a", "b"), "m0")] == 3 and not bigger.short


def test_the_seed_draws_the_sample_and_the_same_seed_repeats_it() -> None:
    first = [i.item for i in select(grid(), 8, seed=0, most_informative=False).items]
    again = [i.item for i in select(grid(), 8, seed=0, most_informative=False).items]
    other = [i.item for i in select(grid(), 8, seed=5, most_informative=False).items]
    assert first == again and first != other


def test_most_informative_puts_flags_then_close_verdicts_first() -> None:
    items = [
        item(0, winner="pro", margin=40.0),
        item(1, winner="pro", margin=2.0),
        item(2, winner="con", margin=30.0, swap_flipped=True),
        item(3, winner="pro", margin=20.0, swap_flipped=True, panel_split=True),
        item(4, pick="A", pick_right=True, p_correct=0.52),
        item(5, pick="A", pick_right=True, p_correct=0.95),
        item(6),  # unscored: last
    ]
    order = [i.sample_id for i in select(items, 7, seed=1, most_informative=True).items]
    assert order == ["s3", "s2", "s1", "s4", "s0", "s5", "s6"]


def test_asking_for_more_than_exists_gives_all_and_says_so() -> None:
    chosen = select(grid(), 100, seed=0, most_informative=False)
    assert len(chosen.items) == len(grid()) and chosen.short and chosen.asked == 100


def test_a_side_is_drawn_per_item_from_the_seed_and_fixed_for_known_answer() -> None:
    items = grid()
    sides = [a_side(i, 0) for i in items]
    assert set(sides) == {"pro", "con"}
    assert sides == [a_side(i, 0) for i in items]
    assert sides != [a_side(i, 1) for i in items]
    known = item(99, pick="A", pick_right=True, p_correct=0.6)
    assert {a_side(known, seed) for seed in range(5)} == {"pro"}
