"""Bad input gets one clear error naming the file, the key and what was expected:
task arguments, team files, motion files and debatebench run.yaml files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.debating.run_yaml import parse_run_yaml
from debatebench_eval.debating.task import debate
from debatebench_eval.record.motions import default_motions, load_motions
from debatebench_eval.record.teams import load_team, resolve_team

TEAM = "id: t\nname: T\nvoice: calm\nstance: neutral\nvalues: [a, b]\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# --- task arguments ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"bogus": 1}, r"-T bogus: unknown argument\(s\) bogus for task debate"),
        ({"budget": "lots"}, r"-T budget: got 'lots'; expected an integer of at least 1"),
        ({"budget": 0}, r"-T budget: got 0"),
        ({"paired": "maybe"}, r"-T paired: got 'maybe'; expected true or false"),
        ({"phases": "[prep, opening]"}, r"-T prep_budget: missing although phases include"),
        ({"sources": "[example]"}, r"-T prep_budget / -T sources: given but phases have no"),
        (
            {"phases": "[prep, opening]", "prep_budget": 100, "sources": "[wiki]"},
            r"-T sources: unknown pool 'wiki'; expected one of args-me, debatesum, example",
        ),
        (
            {"phases": "[prep, opening]", "prep_budget": 100},
            r"-T sources: prep has no evidence to read",
        ),
        ({"phases": "[opening, closing]"}, r"unknown phase 'closing'"),
        (
            {"format": "nope"},
            r"-T format: unknown format 'nope'; expected one of classic, lightning",
        ),
        ({"format": "classic", "phases": "[opening]"}, r"both were given"),
        ({"motion": "x", "motions": "my.yaml"}, r"-T motion / -T motions: both were given"),
        ({"motion": True}, r"-T motion: YAML read the value as True"),
        ({"pro_team": "missing.yaml"}, r"missing.yaml: team file not found"),
        ({"config": "run.yaml", "budget": 5}, r"-T budget: given together with -T config"),
    ],
)
def test_bad_task_arguments(args: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        debate(**args)


def test_comma_split_motion_is_joined_back() -> None:
    task = debate(motion=["Tax wealth", " not income."])
    assert task.dataset[0].metadata["motion"] == "Tax wealth, not income."  # type: ignore[index]


# --- motions ----------------------------------------------------------------


def test_bundled_motions_are_many_with_stable_unique_ids() -> None:
    motions = default_motions()
    assert len(motions) >= 30
    assert len({m.id for m in motions}) == len(motions)
    assert next(m for m in motions if m.id == "carbon-tax").text.startswith("A federal carbon tax")


def test_motion_files_in_three_formats(tmp_path: Path) -> None:
    yaml_file = write(tmp_path / "m.yaml", "motions:\n  - {id: a, motion: Motion A., topic: a}\n")
    jsonl = write(
        tmp_path / "m.jsonl", '{"motion": "Motion B."}\n\n{"id": "c", "motion": "Motion C."}\n'
    )
    csv_file = write(tmp_path / "m.csv", 'id,motion,topic\r\nd,"Motion D, with comma.",d\r\n')
    assert [m.id for m in load_motions(yaml_file)] == ["a"]
    assert [m.text for m in load_motions(jsonl)] == ["Motion B.", "Motion C."]
    assert load_motions(csv_file)[0].text == "Motion D, with comma."


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("m.yaml", "motions: {a: 1}\n", "top level is dict"),
        ("m.yaml", "- {motion: ''}\n", r"motions\[0\].motion: got ''"),
        ("m.yaml", "- {motion: M, colour: red}\n", r"unknown key\(s\) \['colour'\]"),
        ("m.yaml", "- {id: Bad Id, motion: M}\n", r"motions\[0\].id: got 'Bad Id'"),
        ("m.yaml", "- {id: a, motion: M}\n- {id: a, motion: N}\n", "duplicate motion id 'a'"),
        ("m.jsonl", '{"motion": "ok"}\n{not json\n', "line 2: invalid JSON"),
        ("m.csv", "motion,stance\nM,pro\n", r"unknown column\(s\) \['stance'\]"),
        ("m.txt", "M\n", "unknown extension '.txt'"),
        ("m.yaml", "[]\n", "no motions found"),
    ],
)
def test_bad_motion_files(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_motions(path)
    assert str(path) in str(info.value.message)


# --- teams ------------------------------------------------------------------


def test_builtin_teams_and_markdown_persona(tmp_path: Path) -> None:
    assert resolve_team("advocate").id == "reform-advocate"
    persona = write(tmp_path / "p.md", f"---\n{TEAM}---\nYou argue from first principles.\n")
    assert load_team(persona).brief == "You argue from first principles."


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("t.yaml", TEAM + "model: qwen3:8b\n", r"model: 'model' is a run setting"),
        ("t.yaml", TEAM + "budget: 100\n", r"budget: 'budget' is a run setting"),
        ("t.yaml", TEAM + "side: pro\n", r"side: 'side' is a run setting"),
        ("t.yaml", TEAM + "colour: red\n", r"unknown key\(s\) \['colour'\]"),
        ("t.yaml", "id: t\nname: T\n", r"missing key\(s\) \['voice', 'stance', 'values'\]"),
        ("t.yaml", TEAM.replace("[a, b]", "a"), "values: got 'a'; expected a list"),
        ("t.yaml", TEAM.replace("name: T", "name: ''"), "name: got ''"),
        ("t.yaml", TEAM + "corpus: nowhere.jsonl\n", "corpus file 'nowhere.jsonl' not found"),
        ("t.yaml", TEAM + "id: again\n", "found duplicate key 'id'"),
        ("t.yaml", "id: [unclosed\n", "invalid YAML"),
        ("t.yaml", "- a list\n", "top level is list"),
        ("t.md", TEAM, "no YAML front matter"),
        ("t.md", f"---\n{TEAM}", "front matter is never closed"),
        ("t.md", f"---\n{TEAM}---\n\n", "the persona body is empty"),
        ("t.json", "{}", "unknown extension '.json'"),
    ],
)
def test_bad_team_files(tmp_path: Path, name: str, text: str, message: str) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(ConfigError, match=message) as info:
        load_team(path)
    assert str(path) in str(info.value.message)


# --- debatebench run.yaml ---------------------------------------------------

RUN = """\
topic: "A federal carbon tax would do more good than harm."
format:
  phases: [opening:medium, rebuttal:medium, conclusion:short]
