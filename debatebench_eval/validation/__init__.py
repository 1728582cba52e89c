"""Judge validation and the judge checks: the 631 human-rated speeches, the fact-check
validation set (planted claims) and the sensitivity set (debates with one side made
worse), their statistics, judge trust records, the tasks and scorers, and reading
their logs into trust records and reports. Its rules import the core, servers, the
statistics and the rules of debate, judging and interop; its scorers and tasks wrap the judging
scorers and the `judge` task's loading, unchanged.
"""
