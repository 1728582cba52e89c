"""What one run remembers, kept with the run's event loop.

Inspect runs each `eval()` in an event loop of its own, so a memory kept per
running loop lives exactly as long as one run: what a run learnt of a model
server (that it answers, its kind, the context it reports, token counts, a
judge's identity) or of its own selection (a paired run's sample ids) is shared
by the run's samples and never vouches for another run in the same process.
A finished loop takes its memory with it.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar
from weakref import WeakKeyDictionary

K = TypeVar("K")
V = TypeVar("V")


class RunMemory(Generic[K, V]):
    """A dict per running event loop."""

    def __init__(self) -> None:
        self._loops: WeakKeyDictionary[asyncio.AbstractEventLoop, dict[K, V]] = WeakKeyDictionary()

    def here(self) -> dict[K, V]:
        """This run's dict (called from a coroutine, or code a coroutine runs)."""
        return self._loops.setdefault(asyncio.get_running_loop(), {})
