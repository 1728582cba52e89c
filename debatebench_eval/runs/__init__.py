"""Runs on many cores: any set of Inspect tasks planned once into a log folder (Inspect's
eval-set capture mode) and run by workers, each a share of the tasks (selection mode),
resuming what a killed worker left; and `debatebench-eval run`, which shards one task's
samples into such tasks. Tournaments plan and run their pairs through the same steps."""
