"""The rule modules under mutation testing, and the tests that guard each.

A target is one module, or the rule functions of a module whose other
functions are prompt text, display or Inspect glue. Its tests are the test
files that state the module's rules at the layer README states them; mutmut
runs each mutant against those of them that call the mutated function, so a
narrow selection keeps a module's run short without weakening it. They run in
the order listed and mutmut stops at the first failure, so the quick tests
that state the rule come first and whole scored runs last.

mutmut 3 mutates what is inside functions and methods only: module constants
(thresholds, defaults) and functions under a decorator (`@solver`, `@scorer`,
`@cache`, `@property`) are not mutated. The thresholds' boundaries are tested through the
functions that compare against them.
"""

from __future__ import annotations

from dataclasses import dataclass

# Tests that start real processes or servers, or run a whole command, time
# out or cannot see the mutant; the rules they cover are also tested in process.
_SLOW_CLI = (
    "--deselect",
    "tests/validation/test_trust.py::test_all_631_speeches_through_the_real_cli_and_a_loopback_judge",
)


@dataclass(frozen=True)
class Target:
    """One rule module (or its rule functions) and the tests that exercise it."""

    name: str
    path: str
    tests: tuple[str, ...]
    # Only these functions ("name" or "Class.method") are mutated; empty: all of them.
    functions: tuple[str, ...] = ()

    @property
    def module(self) -> str:
        return self.path.removesuffix(".py").replace("/", ".")

    def patterns(self) -> list[str]:
        """mutmut's mutant-name globs for this target's functions (none: the whole file)."""
        names = []
        for function in self.functions:
            owner, _, method = function.rpartition(".")
            key = f"xǁ{owner}ǁ{method}" if owner else f"x_{method}"
            names.append(f"{self.module}.{key}__mutmut_*")
        return names


TARGETS = (
    Target(
        "verdict",
        "debatebench_eval/judging/verdict.py",
        (
            "tests/judging/test_rubric_rules.py",
            "tests/judging/test_rules_at_their_layer.py",
            "tests/judging/test_regression.py",
        ),
    ),
    Target(
        "rubric (reply checks)",
        "debatebench_eval/judging/rubric.py",
        ("tests/judging/test_rubric_rules.py", "tests/judging/test_structured.py"),
        functions=("_reply_model", "check_judgment", "_side"),
    ),
    Target(
        "score_schema",
        "debatebench_eval/judging/score_schema.py",
        (
            "tests/judging/test_regression.py",
            "tests/judging/test_rules_at_their_layer.py",
            "tests/judging/test_rubric_scorer.py",
        ),
    ),
    Target(
        "blind",
        "debatebench_eval/judging/blind.py",
        (
            "tests/judging/test_rubric_rules.py",
            "tests/judging/test_fact_check.py",
            "tests/judging/test_rubric_scorer.py",
        ),
    ),
    Target(
        "ledger (checks)",
        "debatebench_eval/judging/ledger.py",
        ("tests/judging/test_fact_check.py", "tests/judging/test_quote_chinese.py"),
        functions=(
            "_bare_id",
            "_turn_id",
            "_cited_id",
            "ledger_bounds",
            "_claim_model",
            "claims_model",
            "reply_model",
            "_side_model",
            "_some_claims",
            "_reason_of",
            "check_fact_check",
            "check_ledger",
            "_claims",
            "_verified",
            "verify_citation",
            "normalise",
            "_quote_words",
            "check_quote",
            "quote_match",
        ),
    ),
    Target(
        "trust",
        "debatebench_eval/trust/records.py",
        ("tests/validation/test_trust.py", *_SLOW_CLI),
        functions=(
            "JudgeIdentity.same_model",
            "verdict",
            "judge_identity",
            "_ask_server",
            "_hosted",
            "_get_json",
            "_listed_entry",
            "_ollama_digest",
            "_llama_cpp_meta",
            "user_trust_dir",
            "load_records",
            "trust_status",
        ),
    ),
    Target(
        "gate",
        "debatebench_eval/judging/gate.py",
        (
            "tests/judging/test_gate.py",
            "tests/judging/test_rules_at_their_layer.py",
            "tests/validation/test_trust.py",
            "tests/judging/test_rubric_scorer.py",
            *_SLOW_CLI,
        ),
    ),
    Target("probe", "debatebench_eval/servers/probe.py", ("tests/servers/test_probe.py",)),
    Target(
        "speech",
        "debatebench_eval/debating/speech.py",
        (
            "tests/debate/test_speech.py",
            "tests/debate/test_reasoning_budget.py",
            "tests/debate/test_solver.py",
        ),
    ),
    Target(
        "replies (budget, seed + attempt)",
        "debatebench_eval/servers/replies.py",
        (
            "tests/servers/test_replies.py",
            "tests/debate/test_reasoning_budget.py",
            "tests/debate/test_solver.py",
        ),
    ),
    Target(
        "calls (budget and seed per call)",
        "debatebench_eval/servers/calls.py",
        ("tests/debate/test_reasoning_budget.py", "tests/debate/test_solver.py"),
    ),
    Target(
        "solver (seed, budgets, completeness)",
        "debatebench_eval/debating/solver.py",
        (
            "tests/debate/test_solver_rules.py",
            "tests/debate/test_solver.py",
            "tests/judging/test_rules_at_their_layer.py",
        ),
        functions=("_speakers", "_take_turn", "_check_complete"),
    ),
    Target("seeds", "debatebench_eval/core/seeds.py", ("tests/debate/test_solver_rules.py",)),
    Target(
        "protocol",
        "debatebench_eval/record/protocol.py",
        (
            "tests/debate/test_protocol_rules.py",
            "tests/debate/test_protocol.py",
            "tests/debate/test_solver.py",
        ),
    ),
    Target("stats", "debatebench_eval/trust/stats.py", ("tests/validation/test_stats.py",)),
    Target(
        "bradley_terry",
        "debatebench_eval/stats/bradley_terry.py",
        ("tests/stats/test_bradley_terry.py",),
    ),
    Target("bootstrap", "debatebench_eval/stats/bootstrap.py", ("tests/stats/test_bootstrap.py",)),
    Target(
        "intervals",
        "debatebench_eval/stats/intervals.py",
        ("tests/stats/test_intervals.py", "tests/stats/test_shares.py"),
    ),
    Target(
        "reliability",
        "debatebench_eval/judging/reliability.py",
        ("tests/judging/test_reliability.py",),
    ),
    Target(
        "families",
        "debatebench_eval/judging/families.py",
        ("tests/judging/test_repeats_and_swap_rule.py",),
        functions=("family",),
    ),
)
