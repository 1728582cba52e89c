"""Markdown files with YAML front matter (team files, personas).

The first line is `---`, the front matter runs to the next `---` line, and
the rest is the body. Windows line endings are read as Unix ones.
"""

from __future__ import annotations

from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import parse_yaml


def split_front_matter(text: str, where: str, keys: str) -> tuple[dict[str, Any], str]:
    """The front matter as a mapping and the body (stripped, possibly empty).

    Args:
        text: The file's text.
        where: The file, as errors name it.
        keys: What the front matter holds, for errors: e.g. "team keys".
    """
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise ConfigError(
            where, "no YAML front matter", "a first line '---' opening the front matter"
        )
    try:
        end = next(i for i, line in enumerate(lines[1:], 1) if line.strip() == "---")
    except StopIteration:
        raise ConfigError(where, "front matter is never closed", "a second '---' line") from None
    inner = f"{where} (front matter)"
    data = parse_yaml("\n".join(lines[1:end]), inner, f"a YAML mapping of {keys}")
    if not isinstance(data, dict):
        raise ConfigError(inner, f"top level is {type(data).__name__}", f"a mapping of {keys}")
    return data, "\n".join(lines[end + 1 :]).strip()
