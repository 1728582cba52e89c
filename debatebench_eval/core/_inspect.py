"""Every use of Inspect's private API, in one place.

These names are not exported by `inspect_ai` but the project needs them: the
clean-error exception the CLI prints without a traceback, the registry calls
behind the `debatebench/` aliases, the eval-level generate config (which
Inspect gives only to the main model), the file access Inspect uses for log
folders (local or any fsspec URL), and the identity eval_set gives a task
(which decides what a tournament resumes). tests/test_registry.py fails loudly if
an Inspect release moves any of them.
"""

from __future__ import annotations

from inspect_ai._eval.evalset import TASK_IDENTIFIER_VERSION, task_identifier
from inspect_ai._util.error import PrerequisiteError
from inspect_ai._util.file import file, filesystem
from inspect_ai._util.registry import RegistryInfo, registry_add, registry_info, registry_lookup
from inspect_ai.model._generate_config import active_generate_config

__all__ = [
    "TASK_IDENTIFIER_VERSION",
    "PrerequisiteError",
    "RegistryInfo",
    "active_generate_config",
    "file",
    "filesystem",
    "registry_add",
    "registry_info",
    "registry_lookup",
    "task_identifier",
]
