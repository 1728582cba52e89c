"""The page's key: which debate each id on a labelling page stands for, kept off the page.

The page knows each debate by an opaque id only. A debate's own name would
tell: a tournament's log is named after its two models and a swapped pairing's
sample id ends in `.swapped`, so a page (its source, its browser storage, its
exported labels) that carried names would say which model argued which side.
`annotate` writes this key beside the page instead (`PAGE.key.json`): for each
id, the debate's name (log file, sample id, epoch), its content digest, its kind
and which side the page shows as A. The labels are read back through it
(`annotation.labels`); it is for whoever runs `agreement`, not for annotators.

An id is a truncated sha256 of the debate's name, its digest and the side shown
as A, salted with the sample's uuid: Inspect's random id of the sample, kept in
the log and never shown on the page. So the same folder and seed give the same
ids (a lost key is written again by the same command); a debate whose text
changed, or that a page shows the other way round, gets another id; and nobody
holding the page alone can compute an id from a log name.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from debatebench_eval.annotation.items import Item, Kind
from debatebench_eval.annotation.selection import a_side
from debatebench_eval.core.config_file import (
    ConfigFile,
    VersionOne,
    checked,
    choice,
    matching,
    parse_file,
    text,
    whole,
)
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.record.protocol import Side

KEY_SUFFIX = ".key.json"
ID_CHARS = 16
ID_PATTERN = rf"[0-9a-f]{{{ID_CHARS}}}"
ID_WORDS = f"the debate's id on the page ({ID_CHARS} lower-case hex digits)"
# A content digest (`items.content_digest`), as a file holds it.
DIGEST = matching(r"[0-9a-f]{16}", "16 lower-case hex digits")


class KeyEntry(ConfigFile):
    """One debate of the page: its name, content digest, kind and the side shown as A."""

    item: Annotated[str, text("the debate's name `<log file>:<sample id>:<epoch>`")]
    log: Annotated[str, text("the log file's name")]
    sample_id: Annotated[str, text("the sample's id")]
    epoch: Annotated[int, whole(1)]
    digest: Annotated[str, DIGEST]
    kind: Annotated[Kind, choice(("rubric", "known_answer"))]
    a_side: Annotated[Side, choice(("pro", "con"), "pro or con")]


class PageKey(ConfigFile):
    """The key file: the page's id and seed, and every id on the page with its debate."""

    version: VersionOne
    page: Annotated[str, text("the labelling page's id")]
    seed: Annotated[int, checked("an integer", lambda v: type(v) is int, lambda v: v)]
    items: dict[str, KeyEntry]


def blind_id(item: Item, side_a: Side) -> str:
    """The debate's id on a page that shows `side_a` as A (see the module's note)."""
    # A log too old to record sample uuids leaves the log's name, whose last part Inspect
    # draws at random, as the only secret.
    parts = ("debatebench-eval page id", item.uuid or "", item.item, item.digest, side_a)
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:ID_CHARS]


def page_key(items: Sequence[Item], seed: int) -> PageKey:
    """The key of the page that shows `items` in this order, drawn with `seed`."""
    return key_of([(item, a_side(item, seed)) for item in items], seed)


def key_of(shown: Sequence[tuple[Item, Side]], seed: int) -> PageKey:
    """The key of a page that shows each item with the side paired with it as A."""
    entries: dict[str, KeyEntry] = {}
    for item, side in shown:
        entries[blind_id(item, side)] = KeyEntry(
            item=item.item, log=item.log, sample_id=item.sample_id, epoch=item.epoch,
            digest=item.digest, kind=item.kind, a_side=side,
        )  # fmt: skip
    return PageKey(version=1, page=page_id(list(entries), seed), seed=seed, items=entries)


def page_id(ids: Sequence[str], seed: int) -> str:
    """The page's id: its seed and item count, and a short digest of its debates' ids (two
    pages of one folder and seed but other debates keep their labels apart)."""
    digest = hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()[:8]
    return f"seed-{seed}-items-{len(ids)}-{digest}"


def key_path(page: Path) -> Path:
    """Where the key of the page at `page` goes: beside it, `labels.html` keyed by
    `labels.key.json`."""
    return page.with_name(page.stem + KEY_SUFFIX)


def write_key(key: PageKey, path: Path) -> Path:
    path.write_text(json.dumps(key.model_dump(), indent=1) + "\n", encoding="utf-8")
    return path


def read_key(path: Path) -> PageKey:
    """A key file, or one ConfigError naming the file and what is wrong in it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        wanted = f"a page key (PAGE{KEY_SUFFIX}) that `debatebench-eval annotate` wrote"
        raise ConfigError(str(path), "file not found", wanted) from None
    except json.JSONDecodeError as exc:
        raise ConfigError(str(path), f"invalid JSON ({exc.msg})", "a page key") from None
    return parse_file(PageKey, data, str(path))


@dataclass(frozen=True)
class PageKeys:
    """Every id of the keys read, each with its debate; and the files, for the messages."""

    entries: dict[str, KeyEntry]
    files: tuple[Path, ...]
    # How the files were found, for the message: named with --key, or beside the labels.
    how: str

    def entry(self, blind: str, where: str) -> KeyEntry:
        """The debate of id `blind`, or a ConfigError naming the label's file and line."""
        found = self.entries.get(blind)
        if found is None:
            read = ", ".join(map(str, self.files)) if self.files else "none was found"
            raise ConfigError(
                f"{where}: item",
                f"id {blind} is on none of the pages whose keys were read ({self.how}: {read})",
                f"the id of a debate on a page whose key (PAGE{KEY_SUFFIX}, which "
                "`debatebench-eval annotate` wrote beside the page) is beside the labels "
                "file or named with --key",
            )
        return found


def read_keys(named: Iterable[str | Path] | None, labels: Sequence[Path]) -> PageKeys:
    """The keys named (`--key`), or else every key file beside the labels files."""
    if named is not None:
        files, how = tuple(map(Path, named)), "named"
    else:
        folders = dict.fromkeys(path.parent for path in labels)
        files = tuple(f for folder in folders for f in sorted(folder.glob(f"*{KEY_SUFFIX}")))
        how = "beside the labels"
    entries: dict[str, KeyEntry] = {}
    for path in files:
        entries.update(read_key(path).items)
    return PageKeys(entries, files, how)
