"""Strict YAML reading shared by every file the project accepts.

PyYAML silently keeps the last of two duplicate keys; a config where a key
appears twice is almost always a mistake, so it is an error here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from debatebench_eval.core.errors import ConfigError


class _StrictLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    keys: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if key in keys:
            raise yaml.constructor.ConstructorError(
                None, None, f"found duplicate key {key!r}", key_node.start_mark
            )
        keys.add(key)
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_yaml(text: str, where: str, expected: str) -> Any:
    """Parse YAML text, naming `where` and `expected` in any error."""
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        # The text was read from `where`: PyYAML's placeholder name is noise.
        reason = " ".join(str(exc).replace('in "<unicode string>", line', "at line").split())
        raise ConfigError(where, f"invalid YAML ({reason})", expected) from None


def load_yaml(path: Path, expected: str) -> Any:
    if not path.is_file():
        raise ConfigError(str(path), "file not found", expected)
    return parse_yaml(path.read_text(encoding="utf-8"), str(path), expected)
