"""One sweep of malformed input through the real command line.

Every case runs a real command (`inspect eval`, `inspect score`,
`debatebench-eval`) on one bad input — a run.yaml, a team file, a persona, a
motion file, an evidence pool, a `-T` task argument, a `-S` scorer argument or
a judge reply — and must give one clear message, without a traceback, that
names the file or key and what was expected. Configuration errors stop the
command before any model call (the model server here is a dead address);
a malformed judge reply leaves the debate unscored with the reason recorded.

The cases run concurrently (each is its own process) and are checked one test
each, so a failure names its case.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from support.commands import run
from support.judge_replies import DELETE, changed_reply
from support.rejudging import MIRROR_TRANSCRIPTS
from support.stub_server import StubBehaviour, StubServer, closed_url

BIN = Path(sys.executable).parent
DEAD = closed_url()  # every case stops before a model call; if one did not, it fails fast
DEBATE = ("eval", "debatebench/debate", "--model", "ollama/stub")
PREP = ("-T", "phases=[prep, opening]", "-T", "prep_budget=100")
TEAM = "id: t\nname: T\nvoice: calm\nstance: neutral\nvalues: [a, b]\n"
ROW = '{"id": "r1", "topic": "carbon tax", "side": "pro", "source": "s", "text": "Words."}\n'
RUN = """\
topic: "A federal carbon tax would do more good than harm."
format:
  phases: [opening:short, conclusion:short]
teams:
  - team: a.yaml
    side: pro
    model: qwen3:8b
    base_url: http://127.0.0.1:9/v1
    budget: 200
  - team: b.yaml
    side: con
    model: qwen3:8b
    base_url: http://127.0.0.1:9/v1
    budget: 200
