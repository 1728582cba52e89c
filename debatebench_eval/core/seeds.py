"""One seed per sample and epoch, shared by every solver that draws one."""

from __future__ import annotations

import hashlib
import secrets


def sample_seed(base: int | None, sample_id: str | int, epoch: int) -> tuple[int, str]:
    """One seed per sample and epoch: derived from the base seed, else drawn."""
    if base is None:
        return secrets.randbelow(2**31), "generated"
    digest = hashlib.sha256(f"{base}:{sample_id}:{epoch}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31, f"derived from base seed {base}"


def repeat_seed(seed: int, repeat: int) -> int:
    """The seed of a judge's repeat: the first repeat keeps the debate's seed (so
    one repeat is today's judging), each later one is derived from it and its number."""
    if repeat == 1:
        return seed
    digest = hashlib.sha256(f"{seed}:judge-repeat:{repeat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31
