"""The debates of a log folder as items a person can label, each with the judge's verdict.

An item is one finished sample of a `debatebench/debate` log (a `rubric` item:
who argued better) or of a `debatebench/oversight` log run with a speaking
protocol, debate, consultancy or open (a `known_answer` item: which answer is
right). It holds what the page shows (the motion or question, the speeches in
order) and, for the agreement figures only, the judge's verdict; the page never
shows the verdict, the models or the scores.

An item is named `<log file name>:<sample id>:<epoch>` and fingerprinted by a
digest of the debate's content as written (not as shown), so a label made for
one text is never matched to another. Reading a folder passes over, with one
note each, a log of another task, one still being written and one that cannot
be read; a sample that failed or did not finish is counted in its log's note.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from inspect_ai.log import EvalLog, EvalSample
from pydantic import BaseModel, ConfigDict

from debatebench_eval.core.log_folder import FolderLog, LogFolder, task_name
from debatebench_eval.judging.blind import masked_terms
from debatebench_eval.judging.repeats import judge_groups, outcome
from debatebench_eval.judging.verdict import mean_scores
from debatebench_eval.known_answer.record import OversightRecord
from debatebench_eval.record.protocol import Side
from debatebench_eval.record.store import DebateRecord

Kind = Literal["rubric", "known_answer"]
# The oversight protocols whose samples have speeches to read.
SPEAKING = ("debate", "consultancy", "open")
DIGEST_CHARS = 16


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ItemSpeech(_Frozen):
    """One speech as written: who spoke (`pro`, `con`, `consultant`, or `judge` for a
    question the judge asked in a consultancy), when, and for which answer."""

    speaker: str
    stage: str
    text: str
    defends: str | None = None


class JudgeVerdict(_Frozen):
    """What the judge said, for the agreement figures (never on the page)."""

    # Rubric debates: the winner (a tie when swap_rule=survive disagreed), the margin on
    # the totals' 0-100 scale, any judge's verdict flipped by the order swap, and whether
    # a panel's judges named different winners (None: one judge, no panel).
    winner: Literal["pro", "con", "tie"] | None = None
    margin: float | None = None
    swap_flipped: bool | None = None
    panel_split: bool | None = None
    # Known-answer debates: the answer label picked, whether it was right, and the
    # probability the judge gave the right answer.
    pick: str | None = None
    pick_right: bool | None = None
    p_correct: float | None = None


class Item(_Frozen):
    """One debate to label."""

    item: str
    digest: str
    kind: Kind
    log: str
    sample_id: str
    epoch: int
    # The debaters' models, sorted, and the motion's or question's id: the strata.
    models: tuple[str, ...]
    topic: str
    protocol: str | None = None
    # The motion (pro argues for it), or the question.
    prompt: str
    # Known-answer debates: the answers as labelled A then B.
    answers: tuple[str, ...] = ()
    # Known-answer debates: the debater that defends answer A, fixed by the record (`pro`
    # in a consultancy, whose one speaker is no side); None for rubric debates, whose A
    # the page draws.
    a_side: Side | None = None
    speeches: tuple[ItemSpeech, ...]
    # Identity strings (model and team names) masked on the page, with whether case matters.
    hidden: tuple[tuple[str, bool], ...] = ()
    verdict: JudgeVerdict | None = None
    # Inspect's id of the sample: a resumed run copies finished samples into its new log.
    uuid: str | None = None

    @property
    def stratum(self) -> tuple[tuple[str, ...], str]:
        return (self.models, self.topic)


@dataclass
class FolderItems:
    """A folder's items, and a note for each log passed over."""

    items: list[Item] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def item_id(log: str, sample_id: str | int, epoch: int) -> str:
    return f"{Path(log.removeprefix('file://')).name}:{sample_id}:{epoch}"


def content_digest(content: dict[str, Any]) -> str:
    """The first 16 hex of sha256 over the canonical JSON of the debate's content."""
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def load_items(log_dir: str | Path) -> list[Item]:
    """The items of a folder's debate and oversight logs (see `read_folder` for the notes)."""
    return read_folder(log_dir).items


def read_folder(log_dir: str | Path) -> FolderItems:
    """Every item of the folder's finished debate and oversight logs, with the notes
    (the folder local or at any URL Inspect reads logs from)."""
    reader = LogFolder.of(log_dir, meaning="its debates are not shown")
    found = FolderItems()
    for log in reader.logs():
        item_of = _reader(log.header)
        if isinstance(item_of, str):
            found.notes.append(f"passed over {log.name}: {item_of}")
        elif not log.finished:
            found.notes.append(f"passed over {log.name}: still being written")
        else:
            _read_log(reader, log, item_of, found)
    found.notes += [str(note) for note in reader.take_notes()]
    found.items, copies = once_each(found.items)
    if copies:
        found.notes.append(f"{copies} debate(s) are in more than one log (a resumed run "
                           "copies its finished debates): each is shown once, from its "
                           "newest log")  # fmt: skip
    return found


def once_each(items: list[Item]) -> tuple[list[Item], int]:
    """Each sample once (by uuid), from the log whose name sorts last: Inspect's log
    names begin with their start time, so that is the newest; the number of copies left."""
    kept: dict[str, Item] = {}
    for item in sorted(items, key=lambda i: i.item, reverse=True):
        kept.setdefault(item.uuid or item.item, item)
    return sorted(kept.values(), key=lambda i: i.item), len(items) - len(kept)


Reader = Callable[[EvalSample, str], "Item | None"]


def _reader(header: EvalLog) -> Reader | str:
    """How the log's samples become items, or why they cannot (`READERS`: by its task)."""
    choose = READERS.get(task_name(header))
    if choose is None:
        return f"a {header.eval.task} log, not a {' or '.join(READERS)} log"
    return choose(header)


