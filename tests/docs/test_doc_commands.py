"""The commands the docs quote are ones the code accepts (issue 29, item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from debatebench_eval.cli.doc_commands import Command, check, check_files, commands_in

ROOT = Path(__file__).resolve().parents[2]


def doc_files() -> list[tuple[Path, str]]:
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [(path, path.relative_to(ROOT).as_posix()) for path in files if path.is_file()]


def test_every_command_in_readme_and_docs_is_accepted() -> None:
    count, problems = check_files(doc_files())
    assert count > 0, "no command found: the checker reads nothing"
    assert not problems, "commands the code does not accept:\n" + "\n".join(map(str, problems))


def quoted(tmp_path: Path, text: str, language: str = "bash") -> list[Command]:
    page = tmp_path / "page.md"
    page.write_text(f"Intro.\n\n```{language}\n{text}\n```\n", encoding="utf-8")
    return list(commands_in(page, "page.md"))


def problems_of(tmp_path: Path, text: str) -> list[str]:
    return [problem for command in quoted(tmp_path, text) for problem in check(command)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("inspect eval debatebench/debat --model ollama/m", "no task debatebench/debat"),
        ("inspect eval debatebench/debate -T motoin=x", "takes no -T motoin"),
        # every form no longer taken is named with the one to give
        (
            'inspect eval debatebench/debate -T judging="{judge_budget: 9}"',
            "no longer takes -T judging: give each judging setting as an option of its own",
        ),
        ("inspect eval debatebench/debate -T pro_budget=9", 'give -T budget="{pro: N'),
        ("inspect eval debatebench/debate -T seed=3", "give Inspect's own --seed"),
        ("inspect eval debatebench/crucible -T timeout=30", "give Inspect's own --timeout"),
        ("inspect eval debatebench/panel -T run={probe: false}", "no longer takes -T run"),
        (
            'inspect score LOG --scorer debatebench/rubric -S judging="{judge_budget: 900}"',
            "no longer takes -S judging: give each judging setting as an option of its own, "
            "e.g. -S judge_budget=1024",
        ),
        # a tournament's -T options are the debate task's
        (
            "debatebench-eval tournament run --models a,b --judges j --log-dir d -T budgit=9",
            "task debatebench/debate takes no -T budgit",
        ),
        (
            "debatebench-eval tournament plan --models a,b --judges j --log-dir d -T seed=3",
            "no longer takes -T seed",
        ),
        # ... and an oversight tournament's the oversight task's
        (
            "debatebench-eval tournament run --task oversight --models a,b --judges j "
            "--log-dir d -T format=classic",
            "task debatebench/oversight takes no -T format",
        ),
        ("inspect eval debatebench/debate --limt 1", "No such option '--limt'"),
        ("inspect evl debatebench/debate", "no command 'evl'"),
        ("inspect score LOG --scorer debatebench/rubrik", "no scorer debatebench/rubrik"),
        ("inspect score LOG --scorer debatebench/rubric -S budget=9", "takes no -S budget"),
        ("inspect eval t.py --solver debatebench/deliberate -S roundz=2", "takes no -S roundz"),
        # fact_check_validation reads only three judging keys, flat or in the mapping
        ("inspect eval debatebench/fact_check_validation -T swap_judging=false", "takes no -T"),
        ("debatebench-eval exprot LOG", "invalid choice: 'exprot'"),
        ("debatebench-eval export LOG --formt heurema", "unrecognized arguments: --formt"),
        ("debatebench-eval export LOG --format csv", "invalid choice: 'csv'"),
        ("debatebench-eval tournament rat DIR", "invalid choice: 'rat'"),
        # `run` hands what it does not take to Inspect, checked as `inspect eval` would
        ("debatebench-eval run debatebench/oversight --limt 3", "No such option '--limt'"),
        ("debatebench-eval run debatebench/oversight -T protocoll=naive", "takes no -T protocoll"),
        ("debatebench-eval annotate DIR --workers 2", "unrecognized arguments: --workers 2"),
    ],
)
def test_a_wrong_command_is_named_with_what_is_wrong(
    tmp_path: Path, text: str, expected: str
) -> None:
    problems = problems_of(tmp_path, text)
    assert any(expected in problem for problem in problems), problems


@pytest.mark.parametrize(
    "text",
    [
        "inspect eval debatebench/debate --model ollama/m -T motion=x --limit 1",
        # the judging keys, each an option of its own, and a budget by role
        "inspect eval debatebench_eval/debate -T judge_budget=1024 -T swap_judging=no",
        'inspect eval debatebench/debate -T budget="{pro: 9, con: 12}" --seed 3 --timeout 30',
        "inspect eval debatebench/crucible -T judges=1 -T meta_judge=false",
        "inspect score LOG --scorer debatebench/rubric -S judge_budget=900",
        "debatebench-eval tournament run --models a,b --judges j --log-dir d -T budget=600",
        "debatebench-eval tournament run --task oversight --models a,b --judges j --log-dir d "
        "-T rounds=2 -T protocol=open",
        "inspect eval inspect_evals/gpqa --solver debatebench/deliberate -S rounds=2",
        "inspect view --log-dir logs",
        "debatebench-eval export LOG --format heurema -o out",
        "debatebench-eval list",
        "debatebench-eval run debatebench/oversight --workers 2 -T protocol=naive --limit 9",
    ],
)
def test_a_right_command_passes(tmp_path: Path, text: str) -> None:
    assert problems_of(tmp_path, text) == []


def test_continuations_prompts_chains_and_environment_are_read(tmp_path: Path) -> None:
    text = (
        "$ OLLAMA_BASE_URL=http://127.0.0.1:8080/v1 inspect eval debatebench/debate \\\n"
        "    --model ollama/m \\\n"
        "    -T motoin=x\n"
        "pip install -e . && debatebench-eval exprot LOG"
    )
    commands = quoted(tmp_path, text, "console")
    assert [c.words[0] for c in commands] == ["inspect", "debatebench-eval"]
    assert commands[0].where == "page.md:4"
    assert "-T" in commands[0].words and "motoin=x" in commands[0].words
    assert all(check(command) for command in commands)


def test_placeholders_comments_and_other_languages_are_skipped(tmp_path: Path) -> None:
    assert quoted(tmp_path, "inspect eval debatebench/nothing --model-role pro=...") == []
    assert quoted(tmp_path, "# inspect eval debatebench/nothing") == []
    assert quoted(tmp_path, "inspect eval debatebench/nothing", language="python") == []
    assert quoted(tmp_path, "inspect eval debatebench/nothing", language="") == []


def test_an_optional_part_in_brackets_is_checked_as_given(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "debatebench-eval export LOG [--format heurema]") == []
    assert problems_of(tmp_path, "debatebench-eval export LOG [--formt heurema]")
