"""The `debatebench-eval` command and the embedded model server it can start. The top
layer: it may import anything in the package, and nothing imports it.
"""
