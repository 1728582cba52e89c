"""debatebench-eval: structured adversarial LLM debates as an Inspect AI evaluation."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("debatebench-eval")
except PackageNotFoundError:  # a checkout that is not installed
    __version__ = "0.0.0+unknown"
