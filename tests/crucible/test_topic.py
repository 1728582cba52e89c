"""Topic files: the reference's format read unchanged, every mistake one message naming
file and key, the reference's switches as defaults."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.truth_crucible.corpus import read_corpus
from debatebench_eval.truth_crucible.task import topic_paths
from debatebench_eval.truth_crucible.topic import load_topic

GOOD = {
    "topic": {"question": "Q?", "pro_position": "Yes.", "con_position": "No.", "context": ""},
    "corpus": {"root": "corpus", "classes": {"PRO": {"dir": "a"}, "CON": {"dir": "b"}}},
}


def make(tmp_path: Path, data: object, files: dict[str, bytes] | None = None) -> Path:
    for name, body in (files or {"a/x.md": b"one line\n", "b/y.txt": b"other line\n"}).items():
        path = tmp_path / "corpus" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    topic = tmp_path / "topic.yaml"
    topic.write_text(yaml.safe_dump(data) if not isinstance(data, str) else data)
    return topic


def edited(path: str, value: object) -> dict:  # type: ignore[type-arg]
    import copy

    data = copy.deepcopy(GOOD)
    node, keys = data, path.split(".")
    for key in keys[:-1]:
        node = node[key]
    if value is KeyError:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return data


def test_the_shipped_example_loads_with_its_three_classes() -> None:
    topic = load_topic(topic_paths(None)[0])
    assert list(topic.classes) == ["PRO", "CON", "CRITICAL_OF_BOTH"]
    assert topic.analysis_suffix == "_analysis.md" and topic.defaults == {}
    corpus = read_corpus(topic)
    assert sum(f.kind == "analysis" for f in corpus.files.values()) == 1


@pytest.mark.parametrize(
    ("data", "where", "found"),
    [
        ("- a list\n", "topic.yaml", "top level is list"),
        (edited("topic", KeyError), "topic.yaml: topic", "missing"),
        (edited("corpus", KeyError), "topic.yaml: corpus", "missing"),
        (edited("topic.question", KeyError), "topic.yaml: topic.question", "missing"),
        (edited("topic.question", " "), "topic.yaml: topic.question", "got ' '"),
        (edited("topic.pro_position", 3), "topic.yaml: topic.pro_position", "got 3"),
        (edited("topic.extra", "x"), "topic.yaml: topic.extra", "unknown key"),
        (edited("surprise", 1), "topic.yaml: surprise", "unknown key"),
        (edited("corpus.root", "nowhere"), "topic.yaml: corpus.root", "is not a folder"),
        (edited("corpus.classes.CON", KeyError), "topic.yaml: corpus.classes.CON", "missing"),
        (edited("corpus.classes.NEUTRAL", {"dir": "a"}), "corpus.classes.NEUTRAL", "unknown key"),
        (edited("corpus.classes.CON.dir", "zzz"), "corpus.classes.CON.dir", "is not a folder"),
        (edited("corpus.classes.CON.dir", "../.."), "corpus.classes.CON.dir", "outside"),
        (edited("corpus.classes.CON.dir", "a"), "corpus.classes.CON.dir", "folder of class PRO"),
        (edited("corpus.analysis_suffix", ".pdf"), "corpus.analysis_suffix", "got '.pdf'"),
        (edited("protocol", {"enable_web_for_lead": True}), "enable_web_for_lead", "got true"),
        (edited("researcher_count_per_side", 3), "researcher_count_per_side", "got 3"),
        (edited("protocol", {"topic_neutralization": "loud"}), "topic_neutralization", "loud"),
        (edited("scoring", {"judge_count": "two"}), "scoring.judge_count", "got 'two'"),
    ],
)
def test_a_bad_topic_file_names_the_file_and_key(
    tmp_path: Path, data: object, where: str, found: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_topic(make(tmp_path, data))
    message = str(caught.value)
    assert str(tmp_path / "topic.yaml") in message
    assert where in message and found in message, message
    assert "\n" not in message


def test_a_missing_file_and_invalid_yaml_are_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="file not found"):
        load_topic(tmp_path / "none.yaml")
    with pytest.raises(ConfigError, match="invalid YAML"):
        load_topic(make(tmp_path, "topic: [unclosed\n"))


@pytest.mark.parametrize(
    ("files", "found"),
    [
        ({"a/x.md": b"\xff\xfe bad", "b/y.txt": b"fine\n"}, "not UTF-8 text at byte 0"),
        ({"a/x.md": b"\n  \n", "b/y.txt": b"fine\n"}, "the file has no text"),
        ({"a/x.pdf": b"%PDF", "b/y.txt": b"fine\n"}, "holds no .md or .txt file"),
    ],
)
def test_a_bad_corpus_file_is_named(tmp_path: Path, files: dict[str, bytes], found: str) -> None:
    with pytest.raises(ConfigError, match=found) as caught:
        read_corpus(load_topic(make(tmp_path, GOOD, files)))
    assert "corpus" in str(caught.value)


def test_a_symlink_out_of_the_corpus_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("secret words here\n")
    topic = make(tmp_path, GOOD)
    os.symlink(outside, tmp_path / "corpus" / "a" / "link.md")
    with pytest.raises(ConfigError, match=r"links outside corpus\.root"):
        read_corpus(load_topic(topic))


def test_the_reference_switches_become_option_defaults(tmp_path: Path) -> None:
    data = {
        **GOOD,
        "researcher_count_per_side": 1,
        "protocol": {
            "enable_steelman": False,
            "enable_position_swap": True,
            "topic_neutralization": False,
            "enable_web_for_lead": False,
        },
        "scoring": {"judge_count": 5, "enable_meta_judge": False},
    }
    topic = load_topic(make(tmp_path, data))
    assert topic.defaults == {
        "steelman": False,
        "position_swap": True,
        "judges": 5,
        "meta_judge": False,
        "neutralize": "off",
    }
