"""The package's version, as installed (a checkout that is not installed says so)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("debatebench-eval")
except PackageNotFoundError:  # a checkout that is not installed
    __version__ = "0.0.0+unknown"
