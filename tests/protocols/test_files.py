"""Personas, tables, protocols and selection: heurema's rules, and one clear
message naming the file and key for every kind of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from debatebench_eval.core.errors import ConfigError
from debatebench_eval.protocols.personas import parse_persona
from debatebench_eval.protocols.plan import Options, build_plan
from debatebench_eval.protocols.selection import selector_list
from debatebench_eval.protocols.spec import load_protocol, parse_protocol
from debatebench_eval.protocols.tables import parse_table
from debatebench_eval.protocols.workspace import discover_roots, load_index

from support.deliberation import persona, table, workspace

GOOD = "---\nversion: 1\nrole: debater\nmodel: ollama/qwen3:8b\neffort: medium\n---\nYou argue.\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_heurema_persona_is_read_with_every_field(tmp_path: Path) -> None:
    text = (
        "---\r\nversion: 1\r\nrole: synthesizer\r\nmodel: claude-haiku-4-5\r\neffort: low\r\n"
        "backend: echo\r\ntags: [architecture, review]\r\n---\r\nYou synthesize.\r\n"
    )
    found = parse_persona(write(tmp_path / "s.md", text), "judges/s")
    assert (found.id, found.short_name, found.role, found.model, found.effort) == (
        "judges/s", "s", "synthesizer", "claude-haiku-4-5", "low",
    )  # fmt: skip
    assert found.backend == "echo" and found.tags == ("architecture", "review")
    assert found.system == "You synthesize."


def test_role_defaults_to_debater(tmp_path: Path) -> None:
    text = GOOD.replace("role: debater\n", "")
    assert parse_persona(write(tmp_path / "p.md", text), "p").role == "debater"


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("You argue.\n", "", "no YAML front matter"),
        ("---\nversion: 1\nmodel: x\n", "", "front matter is never closed"),
        (GOOD.replace("version: 1\n", ""), ": version", "no version"),
        (GOOD.replace("version: 1", "version: 2"), ": version", "version 2"),
        (GOOD.replace("role: debater", "role: judge"), ": role", "'judge'"),
        (GOOD.replace("model: ollama/qwen3:8b\n", ""), ": model", "missing"),
        (GOOD.replace("effort: medium\n", ""), ": effort", "missing"),
        (
            GOOD.replace("effort: medium", "effort: medium\ncolour: red"),
            ": colour",
            "unknown field",
        ),
        (GOOD.replace("You argue.", ""), "", "the body is empty"),
        (GOOD.replace("effort: medium", "effort: medium\ntags: fast"), ": tags", "'fast'"),
    ],
)
def test_a_malformed_persona_is_one_message_naming_file_and_key(
    tmp_path: Path, text: str, where: str, says: str
) -> None:
    path = write(tmp_path / "p.md", text)
    with pytest.raises(ConfigError) as caught:
        parse_persona(path, "p")
    message = str(caught.value)
    assert message.startswith(f"{path}{where}") and says in message, message


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        ("panel: [a]\n", ": version", "no version"),
        ("version: 1\npanel: []\n", ": panel", "non-empty list"),
        ("version: 1\npanel: [a]\nmodel: x\n", ": model", "unknown key"),
        ("version: 1\npanel: [a, '']\n", ": panel", "entry ''"),
        ("version: 1\npanel: [a]\nsynth: 3\n", ": synth", "got 3"),
        ("- a\n", "", "top level is list"),
    ],
)
def test_a_malformed_table_is_one_message(tmp_path: Path, text: str, where: str, says: str) -> None:
    path = write(tmp_path / "t.yml", text)
    with pytest.raises(ConfigError) as caught:
        parse_table(path, "t")
    assert str(caught.value).startswith(f"{path}{where}") and says in str(caught.value)


def test_workspace_layout_follows_heurema(tmp_path: Path) -> None:
    root = tmp_path / ".heurema" / "debate"
    persona(root, "skeptic")
    persona(root, "reviewers/security")
    write(root / "personas" / ".hidden.md", "not a persona")
    write(root / "personas" / "notes.txt", "not a persona")
    write(root / "personas" / "reviewers" / "README.txt", "ignored")
    table(root, "review", ["reviewers/security", "skeptic"])
    write(root / "tables" / "other.yaml", "ignored: only .yml is a table")
    deep = tmp_path / "project" / "src"
    deep.mkdir(parents=True)
    roots = discover_roots(deep)
    assert [r.kind for r in roots] == ["heurema", "bundled"]
    index = load_index(roots)
    assert sorted(index.user.personas) == ["reviewers/security", "skeptic"]
    assert sorted(index.user.tables) == ["review"]


@pytest.mark.parametrize(
    ("layout", "says"),
    [
        ("personas/a/b/deep.md", "nested two levels"),
        ("personas/bad name.md", "invalid persona name 'bad name'"),
        ("personas/bad.ns/p.md", "invalid namespace 'bad.ns'"),
        ("tables/bad name.yml", "invalid table name"),
    ],
)
def test_bad_layouts_fail_naming_the_file(tmp_path: Path, layout: str, says: str) -> None:
    ws = workspace(tmp_path / "ws")
    text = "version: 1\npanel: [a]\n" if layout.startswith("tables") else GOOD
    write(ws / layout, text)
    with pytest.raises(ConfigError) as caught:
        load_index(discover_roots(ws))
    assert says in str(caught.value)


def test_the_same_id_in_two_user_roots_names_both_files(tmp_path: Path) -> None:
    persona(tmp_path / ".heurema" / "debate", "skeptic")
    persona(workspace(tmp_path), "skeptic")
    with pytest.raises(ConfigError) as caught:
        load_index(discover_roots(tmp_path))
    message = str(caught.value)
    assert "persona id 'skeptic' is also defined in" in message
    assert str(tmp_path / ".heurema") in message and str(tmp_path / "personas") in message


def test_user_files_replace_the_shipped_ones_of_the_same_id(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    persona(ws, "skeptic", body="My own skeptic.")
    index = load_index(discover_roots(ws))
    assert index.shadowed() == ["persona skeptic"]
    plan = build_plan(load_protocol("panel"), Options(with_=["proposer", "skeptic"]), ws)
    assert [seat.persona.system for seat in plan.seats][1] == "My own skeptic."


def _plan(folder: Path, protocol: str = "panel", **options: object):  # type: ignore[no-untyped-def]
    return build_plan(load_protocol(protocol), Options(**options), folder)  # type: ignore[arg-type]


def test_selection_precedence_and_short_names(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    persona(ws, "reviewers/security")
    persona(ws, "judges/final", role="synthesizer")
    table(ws, "review", ["security", "skeptic"], synth="final")
    plan = _plan(ws, table="review")
    assert [s.id for s in plan.seats] == ["reviewers/security", "skeptic", "judges/final"]
    assert plan.final_seat.id == "judges/final"
    # -T with keeps its order and beats the table; -T synth beats the table's synth
    plan = _plan(ws, table="review", with_=["skeptic", "proposer"], synth="synthesizer")
    assert [s.id for s in plan.seats] == ["skeptic", "proposer", "synthesizer"]


def test_a_namespaced_synthesizer_is_the_default_when_it_is_the_only_one(tmp_path: Path) -> None:
    ws = workspace(tmp_path)
    persona(ws, "judges/synthesizer", role="synthesizer")
    assert _plan(ws, with_=["proposer"]).final_seat.id == "judges/synthesizer"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        (
            {"with_": ["security"]},
            "ambiguous; expected a qualified persona id: a/security, b/security",
        ),
        ({"with_": ["nobody"]}, "persona selector 'nobody' matches no persona"),
        ({"with_": ["proposer", "proposer"]}, "listed twice"),
        ({"with_": ["synthesizer"]}, "has role synthesizer"),
        ({"synth": "skeptic"}, "-T synth: persona 'skeptic'"),
        ({"table": "nope"}, "-T table: no table 'nope'; expected one of default"),
        ({"table": "a/b"}, "invalid table name"),
        ({"rounds": 0}, "-T rounds"),
    ],
)
def test_selection_errors(tmp_path: Path, options: dict[str, object], says: str) -> None:
    ws = workspace(tmp_path)
    persona(ws, "a/security")
    persona(ws, "b/security")
    table(ws, "default", ["proposer", "skeptic"])
    with pytest.raises(ConfigError) as caught:
        _plan(ws, **options)
    assert says in str(caught.value), str(caught.value)


@pytest.mark.parametrize("kind", ["heurema", "workspace"])
def test_a_workspace_without_a_table_or_with_stops_as_heurema_does(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / ".heurema" / "debate" if kind == "heurema" else workspace(tmp_path)
    persona(root, "architect")
    persona(root, "skeptic")
    with pytest.raises(ConfigError) as caught:
        _plan(tmp_path)
    assert str(caught.value) == (
        f"-T table: no table given, and the workspace ({root}) has no tables/default.yml; "
        "expected a default table (tables/default.yml), a named table (-T table=NAME) or a "
        "panel (-T with=a,b), as heurema does."
    )
    # The workspace's own personas are never swapped for the shipped pair.
    assert [s.id for s in _plan(tmp_path, with_=["architect", "skeptic"]).seats][:2] == [
        "architect", "skeptic",
    ]  # fmt: skip
    table(root, "default", ["architect"])
    assert _plan(tmp_path).seats[0].id == "architect"
    # A named shipped table is a choice, not a fallback.
    (root / "tables" / "default.yml").unlink()
    assert [s.id for s in _plan(tmp_path, table="default").seats][:2] == ["proposer", "skeptic"]
    assert "shipped default table" not in caplog.text


def test_with_no_workspace_at_all_the_shipped_pair_runs_and_the_run_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level("WARNING"):
        plan = _plan(tmp_path)
    assert [s.id for s in plan.seats] == ["proposer", "skeptic", "synthesizer"]
    assert (
        "no workspace found (no .heurema/debate/ or debatebench-workspace.yml here or above): "
        "the panel is the shipped default table (proposer, skeptic)"
    ) in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING"):
        _plan(tmp_path, with_=["skeptic"])
    assert caplog.text == ""  # the user chose the panel


@pytest.mark.parametrize(
    "value", [["proposer", ""], ["a", "", "b"], [None], "proposer,", ",skeptic"]
)
def test_empty_selector_entries_are_rejected_before_any_call(value: object) -> None:
    with pytest.raises(ConfigError) as caught:
        selector_list("-T with", value)
    assert str(caught.value).startswith("-T with: an empty persona selector in")


def test_selectors_from_the_command_line() -> None:
    assert selector_list("-T with", ["proposer", "skeptic"]) == ["proposer", "skeptic"]
    assert selector_list("-T with", "reviewers/security") == ["reviewers/security"]


def test_the_shipped_protocols_load() -> None:
    panel, adjudication = load_protocol("panel"), load_protocol("adjudication")
    assert panel.participants is None and panel.max_rounds == 10 and panel.repeats
    assert panel.converge is not None and (panel.converge.settle, panel.converge.patience) == (2, 3)
    assert [r.name for r in adjudication.rounds] == ["positions", "cross_critique"]
    assert [r.visibility for r in adjudication.rounds] == ["none", "all"]
    assert [r.max_words for r in adjudication.rounds] == [250, 150]
    assert adjudication.final.allowed == ("accept", "revise", "escalate")
    assert adjudication.final.extra_round is not None
    assert adjudication.final.extra_round.unresolved == "escalate"


BASE = {
    "version": 1,
    "name": "mine",
    "participants": [{"id": "a", "persona": "proposer"}, {"id": "j", "persona": "skeptic"}],
    "rounds": [{"name": "one", "speakers": ["a"], "instruction": "Go."}],
    "final": {"kind": "decision", "by": "j", "instruction": "Decide.", "allowed": ["yes", "no"]},
}


def _with(path: str, value: object) -> dict[str, object]:
    import copy

    data = copy.deepcopy(BASE)
    target: object = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]  # type: ignore[index]
    assert isinstance(target, dict)
    target[keys[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "where", "says"),
    [
        ("version", 2, "version", "got 2"),
        ("colour", "red", "colour", "unknown key"),
        ("rounds.0.speakers", [], "rounds[0].speakers", "got []"),
        ("rounds.0.speakers", ["ghost"], "rounds[0].speakers", "unknown participant 'ghost'"),
        ("rounds.0.max_words", 0, "rounds[0].max_words", "at least 1"),
        ("rounds.0.budget", -5, "rounds[0].budget", "at least 1"),
        ("rounds.0.visibility", "some", "rounds[0].visibility", "one of none, previous, all"),
        ("rounds.0.repeat", "yes", "rounds[0].repeat", "true or false"),
        ("stop", {"max_rounds": 0}, "stop.max_rounds", "at least 1"),
        ("stop", {"max_rounds": 3}, "stop.max_rounds", "does not repeat"),
        ("final.by", "ghost", "final.by", "the judge's participant id"),
        ("final.allowed", [], "final.allowed", "non-empty list"),
        ("final.kind", "vote", "final.kind", "one of synthesis, decision"),
        ("final.repair", "oops {x}", "final.repair", "cannot be filled in"),
        (
            "final.extra_round",
            {"max": 1, "speakers": ["a"], "unresolved": "maybe"},
            "final.extra_round.unresolved",
            "one of the allowed decisions: yes, no",
        ),
        ("participants", [], "participants", "a list of {id, persona}"),
    ],
)
def test_a_malformed_protocol_names_the_key(
    path: str, value: object, where: str, says: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_protocol(_with(path, value), "mine.yaml")
    message = str(caught.value)
    assert message.startswith(f"mine.yaml: {where}") and says in message, message


def test_only_the_last_round_may_repeat_and_convergence_needs_signals() -> None:
    data = _with("rounds", [
        {"name": "one", "speakers": ["a"], "repeat": True},
        {"name": "two", "speakers": ["a"]},
    ])  # fmt: skip
    with pytest.raises(ConfigError, match=r"rounds\[0\]\.repeat"):
        parse_protocol(data, "mine.yaml")
    data = _with("stop", {"converge": {"settle": 2}})
    with pytest.raises(ConfigError, match=r"stop\.converge: round\(s\) one ask for no signal"):
        parse_protocol(data, "mine.yaml")


def test_unknown_protocol_lists_the_shipped_ones() -> None:
    with pytest.raises(
        ConfigError, match="no protocol 'pannel'; expected one of adjudication, panel"
    ):
        load_protocol("pannel")


def test_every_problem_of_a_protocol_file_is_named_at_once() -> None:
    data = _with("rounds", [{"name": "One", "budget": 0, "colour": "red"}])
    data["version"] = 2
    with pytest.raises(ConfigError) as caught:
        parse_protocol(data, "mine.yaml")
    assert str(caught.value).splitlines() == [
        "mine.yaml: version: got 2; expected version: 1.",
        "mine.yaml: rounds[0].budget: got 0; expected an integer of at least 1.",
        "mine.yaml: rounds[0].name: got 'One'; expected a name of a-z, 0-9, - and _.",
        "mine.yaml: rounds[0].colour: unknown key(s) ['colour']; expected only speakers, "
        "visibility, order, instruction, max_words, budget, name, signal, repeat.",
    ]
