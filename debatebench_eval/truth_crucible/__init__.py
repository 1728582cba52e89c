"""The crucible: a claim-level, cite-or-lose debate over a user's corpus (Truth Crucible's
design): topic files, the corpus and its line-numbered search, claims and their
verification, conflicts, rounds, convergence, blind per-claim scoring with a meta-judge
audit, the `crucible` task and scorer, and its report and argument graph. It imports
core, servers, prep, debate's record and sample seeds, and judging; only the registry
and the command line import it.
"""
