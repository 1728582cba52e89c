"""A coroutine run as Inspect runs an eval: in an event loop of its own.

Once Inspect has applied nest_asyncio in the process (it does when it meets a
running loop), `asyncio.run` reuses one loop, and with it the run's memory
(core.run_memory): a test that means "a new run" says so here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def new_run(main: Coroutine[Any, Any, T]) -> T:
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.close()
