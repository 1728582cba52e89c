"""Truth Crucible's topic file, read unchanged: the question, the two positions, the corpus.

    topic:  {question, pro_position, con_position, context}
    corpus: {root, classes: {PRO: {dir}, CON: {dir}, CRITICAL_OF_BOTH: {dir}}, analysis_suffix}

plus the reference's optional switches (`protocol`, `scoring`,
`researcher_count_per_side`), which become defaults that `-T` overrides. Paths
are relative to the topic file. The file's shape is one typed model
(`core.config_file`); every problem is one ConfigError naming the file and the
key (`topic.yaml: corpus.classes.CON.dir`), raised when the task is built,
before any model call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import PlainValidator

from debatebench_eval.core.config_file import ConfigFile, checked, flag, parse_file, text
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.core.reply_model import expected_error
from debatebench_eval.core.yamlio import load_yaml

CLASSES = ("PRO", "CON", "CRITICAL_OF_BOTH")
REQUIRED_CLASSES = ("PRO", "CON")
TEXT_SUFFIXES = (".md", ".txt")
DEFAULT_ANALYSIS_SUFFIX = "_analysis.md"
NEUTRALIZE_MODES = ("off", "diagnose", "rewrite")
_EXPECTED = "a Truth Crucible topic file (topic: {question, ...}, corpus: {root, classes})"
_NO_WEB = "the crucible argues from the corpus only; nothing is fetched at run time"
Text = Annotated[str, text()]
Flag = Annotated[bool, flag()]


def _mode(value: Any) -> str:
    # YAML 1.1 reads a bare `off` as false.
    mode = "off" if value is False else value
    if mode not in NEUTRALIZE_MODES:
        raise expected_error("off, diagnose or rewrite")
    return str(mode)


def _no_web(value: Any) -> bool:
    if value is not False:
        raise expected_error(f"false: {_NO_WEB}", "got true" if value is True else None)
    return False


class Question(ConfigFile):
    question: Text
    pro_position: Text
    con_position: Text
    context: Annotated[str, checked("a string", lambda v: isinstance(v, str), str.strip)] = ""


class ClassFolder(ConfigFile):
    dir: Text


class Classes(ConfigFile):
    PRO: ClassFolder
    CON: ClassFolder
    CRITICAL_OF_BOTH: ClassFolder | None = None


class CorpusKeys(ConfigFile):
    root: Text
    classes: Classes
    analysis_suffix: Annotated[
        str,
        checked(
            "a string ending in .md or .txt",
            lambda v: isinstance(v, str) and v.endswith(TEXT_SUFFIXES),
            str,
        ),
    ] = DEFAULT_ANALYSIS_SUFFIX


class Switches(ConfigFile):
    """The reference's protocol switches; each given one is a crucible option default."""

    enable_steelman: Flag | None = None
    enable_position_swap: Flag | None = None
    topic_neutralization: Annotated[str, PlainValidator(_mode)] | None = None
    enable_web_for_lead: Annotated[bool, PlainValidator(_no_web)] = False


class Scoring(ConfigFile):
    judge_count: Annotated[int, checked("an integer", lambda v: type(v) is int, int)] | None = None
    enable_meta_judge: Flag | None = None


class TopicFile(ConfigFile):
    topic: Question
    corpus: CorpusKeys
    protocol: Switches = Switches()
    scoring: Scoring = Scoring()
    researcher_count_per_side: (
        Annotated[
            int,
            checked(
                "1 (or no key): the harness searches the corpus for each side, no sub-agents",
                lambda v: v == 1 and v is not True,
                int,
            ),
        ]
        | None
    ) = None

    def defaults(self) -> dict[str, Any]:
        """The switches given, as crucible task options (steelman, judges, ...)."""
        options = {
            "steelman": self.protocol.enable_steelman,
            "position_swap": self.protocol.enable_position_swap,
            "neutralize": self.protocol.topic_neutralization,
            "judges": self.scoring.judge_count,
            "meta_judge": self.scoring.enable_meta_judge,
        }
        return {key: value for key, value in options.items() if value is not None}


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
    where = str(path)
    data = parse_file(TopicFile, load_yaml(path, _EXPECTED), where)
    root = _root(path, data.corpus.root)
    return Topic(
        file=path,
        root=root,
        classes=_classes(data.corpus.classes, where, root),
        analysis_suffix=data.corpus.analysis_suffix,
        defaults=data.defaults(),
        **data.topic.model_dump(),
    )


def _root(path: Path, root: str) -> Path:
    resolved = (path.parent / root).resolve()
    if not resolved.is_dir():
        raise ConfigError(
            f"{path}: corpus.root",
            f"{root!r} is not a folder (resolved to {resolved})",
            "a folder, relative to the topic file, holding the class folders",
        )
    return resolved


def _classes(classes: Classes, where: str, root: Path) -> dict[str, str]:
    folders: dict[str, str] = {}
    seen: dict[Path, str] = {}
    for name in CLASSES:
        entry = getattr(classes, name)
        if entry is None:
            continue
        at = f"{where}: corpus.classes.{name}.dir"
        resolved = _class_folder(root, entry.dir, at)
        other = next(
            (seen[p] for p in seen if p.is_relative_to(resolved) or resolved.is_relative_to(p)),
            None,
        )
        if other is not None:
            raise ConfigError(
                at,
                f"{entry.dir!r} is, holds or lies in the folder of class {other}",
                "a separate folder for each class",
            )
        seen[resolved] = name
        folders[name] = entry.dir
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
