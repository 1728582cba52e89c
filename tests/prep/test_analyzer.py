"""Retrieval analyzers: `latin` as before, `cjk-fold` finds Chinese across scripts."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import bm25s
import pytest

from debatebench_eval.prep import index as retrieval
from debatebench_eval.prep.index import CJK_FOLD, PoolIndex, settings_key, tokens


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "index-cache"
    monkeypatch.setenv(retrieval.CACHE_VAR, str(folder))
    return folder


ROWS = [
    "市場街的停車位將被移除。",  # Traditional: parking on Market Street removed
    "自行車道試點期間碰撞事故減少了三分之一。",  # Traditional: collisions fell during the pilot
    "Traders reported lower takings on Market Street.",
]


def write_corpus(path: Path) -> Path:
    rows = [{"id": f"r{i}", "topic": "t", "source": "s", "text": t} for i, t in enumerate(ROWS)]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_a_simplified_query_finds_traditional_text(tmp_path: Path) -> None:
    index = PoolIndex.open(write_corpus(tmp_path / "c.jsonl"), shared=False, analyzer=CJK_FOLD)
    assert index.analyzer == CJK_FOLD
    assert index.search("自行车道碰撞", "t", None, k=1)[0].id == "r1"
    assert index.search("traders takings", "t", None, k=1)[0].id == "r2"


def test_the_latin_analyzer_sees_no_chinese_terms() -> None:
    assert tokens("自行車道 cycle lane") == ["cycle", "lane"]
    assert tokens("自行車道 cycle lane", CJK_FOLD) == ["cycle", "lane", "自行", "行车", "车道"]


def test_each_analyzer_has_its_own_index_and_latin_keeps_its_old_key(tmp_path: Path) -> None:
    old = json.dumps(
        [
            retrieval._TOKEN.pattern,
            sorted(retrieval._STOPWORDS),
            1.5,
            0.75,
            retrieval.TOPIC_WEIGHT,
            bm25s.__version__,
        ]
    )
    assert settings_key() == hashlib.sha256(old.encode()).hexdigest()[:12]
    assert settings_key(CJK_FOLD) != settings_key()
    pool = write_corpus(tmp_path / "c.jsonl")
    latin, folded = PoolIndex.open(pool, False), PoolIndex.open(pool, False, CJK_FOLD)
    assert latin.folder != folded.folder and latin.analyzer == "latin"