seed: 42
"""
RUN_TEAMS = {"a.yaml": TEAM, "b.yaml": TEAM.replace("id: t", "id: u")}


@dataclass(frozen=True)
class Case:
    """One bad input. `argv` follows the program; `{dir}` is the case's own folder,
    `{log}` a saved debate log. `expect` must all appear in the one message."""

    id: str
    argv: tuple[str, ...]
    expect: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)
    program: str = "inspect"
    judge_reply: str | None = None  # the stub judge's reply, for judge-reply cases


def run_yaml(old: str, new: str) -> dict[str, str]:
    assert old in RUN
    return {"run.yaml": RUN.replace(old, new, 1), **RUN_TEAMS}


def reply_with(path: str, value: Any) -> str:
    return json.dumps(changed_reply(path, value))


CONFIG = ("-T", "config={dir}/run.yaml")
TEAM_FILE = ("-T", "pro_team={dir}/t.yaml")
PERSONA = ("-T", "pro_team={dir}/p.md")
MOTIONS = ("-T", "motions={dir}/m.yaml")
POOL = (*PREP, "-T", "sources=[{dir}/pool.jsonl]")
SCORE = ("score", "{log}", "--scorer", "debatebench/rubric", "--model-role", "judge=ollama/stub",
         "--output-file", "{dir}/out.eval")  # fmt: skip
JUDGE = ("eval", "debatebench/judge", "--model", "ollama/stub", "-T", "transcripts={transcript}",
         "-T", "swap_judging=false", "-T", "fact_check=false")  # fmt: skip

CASES = [
    # --- debatebench run.yaml ---------------------------------------------------------
    Case("run.yaml unknown key", (*DEBATE, *CONFIG), ("run.yaml: title: unknown key(s) ['title']",),
         run_yaml("topic:", "title:")),
    Case("run.yaml duplicate key", (*DEBATE, *CONFIG),
         ("found duplicate key 'seed' at line 16", "run.yaml"),
         run_yaml("seed: 42", "seed: 42\nseed: 43")),
    Case("run.yaml invalid YAML", (*DEBATE, *CONFIG),
         ("invalid YAML", "at line 15", "run.yaml", "expected a debatebench run.yaml"),
         run_yaml("seed: 42", "seed: [42")),
    # Loaded safely: a Python tag is refused, never constructed.
    Case("run.yaml Python tag", (*DEBATE, *CONFIG),
         ("invalid YAML", "could not determine a constructor", "python/object/apply:os.system"),
         run_yaml("seed: 42", "seed: !!python/object/apply:os.system ['true']")),
    Case("run.yaml top level a list", (*DEBATE, *CONFIG),
         ("run.yaml", "top level is", "expected a mapping of run settings"),
         {"run.yaml": "- topic: x\n"}),
    Case("run.yaml two pro teams", (*DEBATE, *CONFIG), ("two teams are both 'pro'",),
         run_yaml("side: con", "side: pro")),
    Case("run.yaml budget not a number", (*DEBATE, *CONFIG),
         ("teams[0]", "budget", "got 'lots'"), run_yaml("budget: 200", "budget: lots")),
    Case("run.yaml prep without prep_budget", (*DEBATE, *CONFIG),
         ("teams[0].prep_budget: missing",),
         run_yaml("[opening:short,", "[prep, opening:short,")),
    Case("run.yaml unvetted source", (*DEBATE, *CONFIG), ("'wiki' is not a vetted pool",),
         run_yaml("seed: 42", "seed: 42\nsources: [wiki]")),
    Case("run.yaml base_url scheme", (*DEBATE, *CONFIG),
         ("teams[1].base_url: got 'ftp://127.0.0.1:9/v1'", "expected an http:// or https:// URL"),
         run_yaml("    base_url: http://127.0.0.1:9/v1\n    budget: 200\nseed",
                  "    base_url: ftp://127.0.0.1:9/v1\n    budget: 200\nseed")),
    Case("run.yaml missing", (*DEBATE, "-T", "config={dir}/none.yaml"),
         ("none.yaml: file not found", "expected a debatebench run.yaml mapping")),
    Case("run.yaml and -T budget", (*DEBATE, *CONFIG, "-T", "budget=5"),
         ("-T budget: given together with -T config",), run_yaml("seed: 42", "seed: 42")),
    # --- team files -------------------------------------------------------------------
    Case("team with a run setting", (*DEBATE, *TEAM_FILE),
         ("t.yaml", "'model' is a run setting"), {"t.yaml": TEAM + "model: qwen3:8b\n"}),
    Case("team unknown key", (*DEBATE, *TEAM_FILE), ("t.yaml", "unknown key(s) ['colour']"),
         {"t.yaml": TEAM + "colour: red\n"}),
    Case("team missing keys", (*DEBATE, *TEAM_FILE),
         ("t.yaml", "missing key(s) ['voice', 'stance', 'values']"),
         {"t.yaml": "id: t\nname: T\n"}),
    Case("team values not a list", (*DEBATE, *TEAM_FILE), ("t.yaml", "values: got 'a'",
         "expected a list"), {"t.yaml": TEAM.replace("[a, b]", "a")}),
    Case("team invalid YAML", (*DEBATE, *TEAM_FILE), ("t.yaml", "invalid YAML"),
         {"t.yaml": "id: [unclosed\n"}),
    Case("team corpus missing", (*DEBATE, *TEAM_FILE),
         ("t.yaml", "corpus file 'nowhere.jsonl' not found"),
         {"t.yaml": TEAM + "corpus: nowhere.jsonl\n"}),
    Case("team file missing", (*DEBATE, "-T", "con_team={dir}/none.yaml"),
         ("none.yaml: team file not found",)),
    Case("team unknown extension", (*DEBATE, "-T", "pro_team={dir}/t.json"),
         ("t.json", "unknown extension '.json'"), {"t.json": "{}"}),
    # --- personas (Markdown teams) ----------------------------------------------------
    Case("persona without front matter", (*DEBATE, *PERSONA), ("p.md", "no YAML front matter"),
         {"p.md": "You argue well.\n"}),
    Case("persona front matter never closed", (*DEBATE, *PERSONA),
         ("p.md", "front matter is never closed"), {"p.md": f"---\n{TEAM}You argue.\n"}),
    Case("persona empty body", (*DEBATE, *PERSONA), ("p.md", "the persona body is empty"),
         {"p.md": f"---\n{TEAM}---\n\n"}),
    Case("persona with a side", (*DEBATE, *PERSONA), ("p.md", "'side' is a run setting"),
         {"p.md": f"---\n{TEAM}side: pro\n---\nYou argue.\n"}),
    # --- motion files -----------------------------------------------------------------
    Case("motion empty", (*DEBATE, *MOTIONS), ("m.yaml", "motions[0].motion: got ''"),
         {"m.yaml": "- {motion: ''}\n"}),
    Case("motion unknown key", (*DEBATE, *MOTIONS), ("m.yaml", "unknown key(s) ['colour']"),
         {"m.yaml": "- {motion: M, colour: red}\n"}),
    Case("motion bad id", (*DEBATE, *MOTIONS), ("m.yaml", "motions[0].id: got 'Bad Id'"),
         {"m.yaml": "- {id: Bad Id, motion: M}\n"}),
    Case("motion duplicate id", (*DEBATE, *MOTIONS), ("m.yaml", "duplicate motion id 'a'"),
         {"m.yaml": "- {id: a, motion: M}\n- {id: a, motion: N}\n"}),
    Case("motion JSONL line", (*DEBATE, "-T", "motions={dir}/m.jsonl"),
         ("m.jsonl", "line 2: invalid JSON"), {"m.jsonl": '{"motion": "ok"}\n{not json\n'}),
    Case("motion CSV column", (*DEBATE, "-T", "motions={dir}/m.csv"),
         ("m.csv", "unknown column(s) ['stance']"), {"m.csv": "motion,stance\nM,pro\n"}),
    Case("motion unknown extension", (*DEBATE, "-T", "motions={dir}/m.txt"),
         ("m.txt", "unknown extension '.txt'"), {"m.txt": "M\n"}),
    Case("motion file empty", (*DEBATE, *MOTIONS), ("m.yaml", "no motions found"),
         {"m.yaml": "[]\n"}),
    # --- evidence pools ---------------------------------------------------------------
    Case("pool invalid JSON", (*DEBATE, *POOL), ("pool.jsonl", "line 2", "not valid JSON",
         "one JSON object per line"), {"pool.jsonl": ROW + "{broken\n"}),
    Case("pool row missing a key", (*DEBATE, *POOL), ("pool.jsonl", "line 1",
         "a shared pool row with exactly"), {"pool.jsonl": ROW.replace('"source": "s", ', "")}),
    Case("pool duplicate id", (*DEBATE, *POOL), ("pool.jsonl", "unique ids within a pool"),
         {"pool.jsonl": ROW + ROW}),
    Case("pool bad side", (*DEBATE, *POOL), ("pool.jsonl", "side", "got 'both'", "pro or con"),
         {"pool.jsonl": ROW.replace('"pro"', '"both"')}),
    Case("pool empty text", (*DEBATE, *POOL), ("pool.jsonl", "text", "a non-empty string"),
         {"pool.jsonl": ROW.replace("Words.", " ")}),
    Case("pool missing", (*DEBATE, *PREP, "-T", "sources=[{dir}/none.jsonl]"),
         ("-T sources: pool file", "none.jsonl' not found", "expected a JSONL pool on disk")),
    Case("team corpus row with a side", (*DEBATE, *PREP, "-T", "pro_team={dir}/t.yaml"),
         ("corpus.jsonl", "team corpus row (no side"),
         {"t.yaml": TEAM + "corpus: corpus.jsonl\n", "corpus.jsonl": ROW}),
    # --- -T task arguments -------------------------------------------------------------
    Case("-T unknown key", (*DEBATE, "-T", "budgt=100"),
         ("-T budgt: unknown argument(s) budgt for task debate", "expected one of")),
    Case("-T budget not an integer", (*DEBATE, "-T", "budget=lots"),
         ("-T budget: got 'lots'", "expected an integer of at least 1")),
    Case("-T budget zero", (*DEBATE, "-T", "budget=0"), ("-T budget: got 0",)),
    Case("-T paired not a boolean", (*DEBATE, "-T", "paired=maybe"),
         ("-T paired: got 'maybe'", "expected true or false")),
    Case("-T unknown phase", (*DEBATE, "-T", "phases=[opening, closing]"),
         ("-T phases", "unknown phase 'closing'")),
    Case("-T unknown format", (*DEBATE, "-T", "format=nope"),
         ("-T format: unknown format 'nope'", "expected one of")),
    Case("-T judge_schema", (*DEBATE, "-T", "judge_schema=grammar"),
         ("-T judge_schema: got 'grammar'", "expected auto, true, false or object")),
    Case("-T margins reversed", (*DEBATE, "-T", "leaning_margin=20"),
         ("-T leaning_margin: 20.0 is above resolved_margin 15.0",)),
    Case("-T margin out of range", (*DEBATE, "-T", "resolved_margin=150"),
         ("-T resolved_margin: got 150", "a number of points from 0 to 100")),
    Case("-T prep without prep_budget", (*DEBATE, "-T", "phases=[prep, opening]"),
         ("-T prep_budget: missing although phases include 'prep'",)),
    Case("-T rubric file missing", (*DEBATE, "-T", "rubric={dir}/none.yaml"),
         ("none.yaml: file not found", "expected a rubric YAML file")),
    Case("-T validation limit", ("eval", "debatebench/judge_validation", "--model", "ollama/stub",
         "-T", "limit_per_source=-2"), ("-T limit_per_source: got -2",)),
    Case("-T transcripts missing", ("eval", "debatebench/judge", "--model", "ollama/stub",
         "-T", "transcripts={dir}/none"), ("-T transcripts", "does not exist")),
    # --- -S scorer arguments for inspect score ------------------------------------------
    Case("-S unknown key", (*SCORE, "-S", "bogus=1"),
         ("-S bogus: unknown argument(s) bogus for scorer rubric", "expected one of")),
    Case("-S swap_judging", (*SCORE, "-S", "swap_judging=maybe"),
         ("-S swap_judging: got 'maybe'", "expected true or false")),
    Case("-S judge_budget", (*SCORE, "-S", "judge_budget=0"),
         ("-S judge_budget: got 0", "an integer of at least 1")),
    Case("-S rubric file", (*SCORE, "-S", "rubric={dir}/r.yaml"),
         ("r.yaml", "invalid YAML"), {"r.yaml": "dimensions: [unclosed\n"}),
    Case("-S fact_check unknown key", ("score", "{log}", "--scorer", "debatebench/fact_check",
         "--model-role", "judge=ollama/stub", "--output-file", "{dir}/out.eval", "-S", "swap=1"),
         ("-S swap: unknown argument(s) swap for scorer fact_check",)),
    # --- debatebench-eval commands ------------------------------------------------------
    Case("export a missing log", ("export", "{dir}/none.eval", "-o", "{dir}/out"),
         ("log file not found", "none.eval"), program="debatebench-eval"),
    Case("index a malformed pool", ("index", "{dir}/pool.jsonl"),
         ("pool.jsonl", "line 1", "not valid JSON"), {"pool.jsonl": "{broken\n"},
         program="debatebench-eval"),
    Case("trust a debate log", ("trust", "{log}"),
         ("a debatebench/debate log, which does not measure a judge",),
         program="debatebench-eval"),
    # --- judge replies (the debate stays, unscored, with the reason) -------------------
    Case("judge reply prose", JUDGE, ("not valid JSON",), judge_reply="Side A wins."),
    Case("judge reply missing dimension", JUDGE, ('"side_a.clarity" is missing',),
         judge_reply=reply_with("side_a.clarity", DELETE)),
    Case("judge reply out of range", JUDGE, ("31; expected a whole number from 0 to 30",),
         judge_reply=reply_with("side_b.argument_quality.score", 31)),
    Case("judge reply float score", JUDGE, ("7.5; expected a whole number from 0 to 10",),
         judge_reply=reply_with("side_a.clarity.score", 7.5)),
    Case("judge reply placeholder", JUDGE,
         ('"side_b.clarity.justification" is \'...\'; it has no words',),
         judge_reply=reply_with("side_b.clarity.justification", "...")),
    Case("judge reply ledger status", JUDGE, ("'won'; expected one of 'open'",),
         judge_reply=reply_with("side_a.rebuttal_effectiveness.hit_ledger",
                                [{"point": "cost claim", "status": "won"}])),
]  # fmt: skip


@dataclass
class Outcome:
    returncode: int
    output: str
    unscored_reason: str | None  # judge-reply cases: the rubric score's reason


def _argv(case: Case, folder: Path, log: Path) -> list[str]:
    values = {"dir": str(folder), "log": str(log), "transcript": str(MIRROR_TRANSCRIPTS[0])}
    return [str(BIN / case.program), *(part.format(**values) for part in case.argv)]


def _run(case: Case, folder: Path, log: Path) -> Outcome:
    folder.mkdir(parents=True)
    for name, text in case.files.items():
        (folder / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "OLLAMA_BASE_URL": DEAD, "NO_COLOR": "1", "COLUMNS": "400",
           "INSPECT_LOG_DIR": str(folder / "logs"), "INSPECT_DISPLAY": "plain"}  # fmt: skip
    judged = case.judge_reply is not None
    stub = StubServer(StubBehaviour(reply=case.judge_reply)) if judged else None
    with stub or contextlib.nullcontext():
        if stub is not None:
            env["OLLAMA_BASE_URL"] = stub.base_url
        result = subprocess.run(
            _argv(case, folder, log), env=env, capture_output=True, text=True, timeout=300
        )
    output = result.stdout + result.stderr
    if stub is None:
        return Outcome(result.returncode, output, None)
    sample = (read_eval_log(list_eval_logs(str(folder / "logs"))[0].name).samples or [])[0]
    rubric = (sample.scores or {}).get("rubric")
    reason = rubric.reason if rubric is not None and not isinstance(rubric.value, dict) else None
    return Outcome(result.returncode, output, reason)


def _saved_debate(folder: Path) -> Path:
    """A finished debate's log, for `inspect score` and `debatebench-eval trust`."""
    with StubServer() as stub:
        run(["eval", "debatebench/debate", "--model", "ollama/stub", "--limit", "1",
             "-T", "phases=[opening:short]", "-T", "fact_check=false",
             "-T", "swap_judging=false"], stub.base_url, folder)  # fmt: skip
    return Path(list_eval_logs(str(folder))[0].name.removeprefix("file://"))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Future[Outcome]]]:
    """Every case started at once, four at a time; each test waits for its own, so a
    case that times out or breaks fails its own test only."""
    root = tmp_path_factory.mktemp("bad-input")
    log = _saved_debate(root / "saved")
    with ThreadPoolExecutor(max_workers=4) as pool:
        yield {c.id: pool.submit(_run, c, root / f"case{i}", log) for i, c in enumerate(CASES)}


def test_the_sweep_covers_every_kind_of_input() -> None:
    assert len(CASES) >= 40 and len({c.id for c in CASES}) == len(CASES)
    kinds = {c.id.split()[0] for c in CASES}
    assert {"run.yaml", "team", "persona", "motion", "pool", "-T", "-S", "judge"} <= kinds


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_gives_one_clear_message(
    case: Case, outcomes: dict[str, Future[Outcome]]
) -> None:
    outcome = outcomes[case.id].result()
    assert "Traceback" not in outcome.output, outcome.output[-3000:]
    if case.judge_reply is not None:
        # The run succeeds; the debate is kept and unscored, never zero, with the reason.
        assert outcome.returncode == 0, outcome.output[-3000:]
        assert outcome.unscored_reason is not None
        message = outcome.unscored_reason
    else:
        assert outcome.returncode != 0, outcome.output[-3000:]
        message = " ".join(outcome.output.split())
    for expected in case.expect:
        assert expected in message, message[-3000:]
    if case.judge_reply is None:
        # One message: its first expected part appears once, not repeated by a traceback.
        assert message.count(case.expect[0]) == 1, message[-3000:]
