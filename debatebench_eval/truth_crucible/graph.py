"""`debatebench-eval crucible graph LOG`: the argument graph as GraphML and as JSON.

Nodes are claims (side, text, verified, confidence and, when scored, the
weighted total and the six median scores) and conflicts (question, nature,
crux); edges are `attacks` (claim to claim, with round, turn and argument)
and `participates_in` (claim to conflict). networkx writes both files: typed
GraphML keys for yEd or Gephi, node-link JSON for the web. A MultiDiGraph,
because one claim may attack another in several rounds. Attributes are
scalars only (GraphML has no lists or nulls): a score that does not exist is
left out, never written as NaN.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import networkx as nx

from debatebench_eval.truth_crucible.log_reader import CrucibleSample, read_samples
from debatebench_eval.truth_crucible.record import CrucibleRecord

if TYPE_CHECKING:  # networkx's classes are generic only in its type stubs
    Graph = nx.MultiDiGraph[str]

GRAPH_SCHEMA_VERSION = 1


def argument_graph(record: CrucibleRecord, scored: dict[str, Any]) -> Graph:
    graph: Graph = nx.MultiDiGraph()
    # Every node before any edge: an edge to an unknown node would silently add a bare one.
    for claim in record.claims:
        graph.add_node(claim.id, **_claim_attributes(claim, scored.get(claim.id)))
    for conflict in record.conflicts:
        graph.add_node(
            conflict.id,
            kind="conflict",
            question=conflict.question,
            nature=conflict.nature,
            crux=conflict.crux,
        )
    for turn in record.turns:
        for number, attack in enumerate(turn.attacks, 1):
            graph.add_edge(
                attack.claim,
                attack.target,
                key=f"{turn.id}#{number}",
                kind="attacks",
                round=turn.round,
                turn=turn.id,
                swap=turn.kind == "swap",
                argument=attack.argument,
            )
    for conflict in record.conflicts:
        for claim_id in conflict.claims:
            graph.add_edge(claim_id, conflict.id, key="participates_in", kind="participates_in")
    return graph


def _claim_attributes(claim: Any, scored: dict[str, Any] | None) -> dict[str, Any]:
    attributes: dict[str, Any] = {
        "kind": "claim",
        "side": claim.side,
        "text": claim.claim,
        "verified": claim.verified,
        "confidence": float(claim.confidence),
        "scored": scored is not None,
    }
    if scored is not None:
        attributes["weighted_total"] = float(scored["weighted_total"])
        attributes.update({name: float(v) for name, v in scored["medians"].items()})
    return attributes


def write_graphs(log: str | Path, out: Path) -> list[Path]:
    written = []
    for sample in read_samples(log):
        folder = out / sample.id
        folder.mkdir(parents=True, exist_ok=True)
        meta = sample.score.metadata or {} if sample.score else {}
        graph = argument_graph(sample.record, meta.get("claims", {}))
        graphml, data = folder / "argument_graph.graphml", folder / "argument_graph.json"
        nx.write_graphml(graph, graphml)
        data.write_text(
            json.dumps(graph_json(sample, graph, meta), indent=2, ensure_ascii=False),
            encoding="utf-8",
        )
        written += [graphml, data]
    return written


def graph_json(sample: CrucibleSample, graph: Graph, meta: dict[str, Any]) -> dict[str, Any]:
    run = sample.record.run
    return {
        "schema_version": GRAPH_SCHEMA_VERSION,
        "sample": sample.id,
        "question": run.question if run else None,
        "verdict": {
            "tier": meta.get("tier"),
            "leading": meta.get("leading"),
            "line": meta.get("verdict"),
        },
        **nx.node_link_data(graph, edges="edges"),
    }
