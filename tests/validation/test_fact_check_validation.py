"""The fact-check validation: the planted set, claim matching, the statistics, and the
honesty of the figures (an oracle judge scores 1.0, a random one sits at the baselines)."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.trust.digests import KEY_FILE, bundled_set_dir
from debatebench_eval.validation.check_reader import read_check_log
from debatebench_eval.validation.claim_matching import match_ledger
from debatebench_eval.validation.claim_stats import baselines, macro_f1, summarise_claims
from debatebench_eval.validation.fact_check_scorer import HEADLINE, debate_outcome
from debatebench_eval.validation.fact_check_task import fact_check_validation
from debatebench_eval.validation.planted_set import load_planted_set

from support import fact_check_set
from support.judge_checks import oracle_judge, planted_set, random_judge
from support.scripted import Script, output
from support.terminal import assert_printed_whole


def metrics(log: EvalLog) -> dict[str, float]:
    """Every figure: the headline the run prints (its results) and the rest, which
    `debatebench-eval report` and `trust` read from the samples."""
    assert log.results is not None
    shown = {n: m.value for s in log.results.scores for n, m in s.metrics.items()}
    assert set(shown) <= set(HEADLINE)  # the end of a run prints the headline only
    every = read_check_log(log.location).summary.as_metrics()
    assert shown == pytest.approx({name: every[name] for name in shown}, nan_ok=True)
    return {name: value for name, value in every.items() if value is not None}


def run(tmp: Path, judge: Script, **args: Any) -> EvalLog:
    return eval(
        fact_check_validation(**args), model=Script("main").model(),
        model_roles={"judge": judge.model()}, log_dir=str(tmp / "logs"), display="none",
    )[0]  # fmt: skip


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, EvalLog]]:
    """The whole set judged once by each scripted judge (trust records kept private)."""
    tmp = tmp_path_factory.mktemp("fact-check")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DEBATEBENCH_EVAL_TRUST_DIR", str(tmp / "trust"))
        yield {"oracle": run(tmp, oracle_judge()), "random": run(tmp, random_judge())}


# ------------------------------------------------------------------ the set


def test_the_shipped_set_is_what_its_source_builds() -> None:
    assert fact_check_set.main(["", "check"]) == 0


def test_the_set_is_balanced_across_verdicts_sides_and_positions() -> None:
    claims = [c for claims in load_planted_set().claims.values() for c in claims]
    assert len(load_planted_set().records) >= 60 and len(claims) == 512
    for key in (lambda c: c.verdict, lambda c: (c.verdict, c.side),
                lambda c: (c.verdict, c.position)):  # fmt: skip
        counts = Counter(map(key, claims))
        assert len(set(counts.values())) == 1, counts
    kinds = Counter(c.kind for c in claims)
    # Every kind the issue names is planted: exact and paraphrased quotes of passages
    # and turns, contradictions by passage and by turn, invented figures and
    # studies, value judgements and predictions.
    assert all(kinds[k] >= 12 for k in ("passage_exact", "passage_paraphrase", "turn_exact",
               "turn_paraphrase", "passage_contradiction", "turn_never_mentioned",
               "turn_misreported", "invented_figure", "invented_study", "value_judgement",
               "prediction"))  # fmt: skip


def test_every_claim_is_in_its_turn_and_its_evidence_in_the_record() -> None:
    found = load_planted_set()
    for debate, claims in found.claims.items():
        record = found.records[debate]
        texts = {t.id: t.text for t in record.turns} | {p.id: p.text for p in record.passages}
        for claim in claims:
            assert claim.text in texts[claim.turn]
            assert all(e in texts and e != claim.turn for e in claim.evidence)


def copy_set(tmp_path: Path) -> Path:
    folder = tmp_path / "set"
    shutil.copytree(bundled_set_dir(), folder)
    return folder


def edit_row(folder: Path, number: int, change: dict[str, Any]) -> None:
    key = folder / KEY_FILE
    lines = key.read_text().splitlines()
    row = json.loads(lines[number - 1])
    for name, value in change.items():
        if value is None:
            del row[name]
        else:
            row[name] = value
    lines[number - 1] = json.dumps(row)
    key.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(
    ("change", "field", "found"),
    [
        ({"verdict": "true"}, "verdict", "got 'true'"),
        ({"kind": "invented_study"}, "kind", "got 'invented_study'"),
        ({"text": "A claim nobody made."}, "text", "is not in the text of the turn"),
        ({"phase_index": 0}, "phase_index", "got 0"),
        ({"evidence": ["example-nowhere-1"]}, "evidence", "names nothing in the debate"),
        ({"side": "both"}, "side", "got 'both'"),
        ({"debate": "fc-99-nowhere"}, "debate", "has no transcript"),
        ({"evidence": None}, "evidence", "the field is missing"),
    ],
)
def test_a_bad_key_row_is_named_by_file_row_and_field(
    tmp_path: Path, change: dict[str, Any], field: str, found: str
) -> None:
    folder = copy_set(tmp_path)
    edit_row(folder, 3, change)
    with pytest.raises(ConfigError) as error:
        load_planted_set(folder)
    assert error.value.where == f"{folder / KEY_FILE}: row 3: {field}"
    assert found in error.value.found


def test_a_row_that_is_not_json_and_a_broken_transcript_are_named(tmp_path: Path) -> None:
    folder = copy_set(tmp_path)
    key = folder / KEY_FILE
    key.write_text(key.read_text().replace("{", "[", 1))
    with pytest.raises(ConfigError, match=r"claims\.jsonl: row 1: is not JSON"):
        load_planted_set(folder)
    folder = copy_set(tmp_path / "again")
    transcript = folder / "transcripts" / "fc-02-universal-basic-income.json"
    document = json.loads(transcript.read_text())
    document["turns"][3]["side_index"] = 7
    transcript.write_text(json.dumps(document))
    with pytest.raises(ConfigError, match=r"fc-02-universal-basic-income\.json: turns\[3\]"):
        load_planted_set(folder)


def test_a_bad_task_argument_is_one_message() -> None:
    with pytest.raises(ConfigError, match="-T data"):
        fact_check_validation(data="/nowhere/at/all")
    with pytest.raises(ConfigError, match="-T judge_budget"):
        fact_check_validation(judge_budget="many")
    with pytest.raises(ConfigError, match="unknown argument"):
        fact_check_validation(rubric="mine.yaml")


# ------------------------------------------------------------------ matching


def ledger(*entries: tuple[str, str, str]) -> list[dict[str, Any]]:
    return [{"turn": t, "claim": c, "verdict": v, "citations": []} for t, c, v in entries]


def test_a_restated_claim_is_matched_and_a_misattributed_one_is_not() -> None:
    claims = planted_set().claims["fc-05-carbon-tax"]
    first, second = claims[0], claims[1]  # the two claims of the first opening
    judged = ledger(
        (first.turn, "The speaker says rural drivers and people in cold regions have plenty of "
                     "alternatives to fossil fuels", "contradicted"),
        (second.turn, "Denmark's carbon pricing cut heating bills 18 percent", "unsupported"),
        (claims[2].turn, "Rural drivers have plenty of alternatives to fossil fuels", "supported"),
        (first.turn, "Thank you, chair", "not_checkable"),
    )  # fmt: skip
    outcomes, extras = match_ledger(claims, judged)
    by_id = {o.claim_id: o for o in outcomes}
    assert by_id[first.claim_id].predicted == "contradicted"
    assert by_id[second.claim_id].predicted == "unsupported"
    assert all(by_id[c.claim_id].predicted is None for c in claims[2:])
    assert extras == 2  # the pleasantry, and the claim put under the wrong turn


def test_a_citation_counts_only_when_it_names_a_deciding_id_and_is_verified() -> None:
    claim = next(c for c in planted_set().claims["fc-01-carbon-tax"] if c.verdict == "supported")
    entry = {"turn": claim.turn, "claim": claim.text, "verdict": "supported"}
    for citations, cited in (
        ([{"id": claim.evidence[0], "verified": True}], True),
        ([{"id": claim.evidence[0], "verified": False}], False),
        ([{"id": "example-carbon-tax-con-8", "verified": True}], False),
    ):
        outcomes, _ = match_ledger([claim], [{**entry, "citations": citations}])
        assert outcomes[0].cited is cited


# ------------------------------------------------------------------ statistics


def test_macro_f1_and_the_baselines_by_hand() -> None:
    perfect = np.diag([5, 5, 5, 5, 0])[:4]
    assert macro_f1(perfect) == 1.0
    gold = ["supported", "contradicted", "unsupported", "not_checkable"] * 50
    found = baselines(gold)
    # all not_checkable: precision 1/4, recall 1 for that class, 0 elsewhere: F1 0.4 / 4
    assert found["all_not_checkable"] == pytest.approx(0.1)
    assert found["majority"] == pytest.approx(0.1)
    assert found["random"] == pytest.approx(0.25, abs=0.01)


def test_the_oracle_judge_reaches_one(judged: dict[str, EvalLog]) -> None:
    found = metrics(judged["oracle"])
    for name in ("macro_f1", "macro_f1_low", "claim_recall", "citation_accuracy", "parse_rate"):
        assert found[name] == 1.0, name
    assert found["planted"] == 512 and found["extras"] == 0
    assert found["confusion.supported>supported"] == 128
    assert_printed_whole(found)


def test_the_random_judge_sits_at_the_baselines(judged: dict[str, EvalLog]) -> None:
    found = metrics(judged["random"])
    assert found["macro_f1_low"] <= found["baseline.random"] <= found["macro_f1_high"]
    assert found["macro_f1_high"] < 0.6 and found["citation_accuracy"] == 0
    assert found["baseline.majority"] == found["baseline.all_not_checkable"] == pytest.approx(0.1)


def test_the_log_the_metric_and_a_reread_agree(judged: dict[str, EvalLog]) -> None:
    log = judged["random"]
    scores = [(s.id, s.scores["planted_claims"]) for s in log.samples or [] if s.scores]
    again = summarise_claims([debate_outcome(score, sid) for sid, score in scores]).as_metrics()
    # An undefined figure is None there, and left out of the log's results.
    defined = {k: v for k, v in again.items() if v is not None}
    assert defined == pytest.approx(metrics(log), nan_ok=True)


def test_an_unusable_reply_lowers_the_parse_rate_and_nothing_else(tmp_path: Path) -> None:
    oracle = oracle_judge()
    refusing = {"fc-01-carbon-tax", "fc-02-universal-basic-income"}

    def reply(n: int, messages: list[Any], config: Any) -> Any:
        prompt = str(messages[1].content)
        if any(planted_set().claims[d][0].turn in prompt for d in refusing):
            return output("judge", "I cannot check this debate.")
        assert oracle.reply is not None
        return oracle.reply(n, messages, config)

    log = run(tmp_path, Script("judge", reply))
    found = metrics(log)
    assert found["parse_rate"] == pytest.approx(62 / 64)
    assert found["macro_f1"] == 1.0 and found["planted"] == 62 * 8
    unparsed = [s for s in log.samples or [] if s.id in refusing]
    score = (unparsed[0].scores or {})["planted_claims"]
    assert score.value["parsed"] == 0 and "not valid JSON" in str(score.explanation)


def test_the_judge_task_reads_the_set_as_it_reads_any_transcripts() -> None:
    from debatebench_eval.interop.judge_task import judge

    task = judge(transcripts=str(bundled_set_dir() / "transcripts"))
    assert len(task.dataset) == 64
