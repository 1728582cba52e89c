"""The generated pages of the docs site match the code (issue 29, item 3)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from debatebench_eval.cli import docs_pages, reference, surface
from debatebench_eval.cli.benchmarks_page import load_figures
from debatebench_eval.cli.main import command_parser
from debatebench_eval.cli.reference import subcommands
from debatebench_eval.core.errors import ConfigError
from debatebench_eval.judging.options import JudgingOptions
from debatebench_eval.truth_crucible.options import ScoringOptions

ROOT = docs_pages.CHECKOUT


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return docs_pages.pages(ROOT)


def test_the_checked_in_pages_are_a_fresh_generation() -> None:
    stale = docs_pages.stale(ROOT)
    assert not stale, f"out of date: {stale}; regenerate with {docs_pages.COMMAND}"


def test_check_names_a_changed_page_and_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "docs" / "reference", tmp_path / "docs" / "reference")
    shutil.copy(ROOT / "docs" / "benchmarks.md", tmp_path / "docs" / "benchmarks.md")
    (tmp_path / "results").mkdir()
    shutil.copy(ROOT / "results" / "figures.yaml", tmp_path / "results" / "figures.yaml")
    assert docs_pages.main(["--check", "--root", str(tmp_path)]) == 0
    page = tmp_path / "docs" / "reference" / "parameters" / "debate.md"
    page.write_text(page.read_text(encoding="utf-8") + "hand edit\n", encoding="utf-8")
    (tmp_path / "docs" / "reference" / "old.md").write_text("gone\n", encoding="utf-8")
    assert docs_pages.main(["--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "docs/reference/parameters/debate.md is out of date" in err
    assert "docs/reference/old.md" in err and docs_pages.COMMAND in err
    assert docs_pages.main(["--root", str(tmp_path)]) == 0  # regenerates
    assert docs_pages.stale(tmp_path) == ["reference/old.md"]  # left for a person to delete


def test_the_docs_command_says_a_bad_figures_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "results").mkdir()
    figures = (ROOT / "results" / "figures.yaml").read_text(encoding="utf-8")
    (tmp_path / "results" / "figures.yaml").write_text(
        figures.replace("  load: ", "  load: [", 1), encoding="utf-8"
    )
    assert docs_pages.main(["--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{docs_pages.COMMAND}: ") and "figures.yaml" in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_every_task_option_and_group_key_is_on_its_parameters_page(
    pages: dict[str, str],
) -> None:
    for item in surface.registered():
        if item.kind != "task":
            continue
        page = pages[f"reference/parameters/{item.short}.md"]
        for option in item.options():
            assert f"| `{option.name}` |" in page, (item.name, option.name)
        for key in item.group_keys():
            assert f"| `{key}` |" in page, (item.name, key)


def test_a_new_group_key_reaches_the_pages_without_editing_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # What a merged `judge_repeats` does: the group grows a field, the page follows.
    fields = dict(JudgingOptions.model_fields)
    template = fields["judge_budget"]
    new = type(template)(default=1, annotation=int, description="Readings per orientation.")
    monkeypatch.setattr(JudgingOptions, "model_fields", {**fields, "judge_repeats": new})
    page = docs_pages.pages(ROOT)["reference/parameters/debate.md"]
    assert "| `judge_repeats` | `int` | `1` | Readings per orientation. |" in page


def test_every_group_key_and_every_command_is_in_the_reference(pages: dict[str, str]) -> None:
    for group in (JudgingOptions, ScoringOptions):
        for key in group.option_keys():
            assert f"| `{key}` |" in pages["reference/tasks.md"], key
    for path, sub in subcommands(command_parser()):
        assert f"## `{' '.join(path)}`" in pages["reference/commands.md"]
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert flag in pages["reference/commands.md"], (path, flag)


def test_every_scorer_s_metrics_and_keys_are_on_its_task_page(pages: dict[str, str]) -> None:
    page = pages["reference/scores/debate.md"]
    for name in ("`debatebench/rubric`", "`debatebench/fact_check`", "`debatebench/turn_stats`"):
        assert name in page
    for key in ("`pro_total`", "`pro_steelman_fidelity`", "`unverifiable_citation_pct`"):
        assert key in page
    assert "| `model_win_rate` | (cross-sample) | Each debater model's share" in page


def test_the_records_page_has_every_field_of_the_typed_models(pages: dict[str, str]) -> None:
    from debatebench_eval.record.store import DebateRecord, Turn

    page = pages["reference/records.md"]
    for field in (*DebateRecord.model_fields, *Turn.model_fields):
        if field != "store":
            assert f"| `{field}` |" in page, field
    assert "[Turn](#turn)" in page  # a nested model links to its own table


def test_every_figure_keeps_its_command_and_date(pages: dict[str, str]) -> None:
    figures = load_figures(ROOT)
    assert len(figures) >= 25
    for figure in figures:
        assert f"```bash\n{figure.command}\n```" in pages["benchmarks.md"]
        assert figure.date.isoformat() in pages["benchmarks.md"]
        if figure.source:
            assert (ROOT / figure.source).exists(), figure.source


def test_a_bad_figures_file_is_one_error_naming_the_entry(tmp_path: Path) -> None:
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "figures.yaml").write_text(
        "figures:\n- title: t\n  what: x\n  command: y\n  figure: z\n  machine: m\n"
        "  date: 2026-12-01\n  tme: 3\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"figures\.yaml: figures\.0\.tme"):
        load_figures(tmp_path)


def test_command_help_reads_on_the_page_as_help_prints_it(
    pages: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A help string is a %-format to argparse: `%%` prints as `%`, `%(default)s` as the
    # default. The page must show what `--help` shows, never the format.
    page = pages["reference/commands.md"]
    assert "with 95% intervals over questions" in page and "%%" not in page
    assert "%(" not in page
    monkeypatch.setenv("COLUMNS", "100000")  # argparse wraps help to the terminal's width
    parser = command_parser()
    shown = {parser.prog: " ".join(parser.format_help().split())}
    for path, sub in subcommands(parser):
        shown[" ".join(path)] = " ".join(sub.format_help().split())
    for path, sub in subcommands(parser):
        parent = shown[" ".join(path[:-1])]
        assert " ".join(reference._help_of(parser, path).split()) in parent, path
        for action in sub._actions:
            text = " ".join(reference.help_text(sub, action).split())
            assert text in shown[" ".join(path)], (path, action.dest)


def test_help_text_fills_in_the_default_and_the_percent_sign() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="tool")
    sub = parser.add_subparsers().add_parser("rate", help="ratings with 95%% intervals")
    action = sub.add_argument("--share", default=0.95, help="%(default)s, or 100%%")
    assert reference.help_text(sub, action) == "0.95, or 100%"
    page = reference.commands_page(parser)
    assert "## `debatebench-eval rate`\n\nratings with 95% intervals\n" in page
    assert "| `0.95` | 0.95, or 100% |" in page