def _known_answer_reader(header: EvalLog) -> Reader | str:
    protocol = (header.eval.metadata or {}).get("protocol")
    if protocol in SPEAKING:
        return known_answer_item
    return f"an oversight log of protocol {protocol}, which has no speeches to label"


def _read_log(reader: LogFolder, log: FolderLog, item_of: Reader, found: FolderItems) -> None:
    left_out = 0
    for sample in reader.samples(log):
        item = item_of(sample, log.name) if sample.error is None else None
        if item is None:
            left_out += 1
        else:
            found.items.append(item)
    if left_out:
        found.notes.append(f"{log.name}: {left_out} sample(s) failed or did not finish; not shown")


def rubric_item(sample: EvalSample, log: str) -> Item | None:
    """A finished debate sample as an item (None when it did not finish)."""
    record = sample.store_as(DebateRecord)
    if not record.complete or record.run is None:
        return None
    # Prep is each side's private notes: never shown to the judge, nor to people.
    speeches = tuple(
        ItemSpeech(speaker=t.side, stage=t.phase, text=t.text)
        for t in record.turns
        if t.phase != "prep"
    )
    content = {"motion": record.run.motion, "speeches": _content(speeches)}
    return Item(
        **_identity(sample, log, content),
        kind="rubric",
        models=tuple(sorted(side.model for side in record.run.sides)),
        topic=record.run.motion_id,
        prompt=record.run.motion,
        speeches=speeches,
        hidden=tuple(masked_terms(record)),
        verdict=rubric_verdict(_score(sample, "rubric")),
    )


def known_answer_item(sample: EvalSample, log: str) -> Item | None:
    """A finished known-answer sample with speeches as an item."""
    record = sample.store_as(OversightRecord)
    if not record.complete or record.question is None or len(record.answers) != 2:
        return None
    speeches = tuple(
        ItemSpeech(speaker=s.role, stage=f"round {s.round}", text=s.shown, defends=s.defends)
        for s in record.speeches
    )
    content = {
        "question": record.question,
        "answers": list(record.answers),
        "speeches": _content(speeches),
    }
    models = tuple(sorted(model for role, model, _ in record.speakers if role != "judge"))
    defends_a = next((s.speaker for s in speeches if s.defends == "A"), None)
    return Item(
        **_identity(sample, log, content),
        kind="known_answer",
        models=models,
        topic=str((sample.metadata or {}).get("question_id", sample.id)),
        protocol=record.protocol,
        prompt=record.question,
        answers=tuple(record.answers),
        a_side="con" if defends_a == "con" else "pro",
        speeches=speeches,
        hidden=tuple((model, False) for model in dict.fromkeys(models)),
        verdict=known_answer_verdict(_score(sample, "judge_accuracy")),
    )


def _identity(sample: EvalSample, log: str, content: dict[str, Any]) -> dict[str, Any]:
    """The fields that name an item and fingerprint its content."""
    return {"item": item_id(log, sample.id, sample.epoch), "digest": content_digest(content),
            "log": log, "sample_id": str(sample.id), "epoch": sample.epoch,
            "uuid": sample.uuid}  # fmt: skip


def _content(speeches: tuple[ItemSpeech, ...]) -> list[list[str | None]]:
    return [[s.speaker, s.stage, s.defends, s.text] for s in speeches]


def _score(sample: EvalSample, name: str) -> Any:
    scores = sample.scores or {}
    return next((scores[key] for key in (name, f"debatebench/{name}", f"debatebench_eval/{name}")
                 if key in scores), None)  # fmt: skip


def rubric_verdict(score: Any) -> JudgeVerdict | None:
    """The rubric score's verdict, flips and panel split (None when unscored)."""
    if score is None or not isinstance(score.value, dict):
        return None
    meta = score.metadata or {}
    readings = meta.get("readings") or []
    flips = [bool(r["swap_flipped"]) for r in readings if r.get("swap_flipped") is not None]
    winners = {w for w in map(_judge_winner, judge_groups(readings)) if w is not None}
    judges = len(judge_groups(readings))
    margin = meta.get("margin", score.value.get("margin"))
    return JudgeVerdict(
        winner=meta.get("winner"),
        margin=None if margin is None or math.isnan(float(margin)) else float(margin),
        swap_flipped=any(flips) if flips else None,
        panel_split=len(winners) > 1 if judges > 1 else None,
    )


def _judge_winner(group: list[dict[str, Any]]) -> str | None:
    """One judge's winner over its orientations (its first repeat), as the scorer combines."""
    scored = [o["scores"] for o in group[0].get("orientations", []) if "scores" in o]
    return outcome(mean_scores(scored)) if group[0].get("valid") and scored else None


def known_answer_verdict(score: Any) -> JudgeVerdict | None:
    """The judge's pick, whether right, its probability of the right answer, and whether
    the panel's judges picked different answers."""
    if score is None or not isinstance(score.value, dict):
        return None
    meta = score.metadata or {}
    p_correct = float(score.value.get("p_correct", math.nan))
    if meta.get("pick") is None or math.isnan(p_correct):
        return None
    answers = [r.get("answer") for r in meta.get("readings") or [] if r.get("answer")]
    return JudgeVerdict(
        pick=meta["pick"],
        pick_right=meta["pick"] == meta.get("correct_label"),
        p_correct=p_correct,
        panel_split=len(set(answers)) > 1 if len(answers) > 1 else None,
    )


# The tasks whose samples are items, by the task a log ran: each gives the reader of
# its samples, or why this log's have nothing to label.
READERS: dict[str, Callable[[EvalLog], Reader | str]] = {
    "debate": lambda header: rubric_item,
    "oversight": _known_answer_reader,
}
