"""The debate: motions, teams, phases and who speaks when, the record of every turn,
the solver that walks the phases and the `debate` task. Its rules and record import
the core and servers; its solver and task also import prep (evidence) and judging
(the gates before debating, the scorers the task runs).
"""
