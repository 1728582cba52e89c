"""Deliberation protocols: panels of personas that argue in rounds and end with a
synthesis or a judge's decision (heurema's `debate`, ar-debate), run as Inspect tasks
and as a solver for any task. Protocols, personas and tables are data; the rules
(selection, visibility, convergence, decisions) import the core, servers, the debate's
record and judging's structured replies; the solver, scorer and tasks sit above them.
"""
