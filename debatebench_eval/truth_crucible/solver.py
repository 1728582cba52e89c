"""The crucible solver: one topic's debate, stage by stage, into the CrucibleRecord store.

Thin on purpose: the stages' calls are in `stages`, the rules in their own
modules. Here: the models by role, the seed, the gates (before any model
call), one span per stage, the record's stage marker, and a headed message
per stage for the viewer, said by its actor (a side, the judge). A claim that
lost all its evidence stays in the record and takes no part in conflicts,
rounds or scoring; a side left with no verified claim ends the debate before
the conflicts (the score then says so).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from typing import Any

from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageUser,
    Model,
    ModelOutput,
    get_model,
    model_roles,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from debatebench_eval.core._inspect import active_generate_config
from debatebench_eval.core.seeds import sample_seed
from debatebench_eval.judging.gate import guard_debaters, judge_trust
from debatebench_eval.judging.options import judge_models
from debatebench_eval.servers.probe import model_base_url
from debatebench_eval.servers.role_models import probe_models, role_model
from debatebench_eval.truth_crucible import display
from debatebench_eval.truth_crucible.calls import Caller
from debatebench_eval.truth_crucible.context_plan import check_crucible_fits
from debatebench_eval.truth_crucible.convergence import should_stop
from debatebench_eval.truth_crucible.corpus import Corpus
from debatebench_eval.truth_crucible.options import DebateOptions, ScoringOptions
from debatebench_eval.truth_crucible.record import SIDES, CrucibleRecord, CrucibleRun
from debatebench_eval.truth_crucible.resume import ResumeCache
from debatebench_eval.truth_crucible.rounds import SWAP, round_plan
from debatebench_eval.truth_crucible.stages import Session

META_JUDGE_ROLE = "meta_judge"
# Who says a stage message that no side says.
JUDGE_ACTOR = "judge"
CRUCIBLE_ACTOR = "crucible"


def side_models() -> dict[str, Model]:
    """Each side's model: its role's, else the main model bound to the role (as in a
    debate), so every call is attributed to its side in the log's usage."""
    models = {}
    for side in SIDES:
        models[side] = role_model(side)
    return models


def meta_judge_model(judges: list[Model]) -> Model:
    """The meta_judge role's model, else the first judge bound to the role (so the
    audit's calls are attributed to the meta-judge in the log's usage)."""
    return get_model(role=META_JUDGE_ROLE, default=judges[0])


def scoring_models(judges: list[Model], meta_judge: bool) -> list[Model]:
    """Every model whose judgment a score uses, each held to the judges' gates: the
    judges and, with the audit on and its own role bound, the meta-judge (unbound, it
    is the first judge, already among them)."""
    if meta_judge and model_roles().get(META_JUDGE_ROLE) is not None:
        return [*judges, meta_judge_model(judges)]
    return judges


def _distinct(models: list[Model]) -> list[Model]:
    """Each model once (the meta-judge is the first judge unless its role is bound)."""
    return list({id(model): model for model in models}.values())


def _server(model: Model) -> dict[str, Any]:
    return {"model": str(model), "base_url": model_base_url(model)}


