"""`python -m debatebench_eval` is the `debatebench-eval` command."""

import sys

from debatebench_eval.cli.main import main

sys.exit(main())
