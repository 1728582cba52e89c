"""The report (always with its limitations) and the argument graph, read from a saved log."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from inspect_ai.log import EvalLog

from debatebench_eval.cli.main import main
from debatebench_eval.truth_crucible.graph import write_graphs
from debatebench_eval.truth_crucible.log_reader import NotACrucibleLog
from debatebench_eval.truth_crucible.report import write_reports

from support.crucible_replies import Behaviour, CrucibleScript, claims_reply, replace

Run = Callable[..., EvalLog]


def fabricate_first(system: str, prompt: str, schema: dict[str, Any]) -> str:
    data = json.loads(claims_reply(system, prompt, Behaviour()))
    data["claims"][0]["evidence"][0]["excerpt"] = "words that appear nowhere in the corpus at all"
    return json.dumps(data)


@pytest.fixture
def log(run_crucible: Run) -> EvalLog:
    script = CrucibleScript(
        Behaviour(overrides={"crucible_claims": replace(fabricate_first, side="con")})
    )
    return run_crucible(script, "j1", "j2", rounds=2, position_swap=True)


def test_the_report_has_every_section_and_always_its_limitations(
    log: EvalLog, tmp_path: Path
) -> None:
    written = write_reports(log.location, tmp_path / "out")
    assert [p.name for p in written] == ["final_report.md", "conflicts.md"]
    report = written[0].read_text("utf-8")
    for heading in (
        "## Verdict",
        "## Claims (medians across judges)",
        "## Evidence and its verification",
        "## Unverified claims",
        "## Conflicts",
        "## Rounds",
        "## Topic neutralisation",
        "## Judges",
        "## Limitations",
    ):
        assert heading in report, heading
    limits = report.split("## Limitations", 1)[1]
    assert "not a finding that either position is true" in limits
    assert "1 of 6 claims lost all their evidence" in limits
    assert "Topic neutralisation was off" in limits
    assert "The judges are unvalidated" in limits
    assert "| C-CON-01 | CON | no verified evidence (evidence 1: quote not found" in report
    assert "| swap |" in report
    conflicts = written[1].read_text("utf-8")
    assert "## X1:" in conflicts and "| weighted total |" in conflicts


def test_the_graph_reads_back_with_its_node_and_edge_kinds(log: EvalLog, tmp_path: Path) -> None:
    graphml, data = write_graphs(log.location, tmp_path / "out")
    graph = nx.read_graphml(graphml, force_multigraph=True)
    kinds = {n: a["kind"] for n, a in graph.nodes(data=True)}
    assert sorted(k for k in kinds if kinds[k] == "claim") == [
        "C-CON-01",
        "C-CON-02",
        "C-CON-03",
        "C-PRO-01",
        "C-PRO-02",
        "C-PRO-03",
    ]
    assert [k for k in kinds if kinds[k] == "conflict"] == ["X1"]
    lost = graph.nodes["C-CON-01"]
    assert lost["verified"] is False and lost["scored"] is False and "weighted_total" not in lost
    kept = graph.nodes["C-PRO-01"]
    assert kept["scored"] is True and 1 <= kept["weighted_total"] <= 5 and "robustness" in kept
    edges = [a for _, _, a in graph.edges(data=True)]
    assert {e["kind"] for e in edges} == {"attacks", "participates_in"}
    attacks = [e for e in edges if e["kind"] == "attacks"]
    assert len(attacks) == 6 and sum(e["swap"] for e in attacks) == 2
    as_json = json.loads(data.read_text("utf-8"))
    assert as_json["schema_version"] == 1 and as_json["verdict"]["tier"] in (
        "RESOLVED",
        "CONTESTED_BUT_LEANING",
        "UNRESOLVED",
    )
    assert {n["id"] for n in as_json["nodes"]} == set(graph.nodes)
    assert len(as_json["edges"]) == graph.number_of_edges()


def test_the_files_are_byte_stable(log: EvalLog, tmp_path: Path) -> None:
    first = write_graphs(log.location, tmp_path / "a") + write_reports(log.location, tmp_path / "a")
    again = write_graphs(log.location, tmp_path / "b") + write_reports(log.location, tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in again]


def test_the_commands_write_and_name_their_files(
    log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["crucible", "report", str(log.location), "-o", str(tmp_path / "r")]) == 0
    assert main(["crucible", "graph", str(log.location), "-o", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out.split()
    assert [Path(p).name for p in printed] == [
        "final_report.md",
        "conflicts.md",
        "argument_graph.graphml",
        "argument_graph.json",
    ]


def test_a_log_of_another_task_is_refused_in_one_line(
    run_debate: Callable[..., EvalLog], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    other = run_debate(fact_check=False)
    capsys.readouterr()  # the debate run's own summary of unscored debates
    assert main(["crucible", "report", str(other.location)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a debatebench_eval/debate log, not a crucible log" in err
    with pytest.raises(NotACrucibleLog, match="log file not found"):
        write_reports(tmp_path / "none.eval", tmp_path)


def test_a_debate_that_failed_gets_a_short_report_that_says_where_it_stopped(
    run_crucible: Run, tmp_path: Path
) -> None:
    def broken(system: str, prompt: str, schema: dict[str, Any]) -> str:
        return "not json"

    script = CrucibleScript(Behaviour(overrides={"crucible_turn": replace(broken, times=9)}))
    log = run_crucible(script)
    assert (log.samples or [])[0].error is not None
    report = write_reports(log.location, tmp_path)[0].read_text("utf-8")
    assert "**The debate did not finish:**" in report and "round 1 (push), pro" in report
    assert "## Where it stopped\n\nThe last stage completed was 'conflicts'." in report
    assert "## Evidence and its verification" in report and "## Verdict" not in report
    assert report.rstrip().split("\n")[-1].startswith("- ")  # ends in its limitations
    assert "## Limitations" in report


def test_a_debate_that_failed_in_its_first_stage_names_the_calls_that_ran(
    run_crucible: Run, tmp_path: Path
) -> None:
    def broken(system: str, prompt: str, schema: dict[str, Any]) -> str:
        return "not json"

    overrides = {"crucible_claims": replace(broken, side="con", times=9)}
    log = run_crucible(CrucibleScript(Behaviour(overrides=overrides)))
    error = (log.samples or [])[0].error
    assert error is not None and "propose: claims, con" in error.message
    report, conflicts = (p.read_text("utf-8") for p in write_reports(log.location, tmp_path))
    stopped = report.split("## Where it stopped\n\n", 1)[1].split("\n\n", 1)[0]
    assert stopped.startswith("It stopped during its first stage. Calls that finished: ")
    assert "propose: queries (" in stopped and "propose: claims (pro)" in stopped
    assert stopped.endswith("The call that failed: propose: claims, con.")
    assert "No stage was completed" not in report
    assert "asking the failed one again" in report
    assert "None identified" not in conflicts
    assert "Not reached: the debate stopped during its first stage" in conflicts


def test_conflicts_md_says_the_stage_was_not_reached_after_the_claims(
    run_crucible: Run, tmp_path: Path
) -> None:
    def broken(system: str, prompt: str, schema: dict[str, Any]) -> str:
        return "not json"

    log = run_crucible(
        CrucibleScript(Behaviour(overrides={"crucible_conflicts": replace(broken, times=9)}))
    )
    report, conflicts = (p.read_text("utf-8") for p in write_reports(log.location, tmp_path))
    assert "The last stage completed was 'proposed'." in report
    assert "The call that failed: conflicts, judge." in report
    assert "Not reached: the debate stopped after 'proposed'" in conflicts
