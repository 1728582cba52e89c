"""init and new: starter files, never overwriting, heurema's naming rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.protocols.plan import Options, build_plan
from debatebench_eval.protocols.scaffold import init_workspace, new_persona, starter_files
from debatebench_eval.protocols.spec import load_protocol
from debatebench_eval.protocols.workspace import discover_roots, load_index


def test_init_writes_a_workspace_that_runs_read(tmp_path: Path) -> None:
    written = init_workspace(tmp_path)
    assert all(w.created for w in written)
    assert {str(w.path.relative_to(tmp_path)) for w in written} == set(starter_files())
    index = load_index(discover_roots(tmp_path / "personas"))
    assert sorted(index.user.personas) == ["proposer", "skeptic", "synthesizer"]
    assert index.shadowed() == [
        "persona proposer",
        "persona skeptic",
        "persona synthesizer",
        "table default",
    ]
    assert (tmp_path / "teams" / "advocate.yaml").is_file()
    assert "motions:" in (tmp_path / "motions" / "starter.yaml").read_text()


def test_init_again_keeps_every_file_and_says_which_were_edited(tmp_path: Path) -> None:
    init_workspace(tmp_path)
    skeptic = tmp_path / "personas" / "skeptic.md"
    skeptic.write_text(skeptic.read_text() + "\nAlso check costs.\n")
    (tmp_path / "tables" / "default.yml").unlink()
    again = {w.path.name: w for w in init_workspace(tmp_path)}
    assert again["default.yml"].created
    assert not again["skeptic.md"].created and not again["skeptic.md"].unchanged
    assert "Also check costs." in skeptic.read_text()
    assert again["skeptic.md"].line().endswith("(exists: edited; left as it is)")
    assert again["proposer.md"].line().endswith("(exists: the starter, unchanged)")


def test_new_writes_a_persona_a_run_can_select(tmp_path: Path) -> None:
    init_workspace(tmp_path)
    below = tmp_path / "src"
    below.mkdir()
    path = new_persona(below, "reviewers/security", "debater")
    assert path == tmp_path / "personas" / "reviewers" / "security.md"
    synth = new_persona(below, "final-judge", "synthesizer")
    plan = build_plan(
        load_protocol("panel"), Options(with_=["security"], synth="final-judge"), below
    )
    assert [s.id for s in plan.seats] == ["reviewers/security", "final-judge"]
    assert "You are final-judge." in synth.read_text()


def test_new_writes_into_a_heurema_workspace(tmp_path: Path) -> None:
    (tmp_path / ".heurema" / "debate").mkdir(parents=True)
    path = new_persona(tmp_path, "architect", "debater")
    assert path == tmp_path / ".heurema" / "debate" / "personas" / "architect.md"


@pytest.mark.parametrize(
    ("name", "role", "says"),
    [
        ("", "debater", "persona name: empty"),
        ("/abs", "debater", "is absolute"),
        ("a\\b", "debater", "'/' as the namespace separator"),
        ("a/b/c", "debater", "is too deep"),
        ("a b", "debater", "non-empty segments"),
        ("a/", "debater", "non-empty segments"),
        ("ok", "judge", "--role: got 'judge'"),
    ],
)
def test_new_rejects_bad_names(tmp_path: Path, name: str, role: str, says: str) -> None:
    init_workspace(tmp_path)
    with pytest.raises(
        ConfigError,
    ) as caught:
        new_persona(tmp_path, name, role)
    assert says in str(caught.value)


def test_new_refuses_an_existing_persona_and_a_missing_workspace(tmp_path: Path) -> None:
    init_workspace(tmp_path / "ws")
    with pytest.raises(ConfigError, match="persona 'skeptic' already exists"):
        new_persona(tmp_path / "ws", "skeptic", "debater")
    with pytest.raises(ConfigError, match="run debatebench-eval init first"):
        new_persona(tmp_path, "x", "debater")
