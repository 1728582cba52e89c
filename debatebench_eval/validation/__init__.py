"""Judge validation: the 631 human-rated speeches, the statistics, judge trust records,
the `judge_validation` task, and reading its logs into trust records and reports.
Imports the core and servers (its log readers also the package's lower layers).
"""
