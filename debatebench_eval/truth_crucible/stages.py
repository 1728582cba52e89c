"""The debate's stages, each a few model calls: neutralise, propose, conflicts, turns, reviews.

A `Session` holds one sample's models, options and record; each stage asks
its calls through `calls.Caller` (structured, repaired once, cached) and
returns what the record keeps. What is asked and how replies are checked live
in the rule modules (claims, conflicts, rounds, convergence, neutralize).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model

from debatebench_eval.truth_crucible import claims as claim_rules
from debatebench_eval.truth_crucible import conflicts as conflict_rules
from debatebench_eval.truth_crucible import convergence as review_rules
from debatebench_eval.truth_crucible import neutralize as neutral_rules
from debatebench_eval.truth_crucible import rounds as round_rules
from debatebench_eval.truth_crucible.blindview import BlindView, reading_seed
from debatebench_eval.truth_crucible.calls import Caller, Request
from debatebench_eval.truth_crucible.corpus import Corpus
from debatebench_eval.truth_crucible.options import DebateOptions, ScoringOptions
from debatebench_eval.truth_crucible.prompts import judge_prompts, side_prompts, side_system
from debatebench_eval.truth_crucible.record import (
    Claim,
    Conflict,
    CrucibleRecord,
    CrucibleRun,
    CrucibleTurn,
    Diagnosis,
    RoundReview,
    Search,
)
from debatebench_eval.truth_crucible.search import render, search, side_queries


@dataclass
class Session:
    record: CrucibleRecord
    corpus: Corpus
    options: DebateOptions
    scoring: ScoringOptions
    sides: dict[str, Model]
    judge: Model  # the first judge: neutralisation, conflicts, reviews
    caller: Caller
    seed: int

    @property
    def run(self) -> CrucibleRun:
        assert self.record.run is not None
        return self.record.run

    def positions(self) -> dict[str, str]:
        return {"pro": self.run.pro_position, "con": self.run.con_position}

    def _side_messages(self, side: str, prompt: str) -> list[ChatMessage]:
        system = side_system(side, self.run.question, self.positions(), self.run.context)
        return [ChatMessageSystem(content=system), ChatMessageUser(content=prompt)]

    def _judge_messages(self, prompt: str) -> list[ChatMessage]:
        return [ChatMessageSystem(content=judge_prompts().system), ChatMessageUser(content=prompt)]

    def _side_request(self, stage: str, side: str, name: str, schema: dict[str, Any]) -> Request:
        return Request(
            stage, side, schema, name, self.options.budget, self.seed, enforce_budget=True
        )

    def _judge_request(self, stage: str, name: str, schema: dict[str, Any]) -> Request:
        return Request(stage, "judge", schema, name, self.scoring.judge_budget, self.seed)

    # ------------------------------------------------------------ neutralise

    async def neutralize(self) -> Diagnosis:
        prompts, run = judge_prompts(), self.run
        dims = list(prompts.bias_dimensions)
        prompt = prompts.neutral.format(
            question=run.question_original,
            pro_position=run.pro_position_original,
            con_position=run.con_position_original,
            dimensions=prompts.bias_text(),
            shape=neutral_rules.neutral_shape(dims),
        )
        wording = " ".join(
            [run.question_original, run.pro_position_original, run.con_position_original]
        )
        checked = await self.caller.require(
            self.judge,
            self._judge_messages(prompt),
            self._judge_request(
                "neutralize", "crucible_neutral", neutral_rules.neutral_schema(dims, wording)
            ),
            lambda reply: neutral_rules.check_neutral(reply, dims, wording),
            prompts.repair,
        )
        return neutral_rules.diagnosis(self.options.neutralize, checked, str(self.judge))

    # ------------------------------------------------------------ propose

    async def propose(self) -> tuple[list[Search], list[Claim]]:
        """Both sides at once: queries, the harness's search, then claims, verified."""
        found = await asyncio.gather(*(self._propose(side) for side in ("pro", "con")))
        return [s for s, _ in found], [c for _, claims in found for c in claims]

    async def _propose(self, side: str) -> tuple[Search, list[Claim]]:
        asked = await self._queries(side) if self.options.queries else []
        queries = side_queries(self.run.question, self.positions()[side], asked)
        result = search(self.corpus, side, queries, self.options.hits)
        windows = claim_rules.shown(result)
        files = claim_rules.files_of(windows)
        prompt = side_prompts().claims.format(
            hits=render(self.corpus, result),
            count=self.options.claims,
            shape=claim_rules.claims_shape(windows[0] if windows else None),
        )
        count = self.options.claims
        filed = await self.caller.require(
            self.sides[side],
            self._side_messages(side, prompt),
            self._side_request(
                "propose: claims",
                side,
                "crucible_claims",
                claim_rules.claims_schema(count, files),
            ),
            lambda reply: claim_rules.check_claims(reply, count, files),
            side_prompts().repair,
        )
        model = str(self.sides[side])
        return result, claim_rules.recorded_claims(side, filed, self.corpus, model)

    async def _queries(self, side: str) -> list[str]:
        classes = ", ".join(
            f"{name} (folder {folder}/)" for name, folder in self.corpus.topic.classes.items()
        )
        prompt = side_prompts().queries.format(classes=classes, count=self.options.queries)
        limit = self.options.queries
        return await self.caller.require(
            self.sides[side],
            self._side_messages(side, prompt),
            self._side_request(
                "propose: queries", side, "crucible_queries", claim_rules.queries_schema(limit)
            ),
            lambda reply: claim_rules.check_queries(reply, limit),
            side_prompts().repair,
        )

    # ------------------------------------------------------------ conflicts

    async def conflicts(self) -> tuple[list[Conflict], str | None]:
        view = BlindView.draw(self.record, reading_seed(self.seed, 0, "conflicts"))
        side_a, side_b = view.side_lines(self.record)
        prompts = judge_prompts()
        prompt = prompts.conflicts.format(
            question=self.run.question,
            side_a=side_a,
            side_b=side_b,
            claims=conflict_rules.render_for_conflicts(self.record, view),
            shape=conflict_rules.conflicts_shape(),
        )
        sides = {c.id: c.side for c in self.record.verified()}
        return await self.caller.require(
            self.judge,
            self._judge_messages(prompt),
            self._judge_request(
                "conflicts", "crucible_conflicts", conflict_rules.conflicts_schema(view, sides)
            ),
            lambda reply: conflict_rules.check_conflicts(reply, view, sides),
            prompts.repair,
        )

    # ------------------------------------------------------------ rounds

    async def turn(self, plan: round_rules.TurnPlan) -> CrucibleTurn:
        prompts = side_prompts()
        task = prompts.tasks[plan.kind].format(argues=plan.argues.upper())
        prompt = prompts.turn.format(
            round=plan.round,
            task=task,
            claims=claim_rules.render_claims(self.record.verified()),
            conflicts=conflict_rules.render_conflicts(self.record.conflicts),
            history=round_rules.render_history(self.record.turns),
            steelman=prompts.steelman if plan.steelman else "",
            shape=round_rules.turn_shape(plan.steelman),
        )
        sides = round_rules.Sides.of(self.record, plan)
        reply = await self.caller.require(
            self.sides[plan.side],
            self._side_messages(plan.side, prompt),
            self._side_request(
                f"round {plan.round} ({plan.kind})",
                plan.side,
                "crucible_turn",
                round_rules.turn_schema(plan, sides),
            ),
            lambda r: round_rules.check_turn(r, plan, sides),
            prompts.repair,
        )
        return round_rules.recorded_turn(plan, reply, str(self.sides[plan.side]))

    async def review(self, number: int, kind: str, turns: list[CrucibleTurn]) -> RoundReview:
        view = BlindView.draw(self.record, reading_seed(self.seed, number, "review"))
        side_a, side_b = view.side_lines(self.record)
        steelmen = [t.id for t in turns if t.steelman is not None]
        prompts = judge_prompts()
        prompt = prompts.review.format(
            question=self.run.question,
            side_a=side_a,
            side_b=side_b,
            round=number,
            turns=review_rules.render_round(self.record, turns, view),
            steelman_task=prompts.review_steelman if steelmen else "",
            shape=review_rules.review_shape(steelmen),
        )
        review = await self.caller.require(
            self.judge,
            self._judge_messages(prompt),
            self._judge_request(
                f"review of round {number}",
                "crucible_review",
                review_rules.review_schema(steelmen, view),
            ),
            lambda reply: review_rules.check_review(reply, steelmen, view),
            prompts.repair,
        )
        speeches = {t.side: t.speech for t in turns}
        return RoundReview(
            round=number,
            kind=kind,
            convergence=review.convergence,
            reason=review.reason,
            conceded=review.conceded,
            lexical=review_rules.lexical_similarity(speeches["pro"], speeches["con"]),
            steelman=review.steelman,
            judge=str(self.judge),
        )
