"""The prep phase: private evidence per side, cite-or-lose, run.yaml pools and team corpora."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import GenerateConfig, ModelOutput

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debating.run_yaml import parse_run_yaml
from debatebench_eval.prep import index as retrieval
from debatebench_eval.record.store import DebateRecord

from support.paths import ROOT
from support.scripted import Script, output

PREP = {"phases": "[prep, opening, rebuttal]", "sources": "[example]", "prep_budget": 300}
CARBON = {"motions": "default", "motion": None, "eval_args": {"sample_id": "carbon-tax"}}


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(retrieval.CACHE_VAR, str(tmp_path / "index-cache"))


def debater(name: str, speech: str) -> Script:
    def reply(n: int, messages: list[Any], config: GenerateConfig) -> ModelOutput:
        prompt = str(messages[-1].content)
        text = f"{name} notes." if "Write your private prep notes" in prompt else speech
        return output(name, text)

    return Script(name, reply=reply)


def debate_with_prep(run_debate: Any, pro: Script, con: Script, **args: Any) -> Any:
    roles = {"pro": pro.model(), "con": con.model()}
    merged = {**PREP, **CARBON, "fact_check": False, "swap_judging": False, **args}
    return run_debate(roles=roles, **merged)


def record_of(log: Any) -> DebateRecord:
    sample = (log.samples or [])[0]
    assert sample.error is None, sample.error
    return sample.store_as(DebateRecord)


def test_each_side_gets_its_own_passages_and_writes_private_notes(run_debate: Any) -> None:
    pro, con = debater("pro", "Pro argues [P1]."), debater("con", "Con argues [P9].")
    record = record_of(debate_with_prep(run_debate, pro, con))
    sides = {p.side for p in record.passages}
    assert sides == {"pro", "con"} and len(record.passages) == 16
    assert [p.id for p in record.passages] == [f"P{i}" for i in range(1, 17)]
    assert all(
        p.pool == "example" and p.row_id.startswith("example-carbon-tax-") for p in record.passages
    )
    assert {p.row_id.split("-")[3] for p in record.passages if p.side == "con"} == {"con"}
    prep = [t for t in record.turns if t.phase == "prep"]
    assert [t.text for t in prep] == ["pro notes.", "con notes."]
    assert all(t.budget == 300 for t in prep)
    # Prep calls are capped by prep_budget, argument calls by the side's budget.
    assert [c.config.max_tokens for c in pro.calls] == [300, 2000, 2000]


def test_the_opponent_never_sees_the_other_sides_evidence_or_notes(run_debate: Any) -> None:
    pro, con = debater("pro", "Pro argues [P1]."), debater("con", "Con argues [P9].")
    record = record_of(debate_with_prep(run_debate, pro, con))
    for own, other, script in (("pro", "con", pro), ("con", "pro", con)):
        sent = "\n".join(str(m.content) for call in script.calls for m in call.messages)
        for passage in record.passages:
            assert (passage.text in sent) == (passage.side == own), passage.id
        assert f"{own} notes." in sent and f"{other} notes." not in sent


def test_citations_are_recorded_and_bad_ones_flagged(run_debate: Any) -> None:
    pro = debater("pro", "As [P2] shows, and [P12] and [P99] too, [P2] again.")
    con = debater("con", "Con argues [P9].")
    record = record_of(debate_with_prep(run_debate, pro, con))
    opening = next(t for t in record.turns if t.phase == "opening" and t.side == "pro")
    assert opening.cited_ids == ["P2", "P12", "P99"]
    assert opening.citation_problems == {"P12": "the opponent's passage", "P99": "no such passage"}
    con_turn = next(t for t in record.turns if t.phase == "opening" and t.side == "con")
    assert con_turn.cited_ids == ["P9"] and con_turn.citation_problems == {}


def test_the_judge_sees_every_passage_and_scores_prep_grounded(run_debate: Any) -> None:
    judge = Script("judge", reply=lambda n, m, c: output("judge", "no json"))
    pro, con = debater("pro", "Pro [P1]."), debater("con", "Con [P9].")
    roles = {"pro": pro.model(), "con": con.model(), "judge": judge.model()}
    log = run_debate(roles=roles, **{**PREP, **CARBON, "fact_check": False})
    record = record_of(log)
    prompt = str(judge.calls[0].messages[1].content)
    assert all(f"[{p.id}] {p.text}" in prompt for p in record.passages)
    assert ((log.samples or [])[0].scores or {})["rubric"].metadata["prep_grounded"] is True


def test_a_side_with_no_evidence_fails_the_sample(run_debate: Any) -> None:
    pro, con = debater("pro", "x"), debater("con", "y")
    log = run_debate(roles={"pro": pro.model(), "con": con.model()}, **PREP, fact_check=False)
    sample = (log.samples or [])[0]
    assert sample.error and "no evidence for the pro side on topic" in sample.error.message
    assert pro.calls == []


def test_the_viewer_shows_each_sides_evidence_and_citations(run_debate: Any) -> None:
    pro, con = debater("pro", "Pro argues [P1]."), debater("con", "Con [P99].")
    log = debate_with_prep(run_debate, pro, con)
    texts = [m.text for m in (log.samples or [])[0].messages]
    assert any(t.startswith("### Prep evidence — PRO (private to PRO)") for t in texts)
    assert any("cites P99 · flagged P99 (no such passage)" in t for t in texts)


def team_with_corpus(folder: Path, rows: list[dict[str, str]]) -> Path:
    (folder / "corpus").mkdir(parents=True, exist_ok=True)
    corpus = folder / "corpus" / "mine.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    team = folder / "team.yaml"
    team.write_text(
        "id: greens\nname: Greens\nvoice: calm\nstance: pragmatic\nvalues: [evidence]\n"
        "corpus: corpus/mine.jsonl\n",
        encoding="utf-8",
    )
    return team


def test_a_team_corpus_is_read_relative_to_its_team_file(run_debate: Any, tmp_path: Path) -> None:
    rows = [{"id": "g1", "topic": "carbon tax", "source": "greens", "text": "Our own study."}]
    team = team_with_corpus(tmp_path / "teams", rows)
    pro, con = debater("pro", "Pro [P1]."), debater("con", "Con [P9].")
    record = record_of(debate_with_prep(run_debate, pro, con, con_team=str(team),
                                        phases="[prep, opening]"))  # fmt: skip
    con_passages = [(p.pool, p.row_id) for p in record.passages if p.side == "con"]
    # The shared pool's rows first, then the team's own corpus.
    assert con_passages[-1] == ("mine", "g1") and len(con_passages) == 9


def test_a_bad_team_corpus_stops_the_task_before_any_call(tmp_path: Path, run_debate: Any) -> None:
    rows = [{"id": "g1", "topic": "carbon tax", "side": "con", "source": "x", "text": "t"}]
    team = team_with_corpus(tmp_path / "teams", rows)
    with pytest.raises(ConfigError, match=r"mine\.jsonl: line 1"):
        run_debate(**{**PREP, "con_team": str(team)})


RUN_WITH_PREP = """\
topic: "carbon tax"
format:
  phases: [prep, opening]
