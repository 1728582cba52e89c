"""The bootstrap: clusters drawn with replacement, a drawn cluster bringing all of
its members, seeded so the same data give the same interval.

Observations in one cluster are not independent: debates on one motion (a motion
can favour one side, or suit one model, for every pair that argues it), the
labels of one debate, the claims of one judge reply. So the bootstrap resamples
clusters, never their members one by one; plain resampling of independent
values is the case of one value a cluster.

One method, two forms of the draw:

- `cluster_weights`: how many times each cluster is drawn, per resample (each
  row a multinomial draw summing to the number of clusters), for statistics
  that take weights (a weighted fit, a ratio of weighted sums). One draw is
  shared by every statistic of a table, so their intervals are consistent
  with one another.
- `cluster_draws`: the clusters drawn, as indices, per resample, for a
  statistic recomputed on the drawn members (`resampled`, `resampled_means`,
  `cluster_interval`).

The seed is an argument (0 by default) and so is the number of resamples: each
caller keeps its own, stated where it reports the figure. Callers order their
clusters first, so a draw does not depend on the order rows were read in.
Resamples are drawn and reduced in blocks of at most BLOCK_ELEMENTS values:
numpy's integer stream is the same however the draws are split, so the block
changes no result, only the memory a tournament of tens of thousands of debates
needs. The intervals themselves are `intervals.percentile` and
`intervals.widened`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from debatebench_eval.stats.intervals import LEVEL, Array, percentile

RESAMPLES = 1000
SEED = 0
# Blocks are (resamples x members) arrays of at most this many elements (2 MB): they
# stay in cache, faster than one big block.
BLOCK_ELEMENTS = 250_000

Indices = NDArray[np.int64]
T = TypeVar("T")


def cluster_weights(clusters: int, resamples: int = RESAMPLES, seed: int = SEED) -> Array:
    """How many times each cluster is drawn, per resample (rows sum to `clusters`)."""
    rng = np.random.default_rng(seed)
    draws = rng.multinomial(clusters, np.full(clusters, 1.0 / clusters), size=resamples)
    return draws.astype(np.float64)


def block_rows(columns: int) -> int:
    """How many resamples to handle at once when each brings `columns` values."""
    return max(1, BLOCK_ELEMENTS // max(columns, 1))


def cluster_draws(clusters: int, resamples: int = RESAMPLES, seed: int = SEED) -> Indices:
    """The clusters each resample draws, as indices (resamples x clusters)."""
    return np.concatenate(list(_blocks(clusters, resamples, seed)))


def _blocks(clusters: int, resamples: int, seed: int) -> Iterator[Indices]:
    """`cluster_draws`' rows, a block at a time."""
    rng = np.random.default_rng(seed)
    size = block_rows(clusters)
    for start in range(0, resamples, size):
        yield rng.integers(0, clusters, (min(size, resamples - start), clusters))


def resampled(
    statistic: Callable[[Indices], float],
    clusters: int,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> Array:
    """`statistic` of each resample, given the indices of the clusters it drew."""
    values = [statistic(row) for block in _blocks(clusters, resamples, seed) for row in block]
    return np.array(values, dtype=np.float64)


def resampled_means(values: Array, resamples: int = RESAMPLES, seed: int = SEED) -> Array:
    """The mean of each resample of independent `values` (the rows of `cluster_draws`),
    a block at a time, so tens of thousands of debates never make one (resamples x
    debates) array."""
    parts = [values[rows].mean(axis=1) for rows in _blocks(len(values), resamples, seed)]
    return np.concatenate(parts)


def cluster_interval(
    items: Sequence[T],
    cluster: Callable[[T], Hashable],
    statistic: Callable[[Sequence[T]], float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> tuple[float, float]:
    """The percentile interval of `statistic` over the items, clusters (by `cluster`,
    in first-seen order) resampled with all of their items. NaN bounds below two
    clusters, or when some resample leaves the statistic undefined (too few clusters
    to say), rather than an interval over the lucky resamples."""
    groups: dict[Hashable, list[T]] = defaultdict(list)
    for item in items:
        groups[cluster(item)].append(item)
    members = list(groups.values())
    if len(members) < 2:
        return math.nan, math.nan

    def drawn(rows: Indices) -> float:
        return statistic([item for i in rows for item in members[i]])

    low, high = percentile(resampled(drawn, len(members), resamples, seed), level)
    return float(low), float(high)
