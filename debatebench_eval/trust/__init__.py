"""Judge trust: the trust records and check records a judge earns, their reader,
the human-rated speech data and its statistics, and the digests of the bundled
check sets. Below judging (whose gate reads them) and validation (whose tasks
write them); it imports only the core, servers, the debate record and the statistics.
"""
