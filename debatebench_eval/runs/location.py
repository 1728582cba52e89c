"""Where a run's or a tournament's files live: a local folder, or any location Inspect takes for
logs (`s3://bucket/folder`, ...), always reached through Inspect's own file access.

An object store is checked once before anything is read or written, so a user
gets one message naming the location instead of a client's traceback after its
retries, and a mistyped bucket is an error rather than a new bucket: s3fs's
`mkdir`, which Inspect and the manifest call on a log folder, creates a bucket
that does not exist.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from debatebench_eval.core._inspect import file, filesystem
from debatebench_eval.core.errors import ConfigError

# Schemes whose URL names a bucket (or container) first, then a path inside it.
BUCKET_SCHEMES = ("s3", "s3a", "gs", "gcs", "az", "abfs", "abfss")
# The check's own client settings, for s3 only: one attempt and a short connect
# timeout (the defaults retry an unreachable endpoint for about ten seconds).
_S3_CHECK = {"config_kwargs": {"connect_timeout": 5, "retries": {"max_attempts": 1}}}


def is_remote(location: str) -> bool:
    return "://" in location and not location.startswith("file://")


def parent(path: str) -> str:
    """The folder that holds `path`, a local path or a URL (pathlib would turn
    `s3://bucket/x.csv` into `s3:/bucket`)."""
    if not is_remote(path):
        return str(Path(path).parent)
    scheme, rest = path.split("://", 1)
    head = rest.rstrip("/").rpartition("/")[0]
    return f"{scheme}://{head or rest}"


def child(folder: str, name: str) -> str:
    """The file `name` in `folder`, a local path or a URL, in the form the folder was
    given (so messages name it as the user typed it)."""
    if not is_remote(folder):
        return str(Path(folder) / name)
    return f"{folder.rstrip('/')}/{name}"


def replace_file(path: str, text: str) -> None:
    """Write a small file that readers may open at any moment: on a local disk it is
    replaced atomically (a reader sees the old text or the new, never half of one);
    an object store's PUT is atomic already."""
    fs = filesystem(path)
    if fs.is_local():
        folder = Path(path).parent
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{Path(path).name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        # mkstemp makes the file its owner's alone: readable as any new file is, so a
        # worker running as another user on a shared folder can read the plan.
        os.chmod(temp, 0o666 & ~_umask())
        os.replace(temp, path)
        return
    fs.mkdir(parent(path), exist_ok=True)
    with file(path, "w") as handle:
        handle.write(text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def file_names(folder: str) -> set[str] | None:
    """The names of the files directly in a folder, local or at any URL Inspect reads,
    or None where there is no such folder."""
    fs = filesystem(folder)
    try:
        if fs.info(folder).type != "directory":
            return None
        entries = fs.ls(folder)
    except FileNotFoundError:
        return None
    return {entry.name.rstrip("/").rpartition("/")[2] for entry in entries if entry.type == "file"}


def bucket(location: str) -> str | None:
    """The bucket a location is in (`s3://bucket`), or None where its scheme has none."""
    url = urlparse(location)
    if url.scheme not in BUCKET_SCHEMES or not url.netloc:
        return None
    return f"{url.scheme}://{url.netloc}"


def check_reachable(location: str, where: str) -> None:
    """The location's object store answers and its bucket exists (nothing for a local
    folder or a scheme without buckets); else one ConfigError naming `where`."""
    root = bucket(location)
    if root is None:
        return
    options: dict[str, Any] = _S3_CHECK if root.startswith("s3") else {}
    try:
        filesystem(root, options).info(root)
    except FileNotFoundError:
        raise ConfigError(
            where,
            f"the bucket {root} does not exist, or these credentials cannot see it",
            "an existing bucket: create it first (a tournament never creates one)",
        ) from None
    except Exception as exc:  # any client's failure means the store cannot be used
        raise ConfigError(
            where,
            f"its object store does not answer ({type(exc).__name__}: {exc})",
            "a reachable store: check its endpoint (AWS_ENDPOINT_URL for s3) and credentials",
        ) from None
