"""The resume cache: a crucible run's accepted calls, replayed only when that run resumes.

A topic is one sample, so `inspect eval-retry` would redo it from the start;
instead each call whose reply passed its checks is stored in Inspect's
generate cache and a resumed topic replays those calls (no tokens) and goes
live at the one that failed. Two rules make the replay honest:

- The scope is the run's Inspect task id, which `inspect eval-retry` keeps and
  every fresh `inspect eval` renews, so a fresh run always asks the model and
  only a resume of the same run replays.
- A call is stored only after its exchange passed its checks (and its budget):
  Inspect would store every reply inside `generate`, so a bad reply would be
  replayed by the resume and fail it again. The calls run without Inspect's
  cache and are stored here; a replayed call that fails a check now (a stricter
  check since) is removed, so the next resume asks again.

The epoch goes into the scope itself (not Inspect's per-epoch key), because the
first lookup of a sample comes before any `generate` has set Inspect's epoch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspect_ai.event import ModelEvent
from inspect_ai.model import (
    CachePolicy,
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    cache_path,
)

from debatebench_eval.core._inspect import (
    CacheEntry,
    cache_fetch,
    cache_store,
    record_event,
    resumable_run_id,
)

CACHE_EXPIRY = "1W"


@dataclass(frozen=True)
class ResumeCache:
    """Where one sample's calls are kept: its run, sample, epoch, topic and seed."""

    policy: CachePolicy

    @staticmethod
    def for_sample(sample: str, epoch: int, topic_sha256: str, seed: int) -> ResumeCache | None:
        """The sample's cache in the running eval, or None outside one (nothing to resume)."""
        run = resumable_run_id()
        if run is None:
            return None
        scope = f"{run}:{sample}:{epoch}:{topic_sha256[:16]}:{seed}"
        return ResumeCache(
            CachePolicy(expiry=CACHE_EXPIRY, per_epoch=False, scopes={"crucible": scope})
        )

    def attempt(self) -> Attempt:
        return Attempt(self.policy)


@dataclass
class Attempt:
    """One exchange's calls: replayed when this run accepted them before, else asked
    and held until the exchange's outcome is known (`settle`)."""

    policy: CachePolicy
    asked: list[tuple[CacheEntry, ModelOutput]] = field(default_factory=list)
    replayed: list[CacheEntry] = field(default_factory=list)

    async def generate(
        self, model: Model, messages: list[ChatMessage], config: GenerateConfig
    ) -> ModelOutput:
        entry = CacheEntry(
            base_url=model.api.base_url,
            config=config,
            input=messages,
            model=str(model),
            policy=self.policy,
            tool_choice=None,
            tools=[],
        )
        cached = cache_fetch(entry)
        if cached is not None:
            self.replayed.append(entry)
            _show_replay(model, messages, config, cached)
            return cached
        output = await model.generate(messages, config=config)
        self.asked.append((entry, output))
        return output

    def settle(self, accepted: bool) -> None:
        """Store the asked calls of an accepted exchange; forget a rejected one's."""
        if accepted:
            for entry, output in self.asked:
                cache_store(entry, output)
            return
        for entry in self.replayed:
            (cache_path(entry.model) / entry.key).unlink(missing_ok=True)


def _show_replay(
    model: Model, messages: list[ChatMessage], config: GenerateConfig, output: ModelOutput
) -> None:
    """The replayed call in the transcript as Inspect shows its own cache reads, so the
    viewer shows it and the report counts it as replayed."""
    record_event(
        ModelEvent(
            model=str(model),
            role=model.role,
            input=list(messages),
            tools=[],
            tool_choice="none",
            config=config,
            output=output,
            cache="read",
        )
    )
