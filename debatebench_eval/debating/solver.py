"""The debate solver: walks the configured phases and records every turn.

The loop is thin on purpose: who speaks when comes from `protocol`, what they
are shown from `prompts`, and each turn's bookkeeping from `speech`. The
solver only wires them to Inspect (models by role, spans, the store, the chat
messages the viewer shows).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from debatebench_eval.core._inspect import active_generate_config
from debatebench_eval.core.errors import DebateError
from debatebench_eval.core.seeds import sample_seed
from debatebench_eval.debating.config import DebateSettings
from debatebench_eval.debating.context_plan import DebatePlan, JudgedCalls, check_debate_fits
from debatebench_eval.debating.pairing import check_twin_selected
from debatebench_eval.debating.prompts import phase_prompt
from debatebench_eval.debating.speech import Speaker, speak, speaker_label, turn_budget
from debatebench_eval.judging.gate import (
    check_quorum,
    debaters,
    family_clashes,
    guard,
    judge_trust,
)
from debatebench_eval.judging.options import JUDGE_ROLE, JudgingOptions, judge_models
from debatebench_eval.prep.citations import with_citations
from debatebench_eval.prep.pools import Pools, gather
from debatebench_eval.record.display import evidence_heading, transcript_markdown, turn_heading
from debatebench_eval.record.motions import Motion
from debatebench_eval.record.protocol import SIDES, Phase, Side, speaking_order
from debatebench_eval.record.store import (
    REASONING_BUDGETS_KEY,
    DebateRecord,
    Passage,
    RunSettings,
    SideSettings,
    Turn,
    turn_id,
)
from debatebench_eval.servers.probe import model_base_url
from debatebench_eval.servers.role_models import probe_models, role_model


def _speakers(settings: DebateSettings, swapped: bool) -> dict[Side, Speaker]:
    """Each side's model, team and budget. In a swapped sample each role
    (with its budget) argues the other side; teams stay with their side."""
    speakers: dict[Side, Speaker] = {}
    main = get_model()  # once: each get_model() builds and dumps a GenerateConfig
    for side in SIDES:
        role = ("con" if side == "pro" else "pro") if swapped else side
        # Bound explicitly (the main model when no --model-role names it), so every
        # call is attributed to its role in the log's usage.
        model = role_model(role, default=main)
        speakers[side] = Speaker(
            side=side,
            role=role,
            model=model,
            team=settings.teams[side],
            budget=settings.budgets[role],
            context_window=settings.context_window,
            reasoning_budget=settings.reasoning_budgets.get(role),
        )
    return speakers


def reasoning_metadata(speakers: dict[Side, Speaker]) -> dict[str, dict[str, int | None]]:
    """The sample's reasoning budgets by side, when any side has one (else nothing, so
    the metadata of a run without them is what it was)."""
    budgets: dict[str, int | None] = {side: sp.reasoning_budget for side, sp in speakers.items()}
    if all(budget is None for budget in budgets.values()):
        return {}
    return {REASONING_BUDGETS_KEY: budgets}


def _run_settings(
    state: TaskState,
    settings: DebateSettings,
    speakers: dict[Side, Speaker],
    seed: tuple[int, str],
    orders: list[tuple[Side, Side]],
) -> RunSettings:
    meta = state.metadata
    return RunSettings(
        motion_id=meta["motion_id"],
        motion=meta["motion"],
        topic=meta["topic"],
        phases=[str(phase) for phase in settings.phases],
        initiative=[first for first, _ in orders],
        seed=seed[0],
        seed_source=seed[1],
        paired=settings.paired,
        pair_id=meta.get("pair_id"),
        swapped=bool(meta.get("swapped")),
        sides=[
            SideSettings(
                side=side,
                role=sp.role,
                model=str(sp.model),
                base_url=model_base_url(sp.model),
                budget=sp.budget,
                prep_budget=settings.prep_budgets.get(sp.role),
                reasoning_budget=sp.reasoning_budget,
                team=sp.team.snapshot(),
                team_file=sp.team.file,
            )
            for side, sp in speakers.items()
        ],
    )


@solver
def debate_solver(
    settings: DebateSettings,
    pools: Pools | None = None,
    pairing: str | None = None,
    judged: JudgedCalls | None = None,
) -> Solver:
    """Run one complete debate per sample and record it in the DebateRecord store.

    Args:
        settings: The validated run settings (phases, teams, budgets, seeds).
        pools: The opened evidence pools, when the phases include prep.
        pairing: The paired run's token (debate.pairing): a half whose twin the run
            left out is refused before any model call.
        judged: The judging settings and what the scorers will ask of each debate.
            Before any model call: a judge panel below the quorum is refused, and so
            are (with `strict_judge`) a judge that also debates and (with
            `require_validated_judge`) a judge without a passing validation record;
            the judges' calls are checked against the context with the turns'.
    """
    options = judged.options if judged is not None else JudgingOptions()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if pairing is not None:
            meta = state.metadata
            check_twin_selected(
                pairing, str(state.sample_id), meta["pair_id"], bool(meta["swapped"])
            )
        speakers = _speakers(settings, swapped=bool(state.metadata.get("swapped")))
        judges = judge_models()
        check_quorum(judges, options.judge_quorum)
        if settings.probe:
            # The judges too: a judge server that is down would otherwise be found
            # only after every debate has been spoken.
            await probe_models(
                [(s.model, s.role) for s in speakers.values()]
                + [(judge, JUDGE_ROLE) for judge in judges]
            )
        # Inspect's --seed (a run.yaml's seed when none is given), as its --timeout.
        run_config = active_generate_config()
        base = settings.seed if run_config.seed is None else run_config.seed
        seed = sample_seed(base, state.sample_id, state.epoch)
        orders = speaking_order(settings.phases)
        record = state.store_as(DebateRecord)
        # The debate is kept here and written to the store once per turn: every
        # read of a store field re-validates it (Inspect builds a TypeAdapter per
        # read), a cost paid on every model call if the loop read the store.
        run = _run_settings(state, settings, speakers, seed, orders)
        record.run = run
        state.metadata.update(run.model_dump(exclude={"sides"}))
        state.metadata.update(reasoning_metadata(speakers))
        if options.strict_judge:
            guard(judges, record, strict=options.strict_judge)
        for kin in family_clashes(judges, debaters(record)):
            # Said before any debater speaks; the score carries it too.
            transcript().info(f"Judge family: {kin}.", source="debatebench")
        if options.require_validated_judge or options.require_human_kappa is not None:
            await judge_trust(judges, options.require_validated_judge, options.require_human_kappa)
        passages: list[Passage] = []
        if pools is not None:
            passages = _prep_evidence(pools, state)
            record.passages = passages
            state.messages += [
                ChatMessageUser(content=evidence_heading(side, passages)) for side in SIDES
            ]
        plan = DebatePlan(settings, speakers, orders, run, passages, state.sample_id, state.epoch)
        await check_debate_fits(plan, judges, judged, run_config.timeout or settings.timeout)
        turns: list[Turn] = []
        for phase_index, (phase, order) in enumerate(zip(settings.phases, orders, strict=True)):
            async with span(f"{phase_index + 1}. {phase}", type="phase"):
                for position, side in enumerate(order):
                    async with span(speaker_label(speakers[side]), type="turn"):
                        turn = await _take_turn(
                            state,
                            Debate(run, turns, passages),
                            speakers[side],
                            phase,
                            phase_index,
                            position,
                            seed[0],
                            settings,
                        )
                    turns.append(turn)
                    # In the store at once: a debate that fails later keeps its turns.
                    record.turns = list(turns)
                    state.messages.append(
                        ChatMessageAssistant(
                            content=turn_heading(turn) + "\n\n" + turn.text, model=turn.model
                        )
                    )
        _check_complete(turns, settings.phases)
        record.complete = True
        state.output = ModelOutput.from_content(model="debate", content=transcript_markdown(turns))
        return state

    return solve


@dataclass(frozen=True)
class Debate:
    """The debate so far, as the solver holds it between turns."""

    run: RunSettings
    turns: list[Turn]
    passages: list[Passage]


async def _take_turn(
    state: TaskState,
    debate: Debate,
    speaker: Speaker,
    phase: Phase,
    phase_index: int,
    position: int,
    seed: int,
    settings: DebateSettings,
) -> Turn:
    prep_budget = settings.prep_budgets.get(speaker.role)
    turn = await speak(
        speaker,
        phase=phase,
        phase_index=phase_index,
        order=position,
        motion=debate.run.motion,
        prompt=phase_prompt(phase, debate.turns, speaker.side, debate.passages),
        budget=turn_budget(speaker, phase, prep_budget),
        seed=seed,
        retries=settings.empty_retries,
        turn_id=turn_id(state.sample_id, state.epoch, phase_index, speaker.side),
    )
    return with_citations(turn, debate.passages) if debate.passages else turn


def _prep_evidence(pools: Pools, state: TaskState) -> list[Passage]:
    """Both sides' passages, numbered P1 upward (pro's first); a side with none fails the sample."""
    meta = state.metadata
    motion = Motion(id=meta["motion_id"], text=meta["motion"], topic=meta["topic"])
    passages: list[Passage] = []
    for side in SIDES:
        found = gather(pools, motion, side, first_number=len(passages) + 1)
        if not found:
            raise DebateError(
                f"prep: no evidence for the {side} side on topic {motion.topic!r} in "
                f"{pools}; a debate is not argued from nothing"
            )
        passages += found
    return passages


def _check_complete(turns: list[Turn], phases: tuple[Phase, ...]) -> None:
    """The hard invariant: every phase has a turn from every side."""
    spoken = {(turn.phase_index, turn.side) for turn in turns}
    for phase_index, phase in enumerate(phases):
        for side in SIDES:
            if (phase_index, side) not in spoken:
                raise DebateError(
                    f"phase {phase_index} ({phase}), side {side}: no turn was recorded"
                )
