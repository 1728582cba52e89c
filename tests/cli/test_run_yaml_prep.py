"""A run.yaml with prep from team corpora, given by path from another folder, as
debatebench's own `examples/run-prep.yaml` is laid out: each team file carries a
corpus beside it, with descriptive topics and unrelated rows among them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from debatebench_eval.record.store import DebateRecord

from support.commands import only_log
from support.stub_server import StubServer

INSPECT = str(Path(sys.executable).parent / "inspect")
MOTION = "A federal carbon tax would do more good than harm."
CORPORA = {
    "green": [
        ("g1", "federal carbon tax and universal rebate", "A rebate returned the revenue."),
        ("g2", "carbon tax and public investment", "Revenue funded rail."),
        ("g3", "municipal library hours", "The library opens at nine."),
    ],
    "liberty": [
        ("l1", "federal carbon tax and enumerated powers", "The power to tax has limits."),
        ("l2", "carbon tax harm to households", "Heating bills rose."),
        ("l3", "county fairground maintenance", "The fairground needs paint."),
    ],
}


def write_project(root: Path, base_url: str) -> Path:
    teams = root / "teams"
    teams.mkdir(parents=True)
    for name, rows in CORPORA.items():
        corpus = "".join(
            json.dumps({"id": i, "topic": topic, "source": name, "text": text}) + "\n"
            for i, topic, text in rows
        )
        (teams / f"{name}-corpus.jsonl").write_text(corpus, encoding="utf-8")
        (teams / f"{name}.yaml").write_text(
            f"id: {name}\nname: {name.title()}\nvoice: plain\nstance: s\nvalues: [v]\n"
            f"corpus: {name}-corpus.jsonl\n",
            encoding="utf-8",
        )
    team = "  - team: teams/{name}.yaml\n    side: {side}\n    model: stub\n" \
           "    base_url: {url}\n    budget: 60\n    prep_budget: 40\n"  # fmt: skip
    run = (
        f'topic: "{MOTION}"\nformat:\n  phases: [prep, opening:short]\nteams:\n'
        + team.format(name="green", side="pro", url=base_url)
        + team.format(name="liberty", side="con", url=base_url)
        + "seed: 7\noutput: transcript-prep.json\n"
    )
    (root / "run-prep.yaml").write_text(run, encoding="utf-8")
    return root / "run-prep.yaml"


def test_team_corpora_are_found_beside_their_team_files_from_any_folder(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    with StubServer() as stub:
        config = write_project(tmp_path / "project", stub.base_url)
        result = subprocess.run(
            [INSPECT, "eval", "debatebench/debate", "-T", f"config={config}", "-T",
             "fact_check=false", "-T", "swap_judging=false", "--display", "plain",
             "--log-dir", str(tmp_path / "logs"),
             "--model", "openai-api/debatebench/stub", "--model-base-url", stub.base_url],
            cwd=elsewhere, capture_output=True, text=True, timeout=240,
            env={**os.environ, "DEBATEBENCH_API_KEY": "k",
                 "DEBATEBENCH_EVAL_CACHE": str(tmp_path / "cache"), "NO_COLOR": "1"},
        )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    sample = (only_log(tmp_path / "logs").samples or [])[0]
    assert sample.error is None, sample.error
    record = sample.store_as(DebateRecord)
    by_side = {
        side: {p.row_id for p in record.passages if p.side == side} for side in ("pro", "con")
    }
    # Rows whose topic shares a word with the motion's; the library and fairground rows never.
    assert by_side == {"pro": {"g1", "g2"}, "con": {"l1", "l2"}}
