"""Intervals: the one confidence level, a share's Wilson interval, the percentile
interval of resampled estimates and its small-sample widening, and the clamp that
keeps an interval of a share inside [0, 1].

Plain percentile intervals under-cover when there are few clusters (the
bootstrap's spread is that of a K-cluster sample, with K - 1 degrees of freedom,
taken as if it were known). `widened` therefore widens the interval about the
estimate by f = (t(.975, K-1) / z(.975)) * sqrt(K/(K-1)): f = 1.22 at K = 10,
1.06 at K = 30, tending to 1. The tournament's simulation test checks the
coverage this gives.

A widened interval, a normal-approximation interval or a percentile interval of a
nonlinear statistic can leave the range its figure lives in (a share of 0.667
"in [0.219, 1.563]"), or miss the estimate itself; `share` (and
`share_difference`, for a difference of two shares) clamps each such interval to
the range and stretches it to hold its value, so every printed interval of a
share is one a reader can take at face value.

Only numpy and the standard library are imported at load: these run at the end
of every run (the judge's reliability figures), where scipy.special costs a
process 0.2 s to import and scipy.stats 1.5 s of CPU. The t and normal
quantiles of the widening come from scipy.special, imported where they are used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Literal, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

# Every interval the package prints is at this level: the reports say "95%".
LEVEL = 0.95

Array = NDArray[np.float64]


@dataclass(frozen=True)
class Estimate:
    """A figure with its interval, how many observations it is over, and the value
    that means no effect (`flagged` when the interval excludes it)."""

    value: float
    low: float
    high: float
    n: int
    null: float

    @property
    def flagged(self) -> bool:
        return not self.low <= self.null <= self.high

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n,
                "flagged": self.flagged}  # fmt: skip


def tails(level: float = LEVEL) -> tuple[float, float]:
    """The quantiles, (1 - level) / 2 and (1 + level) / 2, a central interval spans."""
    return (1 - level) / 2, (1 + level) / 2


def t_quantile(df: int, level: float = LEVEL) -> float:
    """The upper quantile of Student's t with `df` degrees of freedom for a central
    interval at `level`."""
    # scipy.special, not scipy.stats: the same quantile, a third of the import.
    from scipy.special import stdtrit  # type: ignore[import-untyped]

    return float(stdtrit(df, tails(level)[1]))


def wilson(successes: float, n: int, level: float = LEVEL) -> Estimate | None:
    """A share with its Wilson score interval, against 1/2 (None: no trial). A tie may
    count as half a success. Written out (scipy's `binomtest(...).proportion_ci(
    method="wilson")` gives the same): these figures are computed at the end of every
    run, and importing scipy.stats costs each process 1.5 s of CPU, a tournament
    worker's largest fixed cost after Inspect's own."""
    if n == 0:
        return None
    z = NormalDist().inv_cdf(tails(level)[1])
    rate = successes / n
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n))
    # Exact at the ends, as scipy's: the arithmetic leaves 0.9999999999999999 for n of n
    # (n = 13, 15, ...), an interval below its own share and a negative error bar.
    low = 0.0 if successes == 0 else centre - half
    high = 1.0 if successes == n else centre + half
    value, low, high = share(rate, low, high)
    return Estimate(value, low, high, n, 0.5)


def percentile(
    draws: ArrayLike,
    level: float = LEVEL,
    *,
    skip_nan: bool = False,
    method: Literal["linear", "nearest"] = "linear",
) -> tuple[Array, Array]:
    """The percentile interval of resampled estimates (along axis 0, each column its
    own). A NaN draw makes the bounds NaN: the statistic was undefined in some
    resample, and an interval over the lucky resamples would claim too much. With
    `skip_nan` such draws are left out instead (a tournament model absent from
    every motion one resample drew has no win rate there, and the rest still
    measure it)."""
    quantile = np.nanquantile if skip_nan else np.quantile
    # A diverged resample (an infinite estimate) is an infinite bound, not a warning.
    with np.errstate(all="ignore"):
        low, high = quantile(np.asarray(draws, dtype=np.float64), tails(level), axis=0,
                             method=method)  # fmt: skip
    return low, high


def widening(clusters: int, level: float = LEVEL) -> float:
    """The factor f a percentile interval over `clusters` clusters is widened by
    (module docstring); NaN below two clusters."""
    if clusters < 2:
        return math.nan
    from scipy.special import ndtri

    ratio = t_quantile(clusters - 1, level) / float(ndtri(tails(level)[1]))
    return float(ratio * math.sqrt(clusters / (clusters - 1)))


def widened(
    estimate: Array | float, draws: Array, factor: float, level: float = LEVEL
) -> tuple[Array, Array]:
    """est + f*(q - est) for q the percentiles of the resampled estimates (axis 0; a
    resample that left a figure undefined is left out of that figure's)."""
    low, high = percentile(draws, level, skip_nan=True)
    estimate = np.asarray(estimate, dtype=np.float64)
    return estimate + factor * (low - estimate), estimate + factor * (high - estimate)


@overload
def share(value: float, low: float, high: float) -> tuple[float, float, float]: ...
@overload
def share(value: Array, low: Array, high: Array) -> tuple[Array, Array, Array]: ...
def share(
    value: float | Array, low: float | Array, high: float | Array
) -> tuple[float, float, float] | tuple[Array, Array, Array]:
    """A share and its interval inside [0, 1], the interval holding the value. NaN (an
    undefined figure or bound) stays NaN."""
    return _within(value, low, high, 0.0, 1.0)


@overload
def share_difference(value: float, low: float, high: float) -> tuple[float, float, float]: ...
@overload
def share_difference(value: Array, low: Array, high: Array) -> tuple[Array, Array, Array]: ...
def share_difference(
    value: float | Array, low: float | Array, high: float | Array
) -> tuple[float, float, float] | tuple[Array, Array, Array]:
    """A difference of two shares and its interval inside [-1, 1], holding the value."""
    return _within(value, low, high, -1.0, 1.0)


def _within(
    value: float | Array, low: float | Array, high: float | Array, bottom: float, top: float
) -> tuple[float, float, float] | tuple[Array, Array, Array]:
    # np.minimum and np.maximum, not min and max: they carry a NaN through.
    kept = np.clip(np.asarray(value, dtype=np.float64), bottom, top)
    lower = np.minimum(np.clip(np.asarray(low, dtype=np.float64), bottom, top), kept)
    upper = np.maximum(np.clip(np.asarray(high, dtype=np.float64), bottom, top), kept)
    if isinstance(value, np.ndarray):
        return kept, lower, upper
    return float(kept), float(lower), float(upper)