def crucible_seed(
    base: int | None, sample_id: str | int, epoch: int, topic_sha: str, corpus_sha: str
) -> tuple[int, str]:
    """The sample's seed: from Inspect's --seed when given, else from the topic's content,
    so an `eval-retry` of a crashed topic asks the same calls and finds them cached
    (only a resume of the same run finds them: `resume.ResumeCache`)."""
    if base is not None:
        return sample_seed(base, sample_id, epoch)
    digest = hashlib.sha256(f"{topic_sha}:{corpus_sha}:{epoch}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 2**31, "derived from the topic and corpus content"


@dataclass(frozen=True)
class TopicRun:
    """One topic's opened corpus and its checked options (-T over the topic file's)."""

    corpus: Corpus
    options: DebateOptions
    scoring: ScoringOptions


@solver
def crucible_solver(runs: dict[str, TopicRun]) -> Solver:
    """Run one topic's crucible debate per sample into the CrucibleRecord store.

    Args:
        runs: Each sample's corpus and options, by sample id.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        run = runs[str(state.sample_id)]
        corpus, options, scoring = run.corpus, run.options, run.scoring
        sides, judges = side_models(), judge_models()
        meta = meta_judge_model(judges)
        _gates_before_calls(sides, judges, scoring)
        await _gate_trust(judges, scoring)
        if options.probe:
            await probe_models(
                [
                    *((model, side) for side, model in sides.items()),
                    *((j, "judge") for j in judges),
                    (meta, META_JUDGE_ROLE),
                ]
            )
        crucible_run = _run(state, run, sides, judges, meta)
        await check_crucible_fits(crucible_run, sides, _distinct([*judges, meta]), options, scoring)
        record = state.store_as(CrucibleRecord)
        record.run = crucible_run
        seed = record.run.seed
        cache = None
        if options.resume_cache:
            cache = ResumeCache.for_sample(
                str(state.sample_id), state.epoch, record.run.topic_sha256, seed
            )
        session = Session(
            record=record,
            corpus=corpus,
            options=options,
            scoring=scoring,
            sides=sides,
            judge=judges[0],
            seed=seed,
            caller=Caller(scoring.judge_schema, cache, record),
        )
        state.metadata.update(
            question=record.run.question, seed=seed, seed_source=record.run.seed_source
        )
        await _debate(state, session)
        return state

    return solve


def _gates_before_calls(
    sides: dict[str, Model], judges: list[Model], scoring: ScoringOptions
) -> None:
    if scoring.strict_judge:
        rows = [(side, str(m), model_base_url(m)) for side, m in sides.items()]
        guard_debaters(scoring_models(judges, scoring.meta_judge), rows, scoring.strict_judge)


async def _gate_trust(judges: list[Model], scoring: ScoringOptions) -> None:
    if scoring.require_validated_judge or scoring.require_human_kappa is not None:
        gated = scoring_models(judges, scoring.meta_judge)
        await judge_trust(gated, scoring.require_validated_judge, scoring.require_human_kappa)


def _run(
    state: TaskState, run: TopicRun, sides: dict[str, Model], judges: list[Model], meta: Model
) -> CrucibleRun:
    from debatebench_eval.prep.index import CJK_FOLD

    corpus, options, scoring = run.corpus, run.options, run.scoring
    topic = corpus.topic
    topic_sha = hashlib.sha256(topic.file.read_bytes()).hexdigest()
    seed = crucible_seed(
        active_generate_config().seed,  # Inspect's --seed; none: from the content
        state.sample_id,
        state.epoch,
        topic_sha,
        corpus.sha256,
    )
    return CrucibleRun(
        topic_file=str(topic.file),
        topic_sha256=topic_sha,
        corpus_sha256=corpus.sha256,
        classes=dict(topic.classes),
        corpus=corpus.summary(),
        manifest=corpus.manifest(),
        question=topic.question,
        pro_position=topic.pro_position,
        con_position=topic.con_position,
        question_original=topic.question,
        pro_position_original=topic.pro_position,
        con_position_original=topic.con_position,
        context=topic.context,
        options={**asdict(options), "scoring": scoring.as_dict()},
        seed=seed[0],
        seed_source=seed[1],
        models={
            **{s: _server(m) for s, m in sides.items()},
            "judges": [_server(j) for j in judges],
            META_JUDGE_ROLE: _server(meta),
        },
        analyzer=CJK_FOLD,
    )


async def _debate(state: TaskState, session: Session) -> None:
    record = session.record
    if session.options.neutralize != "off":
        async with span("neutralise", type="stage"):
            await _neutralize(state, session)
    async with span("propose", type="stage"):
        searches, claims = await session.propose()
        record.searches, record.claims = searches, claims
        record.stage = "proposed"
        for side in SIDES:
            filed = [c for c in claims if c.side == side]
            say(state, display.claims_message(side, filed), side_actor(side), session.sides[side])
    empty = [side for side in SIDES if not record.verified(side)]
    if empty:
        record.skipped = (
            f"no conflicts or rounds: the {' and '.join(empty)} side had no claim "
            "with verified evidence"
        )
        say(state, f"### Debate ends after the claims\n\n{record.skipped}", CRUCIBLE_ACTOR)
    else:
        async with span("conflicts", type="stage"):
            record.conflicts, record.conflicts_note = await session.conflicts()
            record.stage = "conflicts"
            conflicts = display.conflicts_message(record.conflicts, record.conflicts_note)
            say(state, conflicts, JUDGE_ACTOR, session.judge)
        await _rounds(state, session)
    record.stage, record.complete = "complete", True
    state.output = ModelOutput.from_content(model="crucible", content=_summary(record))


async def _neutralize(state: TaskState, session: Session) -> None:
    record = session.record
    assert record.run is not None
    diagnosis = await session.neutralize()
    record.neutralization = diagnosis
    if diagnosis.applied:
        record.run = record.run.model_copy(
            update={
                "question": diagnosis.neutral_question,
                "pro_position": diagnosis.neutral_pro_position,
                "con_position": diagnosis.neutral_con_position,
            }
        )
        state.metadata["question"] = diagnosis.neutral_question
    record.stage = "neutralized"
    say(
        state,
        display.neutral_message(diagnosis, record.run.question_original),
        JUDGE_ACTOR,
        session.judge,
    )


async def _rounds(state: TaskState, session: Session) -> None:
    record, options = session.record, session.options
    for number in range(1, options.rounds + 1):
        stop = await _round(state, session, number, swap=False)
        if stop:
            record.stopped_early, record.stop_round = True, number
            return
    if options.position_swap:
        await _round(state, session, options.rounds + 1, swap=True)


async def _round(state: TaskState, session: Session, number: int, swap: bool) -> bool:
    record = session.record
    name = "swap round" if swap else f"round {number}"
    async with span(name, type="stage"):
        turns = []
        for plan in round_plan(number, session.options.steelman, swap=swap):
            turn = await session.turn(plan)
            record.turns = [*record.turns, turn]
            turns.append(turn)
            say(state, display.turn_message(turn), side_actor(turn.side), turn.model)
        review = await session.review(number, SWAP if swap else "round", turns)
        record.reviews = [*record.reviews, review]
        record.stage = SWAP if swap else f"round-{number}"
        stop = not swap and should_stop(review.convergence, session.options.early_stop)
        say(state, display.review_message(review, stop), JUDGE_ACTOR, session.judge)
        return stop


def side_actor(side: str) -> str:
    return f"{side.upper()} side"


def say(state: TaskState, text: str, actor: str, model: Model | str | None = None) -> None:
    """One stage's message, said by `actor` (a side, the judge, or the crucible
    itself for a note). Inspect's viewer heads a message with its role and shows
    its metadata beneath it: a model's message is the assistant's, its actor and
    model in the metadata; only the crucible's own notes are the user's."""
    if model is None:
        state.messages.append(ChatMessageUser(content=text, metadata={"actor": actor}))
        return
    name = str(model)
    state.messages.append(
        ChatMessageAssistant(content=text, model=name, metadata={"actor": actor, "model": name})
    )


def _summary(record: CrucibleRecord) -> str:
    counts = ", ".join(
        f"{s.upper()} {len(record.verified(s))}/"
        f"{sum(c.side == s for c in record.claims)} claims verified"
        for s in SIDES
    )
    rounds = sum(r.kind == "round" for r in record.reviews)
    early = f", stopped early after round {record.stop_round}" if record.stopped_early else ""
    return f"{counts}; {len(record.conflicts)} conflicts; {rounds} round(s){early}."