teams:
  - team: teams/a.yaml
    side: pro
    model: qwen3:8b
    base_url: http://user:secret@127.0.0.1:11434/v1
    budget: 2000
  - team: teams/b.yaml
    side: con
    model: phi4-mini
    base_url: http://127.0.0.1:8080/v1
    budget: 1500
seed: 42
output: transcript.json
judge:
  model: qwen3:8b
  base_url: http://127.0.0.1:11434/v1
  budget: 6000
  output: scores.json
"""


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    write(tmp_path / "teams" / "a.yaml", TEAM)
    write(tmp_path / "teams" / "b.yaml", TEAM.replace("id: t", "id: u"))
    return tmp_path


def test_debatebench_run_yaml_is_read_unchanged(run_dir: Path) -> None:
    settings = parse_run_yaml(write(run_dir / "run.yaml", RUN))
    assert settings.motions[0].text == "A federal carbon tax would do more good than harm."
    assert [str(p) for p in settings.phases] == [
        "opening:medium",
        "rebuttal:medium",
        "conclusion:short",
    ]
    assert settings.budgets == {"pro": 2000, "con": 1500} and settings.seed == 42
    assert settings.role_models["con"].model == "phi4-mini"
    assert settings.role_models["judge"].base_url == "http://127.0.0.1:11434/v1"
    assert settings.judge_budget == 6000 and settings.fact_check
    assert any("output" in note for note in settings.notes)


def test_run_yaml_models_become_roles_without_credentials(run_dir: Path) -> None:
    task = debate(config=str(write(run_dir / "run.yaml", RUN)))
    roles = task.model_roles or {}
    assert str(roles["pro"]) == "openai-api/debatebench/qwen3:8b"
    assert roles["pro"].api.base_url == "http://127.0.0.1:11434/v1"
    assert set(roles) == {"pro", "con", "judge"}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('topic: "A federal', 'title: "A federal', r"title: unknown key\(s\) \['title'\]"),
        ("seed: 42", "seed: 42\nseed: 43", "found duplicate key 'seed'"),
        ("[opening:medium,", "[closing,", "unknown phase 'closing'"),
        ("[opening:medium,", "[opening:huge,", "unknown length 'huge'"),
        ("[opening:medium,", "[prep, opening:medium,", r"teams\[0\].prep_budget: missing"),
        ("    side: con", "    side: pro", "two teams are both 'pro'"),
        ("    side: con", "    side: both", r"teams\[1\].side: got 'both'"),
        ("    budget: 1500", "    budget: 0", r"teams\[1\].budget: got 0"),
        ("    budget: 1500\n", "", r"teams\[1\].budget: missing"),
        ("http://127.0.0.1:8080/v1", "ftp://host", r"teams\[1\].base_url: got 'ftp://host'"),
        (
            "http://127.0.0.1:8080/v1",
            "'http://127.0.0.1:8080/v1 '",
            r"teams\[1\].base_url: got 'http://127.0.0.1:8080/v1 ', which holds a space",
        ),
        ("    model: phi4-mini\n", "", r"teams\[1\].model: missing"),
        ("teams/b.yaml", "teams/none.yaml", "none.yaml: team file not found"),
        (
            "    budget: 1500",
            "    budget: 1500\n    prep_budget: 100",
            "prep_budget: set but phases have no 'prep'",
        ),
        ("output: transcript.json", "sources: [wiki]", "'wiki' is not a vetted pool"),
        (
            "  budget: 6000",
            "  budget: 6000\n  fact_check: sometimes",
            "judge.fact_check: got 'sometimes'",
        ),
        (
            "format:\n  phases:",
            "format:\n  rounds: 3\n  phases:",
            r"format.rounds: unknown key\(s\) \['rounds'\]",
        ),
        ("seed: 42", "seed: -1", "seed: got -1"),
    ],
)
def test_bad_run_yaml(run_dir: Path, old: str, new: str, message: str) -> None:
    assert old in RUN
    path = write(run_dir / "run.yaml", RUN.replace(old, new, 1))
    with pytest.raises(ConfigError, match=message) as info:
        parse_run_yaml(path)
    assert str(run_dir) in str(info.value.message)


def test_run_yaml_with_a_single_team(run_dir: Path) -> None:
    text = RUN.split("  - team: teams/b.yaml")[0] + "seed: 42\n"
    with pytest.raises(ConfigError, match="1 entries; expected a list of exactly two"):
        parse_run_yaml(write(run_dir / "run.yaml", text))
