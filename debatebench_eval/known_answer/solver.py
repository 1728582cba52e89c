"""The known-answer solver: the protocol's speeches, recorded for the judge.

Thin on purpose: what each party is shown comes from `prompts`, who defends
what from `assignment` (drawn when the task was built), quotes are checked by
`quotes`, and each speech is one budgeted call through `servers.replies` (the
debate's turn machinery: max_tokens per call, empty replies retried, the
budget checked). The judge answers in the scorer (`verdict`), as the rubric
judges a debate, so a saved log can be judged again by another judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, Model, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from debatebench_eval.core._inspect import active_generate_config
from debatebench_eval.core.errors import DebateError
from debatebench_eval.core.seeds import sample_seed
from debatebench_eval.judging.options import JUDGE_ROLE, judge_models
from debatebench_eval.known_answer.assignment import CONSULTANT, DEBATERS, assignments, open_sides
from debatebench_eval.known_answer.beliefs import belief_after, stop_reason
from debatebench_eval.known_answer.orders import OversightJudging
from debatebench_eval.known_answer.prompts import (
    Shown,
    choice_prompt,
    judge_question_prompt,
    speaker_prompt,
)
from debatebench_eval.known_answer.questions import Question
from debatebench_eval.known_answer.quotes import check_quotes, judge_view
from debatebench_eval.known_answer.record import Belief, OversightRecord, QuoteRecord, Speech
from debatebench_eval.known_answer.replies import Choice
from debatebench_eval.known_answer.verdict import ask_structured
from debatebench_eval.record.store import turn_usage
from debatebench_eval.servers.probe import model_base_url
from debatebench_eval.servers.replies import generate_reply
from debatebench_eval.servers.role_models import probe_models, role_model

# The judge's question between consultancy rounds is short.
QUESTION_BUDGET = 200


@dataclass(frozen=True)
class Setup:
    """The task's settings, checked when it was built."""

    protocol: str
    questions: dict[str, Question]
    rounds: int
    sequential: bool
    interactive: bool
    budget: int
    judge: OversightJudging
    empty_retries: int
    probe: bool
    # Each question twice, the second time (metadata `swapped`) with the `pro` and `con`
    # models exchanged between the positions.
    paired: bool = False
    # The judge states its belief after every round (one call per judge per order read).
    judge_each_round: bool = False
    # End the speeches once the judge's belief in its pick reaches this (implies
    # `judge_each_round`); None: every round is spoken.
    stop_when_confident: float | None = None
    # Each question's draw per base seed: every sample of a run reads the same draw,
    # balanced over the whole set (assignment.py).
    draws: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict, compare=False)

    def draw(self, seed: int) -> dict[str, dict[str, Any]]:
        """Who defends what and the answers' order, for every question, from `seed`."""
        if seed not in self.draws:
            found = tuple(self.questions.values())
            self.draws[seed] = {
                m["question_id"]: m for m in assignments(found, self.protocol, seed)
            }
        return self.draws[seed]


@dataclass
class Sample:
    """One sample as the solver holds it between calls."""

    shown: Shown
    seed: int
    speeches: list[Speech]
    state: TaskState


@solver
def oversight_solver(setup: Setup) -> Solver:
    """Run one known-answer sample: the protocol's speeches (the judge answers in the scorer).

    Args:
        setup: The task's checked settings.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        # Inspect's --seed draws the sides (seed 0 when none is given, so the
        # assignment repeats) and each sample's call seed (drawn when none is given).
        base = active_generate_config().seed
        meta = state.metadata
        meta.update(setup.draw(base or 0)[meta["question_id"]])
        question = setup.questions[meta["question_id"]]
        order = meta["answer_order"]
        seed = sample_seed(base, state.sample_id, state.epoch)[0]
        sample = Sample(Shown(question, (order[0], order[1])), seed, [], state)
        main = get_model()
        speakers = _speakers(setup.protocol, bool(meta.get("swapped")), main)
        judges = judge_models()
        if setup.probe:
            await probe_models(
                [(m, r) for r, m in speakers.items()] + [(j, JUDGE_ROLE) for j in judges]
            )
        record = state.store_as(OversightRecord)
        _record_question(record, setup, sample, meta["correct_label"])
        record.speakers = [(r, str(m), model_base_url(m)) for r, m in speakers.items()]
        sides = dict(meta["assignment"])
        if setup.protocol == "open":
            choices = {
                role: await _choose(setup, sample, role, speakers[role]) for role in DEBATERS
            }
            record.choices = choices
            meta["choices"] = choices
            sides = open_sides(choices)
            meta["assignment"] = sides
        record.assignment = sides
        record.rounds_planned = setup.rounds if sides else None
        if sides:
            await _rounds(setup, sample, speakers, sides, judges, record)
        record.complete = True
        state.output = ModelOutput.from_content(
            model="oversight", content=f"{len(sample.speeches)} speech(es); the judge answers next"
        )
        return state

    return solve


def _record_question(
    record: OversightRecord, setup: Setup, sample: Sample, correct_label: str
) -> None:
    """What the judge will read, kept whole: the evidence only for `expert`."""
    shown = sample.shown
    record.protocol = setup.protocol
    record.question = shown.question.question
    record.answers = [shown.answer("A"), shown.answer("B")]
    record.correct_label = correct_label
    record.seed = sample.seed
    if setup.protocol == "expert":
        record.judge_evidence = shown.question.evidence


def _speakers(protocol: str, swapped: bool, main: Model) -> dict[str, Model]:
    """Each speaking position's model: its own role's, or in a swapped sample of a
    paired run the other debater's (the record names the model in each position)."""

    def role(position: str) -> str:
        return ("con" if position == "pro" else "pro") if swapped else position

    return {p: role_model(role(p), default=main) for p in _roles(protocol)}


