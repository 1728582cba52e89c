"""`python -m debatebench_eval` is the `debatebench-eval` command."""

import sys

from .cli import main

sys.exit(main())
