"""Tournaments: a round robin of paired debates over many models, run as one Inspect
eval set, read back from its logs and rated (Bradley-Terry with a side advantage and
bootstrap intervals over motions, both from `stats`), with the leaderboard and its
plots. The rules (schedule, manifest, results, agreement, standings) import the
core, the statistics, the debate's rules and the judging rules; the commands (runner, log reading,
leaderboard, plots) also import the debate task and the judging metrics.
"""
