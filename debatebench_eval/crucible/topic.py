"""Truth Crucible's topic file, read unchanged: the question, the two positions, the corpus.

    topic:  {question, pro_position, con_position, context}
    corpus: {root, classes: {PRO: {dir}, CON: {dir}, CRITICAL_OF_BOTH: {dir}}, analysis_suffix}

plus the reference's optional switches (`protocol`, `scoring`,
`researcher_count_per_side`), which become defaults that `-T` overrides. Paths
are relative to the topic file. Every problem is one ConfigError naming the
file and the key (`topic.yaml: corpus.classes.CON.dir`), raised when the task
is built, before any model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.yamlio import load_yaml

CLASSES = ("PRO", "CON", "CRITICAL_OF_BOTH")
REQUIRED_CLASSES = ("PRO", "CON")
TEXT_SUFFIXES = (".md", ".txt")
DEFAULT_ANALYSIS_SUFFIX = "_analysis.md"
NEUTRALIZE_MODES = ("off", "diagnose", "rewrite")
_TOP_KEYS = ("topic", "corpus", "protocol", "scoring", "researcher_count_per_side")
_TOPIC_KEYS = ("question", "pro_position", "con_position", "context")
_CORPUS_KEYS = ("root", "classes", "analysis_suffix")
_PROTOCOL_KEYS = (
    "enable_steelman",
    "enable_position_swap",
    "topic_neutralization",
    "enable_web_for_lead",
)
_SCORING_KEYS = ("judge_count", "enable_meta_judge")
_EXPECTED = "a Truth Crucible topic file (topic: {question, ...}, corpus: {root, classes})"
_NO_WEB = "the crucible argues from the corpus only; nothing is fetched at run time"


@dataclass(frozen=True)
class Topic:
    """A checked topic file: what is debated and where its corpus is."""

    file: Path
    question: str
    pro_position: str
    con_position: str
    context: str
    root: Path
    # Class name -> its folder, relative to root, as the file gives it.
    classes: dict[str, str]
    analysis_suffix: str = DEFAULT_ANALYSIS_SUFFIX
    # The file's switches as crucible task options (steelman, judges, ...).
    defaults: dict[str, Any] = field(default_factory=dict)

    def where(self, key: str) -> str:
        return f"{self.file}: {key}"


def load_topic(path: Path) -> Topic:
    """Read and check a topic file; the corpus folders must exist (their files are
    read by `corpus.open_corpus`)."""
    data = load_yaml(path, _EXPECTED)
    where = str(path)
    _mapping(data, where, "the top level", _TOP_KEYS, required=("topic", "corpus"))
    text = _mapping(data["topic"], where, "topic", _TOPIC_KEYS, required=_TOPIC_KEYS[:3])
    corpus = _mapping(data["corpus"], where, "corpus", _CORPUS_KEYS, required=("root", "classes"))
    values = {key: _text(text, key, where, "topic", empty=key == "context") for key in _TOPIC_KEYS}
    root = _root(path, _text(corpus, "root", where, "corpus", empty=False))
    suffix = corpus.get("analysis_suffix", DEFAULT_ANALYSIS_SUFFIX)
    if not isinstance(suffix, str) or not suffix.endswith(TEXT_SUFFIXES):
        raise ConfigError(
            f"{where}: corpus.analysis_suffix", f"got {suffix!r}", "a string ending in .md or .txt"
        )
    return Topic(
        file=path,
        root=root,
        classes=_classes(corpus["classes"], where, root),
        analysis_suffix=suffix,
        defaults=_switches(data, where),
        **values,
    )


def _mapping(
    value: Any, where: str, key: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
) -> dict[str, Any]:
    top = key == "the top level"
    listed = ", ".join(allowed)
    if not isinstance(value, dict):
        found = f"got {type(value).__name__}"
        raise ConfigError(where if top else f"{where}: {key}", found, f"a mapping of {listed}")
    unknown = sorted(str(k) for k in value if k not in allowed)
    missing = [k for k in required if k not in value]
    for name, found in ((unknown, "unknown key"), (missing, "missing")):
        if name:
            at = f"{where}: {name[0] if top else f'{key}.{name[0]}'}"
            raise ConfigError(at, found, f"the keys of {key}: {listed}")
    return value


def _text(mapping: dict[str, Any], key: str, where: str, parent: str, *, empty: bool) -> str:
    value = mapping.get(key, "" if empty else None)
    if value is None and empty:
        value = ""
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise ConfigError(f"{where}: {parent}.{key}", f"got {value!r}", "a non-empty string")
    return value.strip()


def _root(path: Path, root: str) -> Path:
    resolved = (path.parent / root).resolve()
    if not resolved.is_dir():
        raise ConfigError(
            f"{path}: corpus.root",
            f"{root!r} is not a folder (resolved to {resolved})",
            "a folder, relative to the topic file, holding the class folders",
        )
    return resolved


def _classes(value: Any, where: str, root: Path) -> dict[str, str]:
    classes = _mapping(value, where, "corpus.classes", CLASSES, required=REQUIRED_CLASSES)
    folders: dict[str, str] = {}
    seen: dict[Path, str] = {}
    for name in CLASSES:
        if name not in classes:
            continue
        at = f"corpus.classes.{name}"
        entry = _mapping(classes[name], where, at, ("dir",), required=("dir",))
        folder = _text(entry, "dir", where, at, empty=False)
        resolved = _class_folder(root, folder, f"{where}: {at}.dir")
        other = next(
            (seen[p] for p in seen if p.is_relative_to(resolved) or resolved.is_relative_to(p)),
            None,
        )
        if other is not None:
            raise ConfigError(
                f"{where}: {at}.dir",
                f"{folder!r} is, holds or lies in the folder of class {other}",
                "a separate folder for each class",
            )
        seen[resolved] = name
        folders[name] = folder
    return folders


def _class_folder(root: Path, folder: str, where: str) -> Path:
    resolved = (root / folder).resolve()
    if Path(folder).is_absolute() or not resolved.is_relative_to(root):
        raise ConfigError(
            where, f"{folder!r} is outside corpus.root ({root})", "a folder inside it"
        )
    if not resolved.is_dir():
        raise ConfigError(
            where,
            f"{folder!r} is not a folder (resolved to {resolved})",
            "a folder inside corpus.root",
        )
    return resolved


def _switches(data: dict[str, Any], where: str) -> dict[str, Any]:
    """The reference's protocol and scoring switches, as crucible option defaults."""
    defaults: dict[str, Any] = {}
    count = data.get("researcher_count_per_side")
    if count is not None and count != 1:
        raise ConfigError(
            f"{where}: researcher_count_per_side",
            f"got {count!r}",
            "1 (or no key): the harness searches the corpus for each side, no sub-agents",
        )
    protocol = _mapping(data.get("protocol", {}), where, "protocol", _PROTOCOL_KEYS)
    scoring = _mapping(data.get("scoring", {}), where, "scoring", _SCORING_KEYS)
    if protocol.get("enable_web_for_lead"):
        raise ConfigError(f"{where}: protocol.enable_web_for_lead", "got true", f"false: {_NO_WEB}")
    pairs = (
        ("protocol.enable_steelman", protocol, "enable_steelman", "steelman", bool),
        ("protocol.enable_position_swap", protocol, "enable_position_swap", "position_swap", bool),
        ("scoring.judge_count", scoring, "judge_count", "judges", int),
        ("scoring.enable_meta_judge", scoring, "enable_meta_judge", "meta_judge", bool),
    )
    for label, section, key, option, kind in pairs:
        if key in section:
            value = section[key]
            if type(value) is not kind:
                expected = "true or false" if kind is bool else "an integer"
                raise ConfigError(f"{where}: {label}", f"got {value!r}", expected)
            defaults[option] = value
    if "topic_neutralization" in protocol:
        defaults["neutralize"] = _mode(protocol["topic_neutralization"], where)
    return defaults


def _mode(value: Any, where: str) -> str:
    # YAML 1.1 reads a bare `off` as false.
    mode = "off" if value is False else value
    if mode not in NEUTRALIZE_MODES:
        raise ConfigError(
            f"{where}: protocol.topic_neutralization", f"got {value!r}", "off, diagnose or rewrite"
        )
    return str(mode)