def _roles(protocol: str) -> tuple[str, ...]:
    if protocol in ("debate", "open"):
        return DEBATERS
    return (CONSULTANT,) if protocol == "consultancy" else ()


async def _choose(setup: Setup, sample: Sample, role: str, model: Model) -> str:
    """An open debater's choice of answer (a failed reply fails the sample, naming it)."""
    prompt = choice_prompt(sample.shown)
    exchange = await ask_structured(model, prompt, Choice, setup.judge, sample.seed, "debater")
    if exchange.result is None:
        raise DebateError(f"open debate, {role} ({model}): no usable choice: {exchange.failure}")
    return exchange.result.answer


async def _rounds(
    setup: Setup,
    sample: Sample,
    speakers: dict[str, Model],
    sides: dict[str, str],
    judges: list[Model],
    record: OversightRecord,
) -> None:
    """The speeches, round by round. Debate rounds are simultaneous unless `sequential`
    (then the second speaker reads the first's speech, and the first speaker alternates
    so no debater keeps the last word); a consultancy judge asks between rounds when
    `interactive`. With `judge_each_round` the judge states its belief after every round
    but the last (the scorer's verdict is that one); with `stop_when_confident` the
    speeches end once that belief is sure enough, the reason recorded."""
    for number in range(1, setup.rounds + 1):
        async with span(f"round {number}", type="round"):
            heard = list(sample.speeches)
            order = list(sides) if number % 2 else list(reversed(sides))
            for role in order:
                seen = sample.speeches if setup.sequential else heard
                speech = await _speak(
                    setup, sample, role, speakers[role], sides[role], seen, number
                )
                sample.speeches.append(speech)
                record.speeches = list(sample.speeches)
            if setup.interactive and number < setup.rounds:
                sample.speeches.append(await _ask(setup, sample, judges[0], number))
                record.speeches = list(sample.speeches)
        if number < setup.rounds and await _judged_enough(setup, sample, judges, record, number):
            return


async def _judged_enough(
    setup: Setup, sample: Sample, judges: list[Model], record: OversightRecord, number: int
) -> bool:
    """The judge's belief after round `number`, recorded; whether the speeches end here."""
    if not (setup.judge_each_round or setup.stop_when_confident is not None):
        return False
    async with span(f"judge after round {number}", type="belief"):
        belief = await belief_after(record, judges, setup.judge, number)
    record.beliefs = [*record.beliefs, belief]
    sample.state.messages.append(ChatMessageUser(content=_belief_line(belief)))
    record.stopped = stop_reason(belief, setup.stop_when_confident, setup.rounds)
    return record.stopped is not None


def _belief_line(belief: Belief) -> str:
    p = "no usable reply" if belief.p_correct is None else f"p_correct {belief.p_correct:.2f}"
    return f"## The judge's belief after round {belief.round}\n\npick {belief.pick}, {p}"


async def _speak(
    setup: Setup,
    sample: Sample,
    role: str,
    model: Model,
    label: str,
    seen: list[Speech],
    number: int,
) -> Speech:
    prompt = speaker_prompt(
        sample.shown, role, label, list(seen), number, setup.rounds, setup.budget
    )
    reply = await generate_reply(
        model,
        [ChatMessageUser(content=prompt)],
        budget=setup.budget,
        seed=sample.seed,
        retries=setup.empty_retries,
        where=f"round {number}, {role} ({model})",
    )
    evidence = sample.shown.question.evidence
    checks = check_quotes(reply.text, evidence)
    speech = Speech(
        round=number,
        role=role,
        defends=label,
        text=reply.text,
        shown=judge_view(reply.text, evidence),
        quotes=[QuoteRecord(text=c.text, verified=c.verified, how=c.how) for c in checks],
        model=reply.output.model or str(model),
        usage=turn_usage(reply.output),
        budget=setup.budget,
        hit_budget=reply.output.stop_reason == "max_tokens",
    )
    verified = sum(c.verified for c in checks)
    heading = f"## Round {number}: {role} for {label} ({verified}/{len(checks)} quotes verified)"
    sample.state.messages.append(ChatMessageAssistant(content=f"{heading}\n\n{speech.shown}"))
    return speech


async def _ask(setup: Setup, sample: Sample, judge: Model, number: int) -> Speech:
    prompt = judge_question_prompt(sample.shown, sample.speeches)
    reply = await generate_reply(
        judge,
        [ChatMessageUser(content=prompt)],
        budget=QUESTION_BUDGET,
        seed=sample.seed,
        retries=setup.empty_retries,
        where=f"round {number}, the judge's question ({judge})",
    )
    sample.state.messages.append(
        ChatMessageUser(content=f"## The judge asks (after round {number})\n\n{reply.text}")
    )
    return Speech(
        round=number,
        role="judge",
        text=reply.text,
        shown=reply.text,
        model=reply.output.model or str(judge),
        usage=turn_usage(reply.output),
        budget=QUESTION_BUDGET,
        hit_budget=reply.output.stop_reason == "max_tokens",
    )
