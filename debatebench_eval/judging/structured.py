"""Ask a judge model for JSON, check it, and re-ask once naming what was wrong.

Shared by the rubric and the fact-check. The outcome keeps every raw reply and
every problem found, so an unscored sample still shows exactly what the judge
said and why it could not be used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
)

from debatebench_eval.core.errors import call_failure
from debatebench_eval.judging.options import JsonModeRefused, judge_config, resolve_json_mode
from debatebench_eval.servers.calls import without_reasoning
from debatebench_eval.servers.kind import server_kind
from debatebench_eval.servers.schema_forms import server_schema

T = TypeVar("T")
Check = Callable[[Any], tuple[T | None, list[str]]]
# How one call is made: (model, messages, config) -> output; `model.generate` by default.
Generator = Callable[[Model, list[ChatMessage], GenerateConfig], Awaitable[ModelOutput]]

_FENCE = re.compile(r"^```[a-zA-Z]*\s*\n?(.*?)\n?```$", re.DOTALL)


@dataclass
class Exchange(Generic[T]):
    """One structured request to one model, with its repair if one was needed."""

    model: str
    replies: list[str] = field(default_factory=list)
    problems: list[list[str]] = field(default_factory=list)
    result: T | None = None
    error: str | None = None
    # The JSON mode the calls were made in (judging.options.JSON_MODES).
    json_mode: str | None = None
    # Each reply's output (usage, stop reason), for callers that record the
    # call's cost or as a turn; not part of `record()`, so scores are unchanged.
    outputs: list[ModelOutput] = field(default_factory=list, repr=False)

    @property
    def repairs(self) -> int:
        return max(len(self.replies) - 1, 0)

    @property
    def failure(self) -> str | None:
        """Why there is no result, in one line (None when there is one)."""
        if self.result is not None:
            return None
        if self.error is not None:
            return f"{self.model}: the call failed: {self.error}"
        last = self.problems[-1] if self.problems else ["no reply"]
        return f"{self.model}: unusable reply after {self.repairs} repair(s): " + "; ".join(last)

    def record(self) -> dict[str, Any]:
        """What goes into score metadata (raw replies and problems, never the parse)."""
        return {
            "model": self.model,
            "replies": self.replies,
            "problems": self.problems,
            "repairs": self.repairs,
            "error": self.error,
            "json_mode": self.json_mode,
        }


def parse_json_reply(text: str, stop_reason: str = "stop") -> tuple[Any, list[str]]:
    """The JSON value in a reply, tolerating reasoning and a code fence around it."""
    body = without_reasoning(text).strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    if not body:
        return None, ["the reply is empty"]
    try:
        return json.loads(body), []
    except json.JSONDecodeError:
        pass  # maybe prose around an object: try the outermost braces
    start, end = body.find("{"), body.rfind("}")
    candidate = body[start : end + 1] if 0 <= start < end else body
    try:
        return json.loads(candidate), []
    except json.JSONDecodeError as exc:
        cut = " (the reply was cut off at the token budget)" if stop_reason == "max_tokens" else ""
        return None, [f"the reply is not valid JSON: {exc.msg} at character {exc.pos}{cut}"]


# What to change when a judge request does not fit the context, unless a task says.
JUDGE_BUDGET_HINT = "lower -T judge_budget"


async def ask_json(
    model: Model,
    messages: list[ChatMessage],
    config: GenerateConfig,
    check: Check[T],
    repair_template: str,
    repairs: int = 1,
    generate: Generator | None = None,
    too_long_hint: str = JUDGE_BUDGET_HINT,
    who: str = "judge",
) -> Exchange[T]:
    """Generate, parse and check; on problems re-ask up to `repairs` times.

    A failed call (server down, timeout after Inspect's own retries) ends the
    exchange with its error instead of raising, so the debate already recorded
    in the sample is kept and can be re-judged later with `inspect score`.
    `generate` makes each call instead of `model.generate` (a caller that caches
    only what passed its check, say). `too_long_hint` says what to change when the
    request does not fit the context: the options that size it differ per task;
    `who` is whose call it is, as that message names it (a judge, a debater).
    """
    exchange: Exchange[T] = Exchange(model=str(model))
    conversation = list(messages)
    for attempt in range(repairs + 1):
        try:
            if generate is None:
                output = await model.generate(conversation, config=config)
            else:
                output = await generate(model, conversation, config)
        except Exception as exc:  # any provider error ends this judge's turn
            exchange.error = call_failure(exc) + _format_hint(call_failure(exc))
            return exchange
        text = output.completion
        exchange.replies.append(text)
        exchange.outputs.append(output)
        if output.stop_reason == "model_length":
            # The server refused the request as too long (Inspect passes its words
            # on as the reply); a repair would be longer still.
            exchange.error = (
                f"the prompt and the {who} budget do not fit the {who}'s context window "
                f"(the server said: {' '.join(text.split())[:240]}); {too_long_hint}"
            )
            return exchange
        value, problems = parse_json_reply(text, output.stop_reason)
        if not problems:
            result, problems = check(value)
            if not problems:
                exchange.problems.append([])
                exchange.result = result
                return exchange
        exchange.problems.append(problems)
        if attempt < repairs:
            listed = "\n".join(f"- {problem}" for problem in problems)
            conversation += [
                ChatMessageAssistant(content=text),
                ChatMessageUser(content=repair_template.format(problems=listed)),
            ]
    return exchange


def _format_hint(failure: str) -> str:
    """What to change when a server refused the reply format it was sent."""
    if "response_format" not in failure:
        return ""
    return (
        "; the server refused the reply format: set -T judge_schema=object "
        "(llama.cpp servers) or -T judge_schema=false (the prompt alone)"
    )


async def ask_judge(
    judge: Model,
    messages: list[ChatMessage],
    *,
    budget: int,
    seed: int,
    schema: dict[str, Any],
    name: str,
    mode: str,
    check: Check[T],
    repair_template: str,
    extra: GenerateConfig | None = None,
    generate: Generator | None = None,
    too_long_hint: str = JUDGE_BUDGET_HINT,
    who: str = "judge",
) -> Exchange[T]:
    """One judge's structured request: its JSON mode settled for its server first
    (`auto` asks the server), then `ask_json`. The schema goes in the strongest form
    the judge's server enforces (`servers.schema_forms`). A mode the server is known
    to refuse ends the exchange before any call, with the reason. `extra` settings
    (a cache policy, say) are merged over the judge's own; `generate`,
    `too_long_hint` and `who`, as in `ask_json`."""
    try:
        resolved = await resolve_json_mode(judge, mode)
    except JsonModeRefused as exc:
        return Exchange(model=str(judge), error=str(exc), json_mode=mode)
    kind = await server_kind(judge)
    sent = server_schema(schema, kind) if resolved != "false" else schema
    config = judge_config(judge, budget, seed, sent, name, resolved, kind)
    if extra is not None:
        config = config.merge(extra)
    exchange = await ask_json(
        judge, messages, config, check, repair_template, generate=generate,
        too_long_hint=too_long_hint, who=who,
    )  # fmt: skip
    exchange.json_mode = resolved
    return exchange
