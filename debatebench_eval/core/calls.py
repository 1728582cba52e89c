"""How long one model call may take and how often a failed one is retried, for
every task that calls models.

Inspect's own default retries a connection error for a very long time; a local
server that is down should fail the sample in minutes, not hours.
"""

from __future__ import annotations

DEFAULT_TIMEOUT = 600
DEFAULT_MAX_RETRIES = 3
