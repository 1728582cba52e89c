"""Evidence pools: strict rows, topic and side filtering, BM25 ranking, the on-disk cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import bm25s
import numpy as np
import pytest

from debatebench_eval.cli.main import main
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.prep import index as retrieval
from debatebench_eval.prep.index import PoolIndex, document_tokens, tokens
from debatebench_eval.prep.pools import pool_path


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "index-cache"
    monkeypatch.setenv(retrieval.CACHE_VAR, str(folder))
    return folder


def row(
    i: int, topic: str = "carbon tax", side: str | None = "pro", text: str = ""
) -> dict[str, Any]:
    out: dict[str, Any] = {"id": f"r{i}", "topic": topic, "source": "test",
                           "text": text or f"row {i} about {topic}"}  # fmt: skip
    if side is not None:
        out["side"] = side
    return out


def write_pool(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


POOL = [
    row(1, text="Carbon pricing cuts emissions at the lowest cost."),
    row(2, side="con", text="A carbon tax hurts poor households that heat with oil."),
    row(3, text="Revenue from carbon pricing can be returned as a dividend."),
    row(4, topic="wealth tax", text="A wealth tax on fortunes raises revenue."),
    row(5, topic="Carbon  TAX", text="Emissions fell in Sweden under its carbon tax."),
    row(6, text="Unrelated words entirely."),
    row(7, text="Unrelated words entirely."),
]


def test_a_row_whose_topic_shares_a_word_is_a_candidate_ranked_by_topic_first(
    tmp_path: Path,
) -> None:
    index = PoolIndex.open(write_pool(tmp_path / "p.jsonl", POOL), shared=True)
    ids = [r.id for r in index.search("carbon tax emissions cost", "carbon tax", "pro")]
    # "wealth tax" shares "tax": a candidate, but below every "carbon tax" row.
    assert set(ids) == {"r1", "r3", "r4", "r5", "r6", "r7"} and ids[-1] == "r4"
    assert [r.id for r in index.search("carbon", "carbon tax", "con")] == ["r2"]
    assert index.search("anything", "fisheries quota", "pro") == []


def test_exact_topic_matching_is_an_option(tmp_path: Path) -> None:
    index = PoolIndex.open(write_pool(tmp_path / "p.jsonl", POOL), shared=True)
    found = index.search("carbon tax emissions cost", "carbon tax", "pro", match="exact")
    ids = [r.id for r in found]
    assert set(ids) == {"r1", "r3", "r5", "r6", "r7"}  # topic compared without case or spaces
    assert ids[0] in {"r1", "r5"}
    tied = ids.index("r6")
    assert ids[tied + 1] == "r7"  # the same text and topic score the same: file order
    assert index.search("anything", "no such topic", "pro", match="exact") == []
    assert index.search("tax", "tax", "pro", match="exact") == []
    assert len(index.search("carbon", "carbon tax", "pro", k=2, match="exact")) == 2


def test_a_team_corpus_is_filtered_on_topic_alone(tmp_path: Path) -> None:
    rows = [
        row(1, side=None),
        row(2, side=None, topic="wealth tax"),
        row(3, side=None, topic="ferries"),
    ]
    index = PoolIndex.open(write_pool(tmp_path / "c.jsonl", rows), shared=False)
    assert [r.id for r in index.search("row", "carbon tax", None)] == ["r1", "r2"]
    assert [r.id for r in index.search("row", "carbon tax", None, match="exact")] == ["r1"]


# Descriptive topics as real pools write them (debatebench's example corpora do
# the same), with rows of unrelated topics among them.
DESCRIPTIVE = [
    row(1, topic="federal carbon tax and universal rebate", text="Households got the rebate."),
    row(2, topic="carbon tax harm to low income households", text="Heating costs rose."),
    row(3, topic="municipal library hours", text="The library opens at nine."),
    row(4, topic="federal carbon tax and rural households", text="Rural drivers pay more."),
    row(5, topic="coastal ferry timetables", text="The ferry leaves at noon."),
]


def test_descriptive_topics_meet_a_motion_and_unrelated_ones_do_not(tmp_path: Path) -> None:
    index = PoolIndex.open(write_pool(tmp_path / "d.jsonl", DESCRIPTIVE), shared=True)
    motion = "A federal carbon tax would do more good than harm."
    ids = [r.id for r in index.search(motion, motion, "pro")]
    assert set(ids) == {"r1", "r2", "r4"}
    # The row whose topic shares the most words with the motion's ranks first.
    rebate = "The federal carbon tax should fund a universal rebate."
    assert index.search(rebate, rebate, "pro")[0].id == "r1"


def test_scores_are_bm25s_own(tmp_path: Path) -> None:
    pool = write_pool(tmp_path / "p.jsonl", POOL)
    index = PoolIndex.open(pool, shared=True)
    reference = bm25s.BM25(k1=retrieval.K1, b=retrieval.B)
    reference.index([document_tokens(r["topic"], r["text"]) for r in POOL], show_progress=False)
    for query in ("carbon tax emissions", "wealth revenue", "poor households heat"):
        ours = index.bm25.get_scores(tokens(query))
        assert np.allclose(ours, reference.get_scores(tokens(query)), atol=1e-6)


def test_the_same_pool_gives_the_same_passages_in_the_same_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = write_pool(tmp_path / "p.jsonl", POOL)
    first = PoolIndex.open(pool, shared=True).search("carbon", "carbon tax", "pro")
    monkeypatch.setenv(retrieval.CACHE_VAR, str(tmp_path / "other-cache"))
    again = PoolIndex.open(pool, shared=True).search("carbon", "carbon tax", "pro")
    assert first == again


def test_the_index_is_built_once_and_rebuilt_when_the_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = write_pool(tmp_path / "p.jsonl", POOL)
    built: list[Path] = []
    real = retrieval.build_index
    monkeypatch.setattr(retrieval, "build_index", lambda *a: (built.append(a[2]), real(*a)))
    PoolIndex.open(pool, shared=True)
    PoolIndex.open(pool, shared=True)
    assert len(built) == 1
    write_pool(pool, [*POOL, row(8, text="Carbon border adjustments protect industry.")])
    index = PoolIndex.open(pool, shared=True)
    assert len(built) == 2 and built[0] != built[1]
    assert "r8" in [r.id for r in index.search("border industry", "carbon tax", "pro")]


BAD_POOLS = [
    ("not json\n", "line 1: not valid JSON"),
    ('["a", "list"]\n', "line 1: got list; expected a shared pool row"),
    (json.dumps({k: v for k, v in row(1).items() if k != "source"}) + "\n", "exactly"),
    (json.dumps({**row(1), "url": "x"}) + "\n", "'text', 'topic', 'url']"),
    (json.dumps({**row(1), "text": "  "}) + "\n", "line 1: text: got '  '"),
    (json.dumps({**row(1), "topic": 7}) + "\n", "line 1: topic: got 7"),
    (json.dumps(row(1, side="both")) + "\n", "line 1: side: got 'both'; expected pro or con"),
    (json.dumps(row(1, side=None)) + "\n", "line 1: got ['id', 'source', 'text', 'topic']"),
    (json.dumps(row(1)) + "\n" + json.dumps(row(1)) + "\n", "line 2: id 'r1' is also on line 1"),
    ("", "the pool is empty"),
    (json.dumps(row(1)) + "\n\n", "line 2: not valid JSON"),
    (json.dumps(row(1)) + "\n" + json.dumps(row(2))[:-3] + "\n", "line 2: not valid JSON"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), BAD_POOLS)
def test_a_malformed_pool_is_one_error_naming_file_and_line(
    tmp_path: Path, text: str, expected: str
) -> None:
    pool = tmp_path / "bad.jsonl"
    pool.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.jsonl") as info:
        PoolIndex.open(pool, shared=True)
    assert expected in str(info.value)


def test_a_corpus_row_must_not_carry_a_side(tmp_path: Path) -> None:
    pool = write_pool(tmp_path / "c.jsonl", [row(1)])
    with pytest.raises(ConfigError, match="no side: it is the team's own"):
        PoolIndex.open(pool, shared=False)


def test_pool_names_resolve_like_debatebench(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert pool_path("example", "-T sources").name == "example.jsonl"
    monkeypatch.setenv("DEBATEBENCH_SOURCES_DIR", str(tmp_path))
    with pytest.raises(ConfigError, match="not on disk at"):
        pool_path("args-me", "-T sources")
    write_pool(tmp_path / "args-me.jsonl", POOL)
    assert pool_path("args-me", "-T sources") == tmp_path / "args-me.jsonl"
    assert pool_path(str(tmp_path / "args-me.jsonl"), "x") == tmp_path / "args-me.jsonl"
    with pytest.raises(ConfigError, match="unknown pool 'wiki'"):
        pool_path("wiki", "-T sources")
    with pytest.raises(ConfigError, match="pool file not found"):
        PoolIndex.open(tmp_path / "missing.jsonl", shared=True)


def test_the_index_command_builds_ahead_of_a_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pool = write_pool(tmp_path / "p.jsonl", POOL)
    assert main(["index", str(pool)]) == 0
    assert "7 rows, 2 topics" in capsys.readouterr().out
    (tmp_path / "bad.jsonl").write_text("{}\n")
    assert main(["index", str(tmp_path / "bad.jsonl")]) == 2
    assert "bad.jsonl: line 1" in capsys.readouterr().err


def test_a_motion_without_query_words_keeps_file_order(tmp_path: Path) -> None:
    rows = [row(1, topic="碳税", text="甲"), row(2, topic="碳税", text="乙"), row(3, topic="x")]
    index = PoolIndex.open(write_pool(tmp_path / "p.jsonl", rows), shared=True)
    found = index.search("应该征收碳税", "碳税", "pro", match="exact")
    assert [r.id for r in found] == ["r1", "r2"]
    # Matching by words needs words: a topic without any has no candidates.
    assert index.search("应该征收碳税", "碳税", "pro") == []
