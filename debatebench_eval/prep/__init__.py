"""Prep evidence: pools, their BM25 index, what each side gets and what it cites.
Imports the core and the debate's record, motions, teams and config.
"""