sources: [args-me]
teams:
  - team: a.yaml
    side: pro
    model: qwen3:8b
    base_url: http://127.0.0.1:11434/v1
    budget: 400
    prep_budget: 250
  - team: a.yaml
    side: con
    model: qwen3:8b
    base_url: http://127.0.0.1:11434/v1
    budget: 400
    prep_budget: 150
"""


def test_a_run_yaml_with_prep_and_a_vetted_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from debatebench_eval.debating.task import debate

    (tmp_path / "a.yaml").write_text(
        "id: a\nname: A\nvoice: v\nstance: s\nvalues: [x]\n", encoding="utf-8"
    )
    (tmp_path / "run.yaml").write_text(RUN_WITH_PREP, encoding="utf-8")
    settings = parse_run_yaml(tmp_path / "run.yaml")
    assert settings.prep_budgets == {"pro": 250, "con": 150} and settings.sources == ("args-me",)
    monkeypatch.setenv("DEBATEBENCH_SOURCES_DIR", str(tmp_path / "sources"))
    with pytest.raises(ConfigError, match="pool 'args-me' is not on disk"):
        debate(config=str(tmp_path / "run.yaml"))
    (tmp_path / "sources").mkdir()
    example = ROOT / "tasks" / "sources" / "example.jsonl"
    (tmp_path / "sources" / "args-me.jsonl").write_text(example.read_text(), encoding="utf-8")
    assert debate(config=str(tmp_path / "run.yaml")) is not None


def test_lists_of_citations_are_read() -> None:
    from debatebench_eval.prep.citations import citations
    from debatebench_eval.record.store import Passage

    passages = [Passage(id=f"P{i}", pool="x", row_id=str(i), side="pro" if i < 3 else "con",
                        text="t") for i in (1, 2, 3)]  # fmt: skip
    cited, problems = citations("As [P1, P2] and [p3; P9] show, [ P1 ].", passages, "pro")
    assert cited == ["P1", "P2", "P3", "P9"]
    assert problems == {"P3": "the opponent's passage", "P9": "no such passage"}
