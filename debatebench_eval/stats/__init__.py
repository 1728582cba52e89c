"""Statistics, each in one place: the confidence level and the intervals (Wilson,
percentile, the small-sample widening, a share's clamp to [0, 1]), the bootstrap
(seeded, clustered) and the Bradley-Terry fit. Plain functions over numbers: it
imports nothing of the package (numpy and scipy only), and every subpackage that
computes an interval imports it.
"""
