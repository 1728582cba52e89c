"""Judging a recorded debate: the rubric and its reply checks, the blind view,
structured replies with one repair, the verdict arithmetic, the fact-check ledger,
and the scorers and metrics built on them. Imports the core, servers, the debate's
record and protocol, validation's trust records (for the gate) and the statistics.
"""
