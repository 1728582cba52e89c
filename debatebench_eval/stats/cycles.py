"""Where the order is not an order: cycles in head-to-head results.

Bradley-Terry forces a total order on any results; preferences need not be
transitive (A beats B, B beats C, C beats A), and a forced order then hides
the cycle. Each pair's head-to-head share gets its Wilson interval, and an
edge a -> b is drawn only when a's share against b lies wholly above 1/2, so
noise between close models draws no edge. The interval is at the level that
holds for every pair at once (Bonferroni: 1 - 0.05 / pairs played): a board of
435 pairs of four debates each otherwise finds cycles of 4-0 results by chance
(the 95% Wilson interval of 4 of 4 is [0.51, 1]). A cycle of that graph is one
every one of whose steps is a clear head-to-head win: it is reported with its
edges, each share with its 95% interval.

The cycles are found inside the graph's strongly connected components (a
cycle never leaves one): every three-cycle there, and for a component that has
none, one shortest cycle through it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import NDArray
from scipy import sparse  # type: ignore[import-untyped]
from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]

from debatebench_eval.stats.intervals import LEVEL, Estimate, wilson

Array = NDArray[np.float64]
MOST_CYCLES = 20


@dataclass(frozen=True)
class Edge:
    """A clear head-to-head win: `winner`'s share of its debates against `loser`."""

    winner: int
    loser: int
    share: Estimate


def clear_wins(score: Array, played: Array) -> list[Edge]:
    """Every pair in which one model's share (score[i, j] of played[i, j], ties as
    halves) has a Wilson interval wholly above 1/2 at the family's level (module
    docstring); each edge keeps its 95% interval."""
    edges = []
    m = len(score)
    pairs = max(1, int(np.count_nonzero(np.triu(played, 1))))
    family = 1 - (1 - LEVEL) / pairs
    for i in range(m):
        for j in range(m):
            clear = wilson(float(score[i, j]), int(played[i, j]), family) if i != j else None
            if clear is not None and clear.low > 0.5:
                shown = wilson(float(score[i, j]), int(played[i, j]))
                assert shown is not None
                edges.append(Edge(i, j, shown))
    return edges


def cycles(score: Array, played: Array, most: int = MOST_CYCLES) -> list[list[Edge]]:
    """The cycles of clear wins (module docstring), each as its edges in order; at
    most `most`, shortest and strongest (largest weakest share) first."""
    m = len(score)
    edges = {(e.winner, e.loser): e for e in clear_wins(score, played)}
    if not edges:
        return []
    rows, columns = zip(*edges, strict=True)
    graph = sparse.csr_array((np.ones(len(edges)), (rows, columns)), shape=(m, m))
    _, label = connected_components(graph, directed=True, connection="strong")
    found: list[list[Edge]] = []
    for group in set(label.tolist()):
        members = [int(i) for i in np.flatnonzero(label == group)]
        if len(members) < 3:
            continue
        three = _three_cycles(members, edges)
        found += three or [_shortest_cycle(members, edges)]
    found.sort(key=lambda c: (len(c), -min(e.share.value for e in c)))
    return found[:most]


def _three_cycles(members: list[int], edges: dict[tuple[int, int], Edge]) -> list[list[Edge]]:
    out = []
    for a, b, c in combinations(members, 3):
        for x, y, z in ((a, b, c), (a, c, b)):
            if (x, y) in edges and (y, z) in edges and (z, x) in edges:
                out.append([edges[(x, y)], edges[(y, z)], edges[(z, x)]])
    return out


def _shortest_cycle(members: list[int], edges: dict[tuple[int, int], Edge]) -> list[Edge]:
    """A shortest cycle through the component's first member (one exists: every
    member of a strongly connected component lies on a cycle)."""
    inside = set(members)
    start = members[0]
    parent: dict[int, int] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(j for (i, j) in edges if i == node and j in inside):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                nodes = path[::-1]
                return [edges[(a, b)] for a, b in zip(nodes, [*nodes[1:], start], strict=True)]
            if nxt not in parent:
                parent[nxt] = node
                queue.append(nxt)
    raise AssertionError("a strongly connected component has a cycle")
