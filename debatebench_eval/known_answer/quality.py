"""QuALITY (Pang et al. 2022) as known-answer questions, and its hard subset.

QuALITY's public copy is its release's JSON-lines files (one article a line,
its questions inside: `options` (four), `gold_label` and `writer_label`
(1-based), the untimed annotators' `validation` and the timed ones'
`speed_validation`). They are read through `datasets` (its `json` builder,
from a local path or a URL the user gives: nothing is fetched unless asked).

Each question becomes two answers: the gold one and the best distractor (the
one the untimed annotators named most often as the most tempting wrong
answer, as Khan et al. 2024 do). The article is the hidden evidence.

The `hard` subset follows Khan et al.'s filters (their Appendix D and the data
code of github ucl-dark/llm_debate): the writer's label is the gold label;
every untimed annotator chose the gold answer; every one rated the question
answerable (`untimed_eval1_answerability` 1); their mean "context required"
rating (`untimed_eval2_context`) is at least 1.5; and fewer than half of the
timed annotators answered it correctly (the question is hard without reading).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.known_answer.questions import Question

MIN_CONTEXT_RATING = 1.5


def load_quality(source: str, *, hard: bool = True) -> tuple[Question, ...]:
    """QuALITY's questions from one of its JSON-lines files (a path or a URL),
    read through `datasets`; only the hard subset when `hard`."""
    import datasets

    try:
        rows = datasets.load_dataset("json", data_files=source, split="train")
    except Exception as exc:  # datasets raises many kinds for a bad file or URL
        raise ConfigError(
            "-T quality", f"could not read {source}: {exc}", "a QuALITY JSON-lines file or URL"
        ) from None
    found = quality_questions(rows, hard=hard)
    if not found:
        subset = "hard subset" if hard else "file"
        raise ConfigError("-T quality", f"no question of {source} is in the {subset}", "questions")
    return found


def quality_questions(articles: Iterable[Mapping[str, Any]], *, hard: bool) -> tuple[Question, ...]:
    """Every question of the articles (only the hard ones when `hard`) with its
    gold answer and best distractor, the article as evidence."""
    found: list[Question] = []
    for article in articles:
        for number, item in enumerate(article["questions"]):
            if hard and not is_hard(item):
                continue
            found.append(_question(article, number, item))
    return tuple(found)


def is_hard(item: Mapping[str, Any]) -> bool:
    """Khan et al.'s filters (module docstring)."""
    gold = item["gold_label"]
    untimed = list(item.get("validation") or [])
    timed = list(item.get("speed_validation") or [])
    if item.get("writer_label") != gold or not untimed or not timed:
        return False
    if any(v["untimed_answer"] != gold for v in untimed):
        return False
    if any(v["untimed_eval1_answerability"] != 1 for v in untimed):
        return False
    context = sum(v["untimed_eval2_context"] for v in untimed) / len(untimed)
    right = sum(v["speed_answer"] == gold for v in timed)
    return bool(context >= MIN_CONTEXT_RATING and right < len(timed) / 2)


def best_distractor(item: Mapping[str, Any]) -> int:
    """The 1-based label the untimed annotators named most as the best distractor
    (ties: the lower label), else the first wrong option."""
    gold = item["gold_label"]
    votes = Counter(
        v["untimed_best_distractor"]
        for v in item.get("validation") or []
        if v.get("untimed_best_distractor") not in (None, gold)
    )
    if votes:
        top = max(votes.values())
        return int(min(label for label, count in votes.items() if count == top))
    return next(label for label in range(1, len(item["options"]) + 1) if label != gold)


def _question(article: Mapping[str, Any], number: int, item: Mapping[str, Any]) -> Question:
    options = item["options"]
    right = options[item["gold_label"] - 1].strip()
    wrong = options[best_distractor(item) - 1].strip()
    key = item.get("question_unique_id") or f"{article['article_id']}_{number}"
    return Question(
        id="quality-" + str(key).lower().replace(" ", "-"),
        question=item["question"].strip(),
        answers=(right, wrong),
        correct=0,
        evidence=article["article"],
        category=str(article.get("source") or "quality"),
    )
