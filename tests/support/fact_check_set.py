"""Build the fact-check validation set from its hand-written sentences.

validation/fact_check/sentences.yaml holds every sentence (written for the
project over the example evidence pool); this script assembles them into 64
short debates (debatebench transcripts, `transcripts/`) and writes the answer
key (`claims.jsonl`), so that every planted claim's verdict and evidence are
known by construction. The design, balanced by construction:

- 64 debates = 2 motions x 2 first speakers x 4 rotations x 4 replicates;
  phases prep, opening:short, rebuttal:short (each side's prep carries the
  passages the debate's claims rest on, plus one unused passage).
- Each of the 4 speeches holds 2 planted claims: 8 per debate, 2 of each
  verdict. Rotation k gives speech t (in speaking order) the verdicts
  VERDICTS[(t + k) % 4] and VERDICTS[(t + k + 1) % 4], so over every 4
  debates each verdict sits equally often in each position, first or second
  in its speech; the first speaker alternates, so each verdict is said
  equally often by each side in each position.
- Kinds: a supported claim quotes a passage exactly, paraphrases one, or
  quotes / paraphrases the opponent's earlier (passage-supported) speech; a
  contradicted one contradicts a passage, says the opponent never mentioned
  something they did, or misreports what they said; unsupported ones are
  invented figures and studies no passage mentions; not_checkable ones are
  value judgements and predictions. A speech that has no earlier opponent
  speech to refer to (the first opening) gets passage kinds.

    python tests/support/fact_check_set.py build   # rewrite transcripts/ and claims.jsonl
    python tests/support/fact_check_set.py check   # exit 1 if they differ from a fresh build
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # run as a script: make the tests' `support` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import yaml

from support.paths import ROOT

SET_DIR = ROOT / "validation" / "fact_check"
POOL = ROOT / "tasks" / "sources" / "example.jsonl"
VERDICTS = ("supported", "contradicted", "unsupported", "not_checkable")
PHASES = ["prep", "opening", "rebuttal"]
DEBATES = 64
OPENERS = {
    "opening-first": "Thank you, chair.",
    "opening-second": "Thank you.",
    "rebuttal-first": "Let me answer what we have heard.",
    "rebuttal-second": "Now to my reply.",
}
# Pool rows whose content pulls against each other: never in one debate, so a
# claim's verdict is decided by one passage, not by weighing two.
TENSIONS = [
    {"example-carbon-tax-pro-3", "example-carbon-tax-con-1"},
    {"example-carbon-tax-pro-3", "example-carbon-tax-con-7"},
    {"example-carbon-tax-pro-6", "example-carbon-tax-con-5"},
    {"example-universal-basic-income-pro-2", "example-universal-basic-income-con-4"},
    {"example-universal-basic-income-pro-2", "example-universal-basic-income-con-5"},
    {"example-universal-basic-income-pro-2", "example-universal-basic-income-con-8"},
    {"example-universal-basic-income-pro-3", "example-universal-basic-income-con-3"},
    {"example-universal-basic-income-pro-6", "example-universal-basic-income-con-3"},
]


@dataclass
class Planted:
    verdict: str
    kind: str
    text: str
    topic: str
    evidence: list[str]
    passage: str | None = None  # the pool row a passage-kind claim rests on


@dataclass
class Speech:
    phase_index: int
    side: str
    position: str
    claims: list[Planted] = field(default_factory=list)

    @property
    def ref(self) -> str:
        return f"turn:{self.phase_index}:{self.side}"


def other(side: str) -> str:
    return "con" if side == "pro" else "pro"


class Builder:
    def __init__(self, bank: dict[str, Any], pool: dict[str, dict[str, Any]]) -> None:
        self.bank = bank
        self.pool = pool
        self.used: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()

    def least_used(self, options: list[str], rng: random.Random) -> str:
        low = min(self.used[o] for o in options)
        choice = rng.choice(sorted(o for o in options if self.used[o] == low))
        self.used[choice] += 1
        return choice

    def debate(self, number: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        motion_id = ("carbon-tax", "universal-basic-income")[number % 2]
        first = ("pro", "con")[(number // 2) % 2]
        rotation = (number // 4) % 4
        rng = random.Random(f"fact-check-set:{number}")
        motion = self.bank["motions"][motion_id]
        speeches = [
            Speech(1, first, "opening-first"),
            Speech(1, other(first), "opening-second"),
            Speech(2, other(first), "rebuttal-first"),
            Speech(2, first, "rebuttal-second"),
        ]
        passages: set[str] = set()
        for index, speech in enumerate(speeches):
            for slot in range(2):
                verdict = VERDICTS[(index + rotation + slot) % 4]
                earlier = [s for s in speeches[:index] if s.side != speech.side]
                claim = self.claim(verdict, speech, earlier, motion, passages, rng)
                speech.claims.append(claim)
                self.kinds[claim.kind] += 1
        name = f"fc-{number + 1:02d}-{motion_id}"
        return self.document(name, number, motion, speeches, passages, rng), self.key(
            name, speeches
        )

    # ------------------------------------------------------------ claims

    def claim(
        self,
        verdict: str,
        speech: Speech,
        earlier: list[Speech],
        motion: dict[str, Any],
        passages: set[str],
        rng: random.Random,
    ) -> Planted:
        if verdict == "supported":
            return self.supported(speech, earlier, motion, passages, rng)
        if verdict == "contradicted":
            return self.contradicted(speech, earlier, motion, passages, rng)
        items = motion[verdict][speech.side]
        kinds = sorted({item["kind"] for item in items})
        kind = min(kinds, key=lambda k: (self.kinds[k], kinds.index(k)))
        texts = [item["text"] for item in items if item["kind"] == kind]
        taken = {c.text for s in earlier for c in s.claims} | {c.text for c in speech.claims}
        text = self.least_used([t for t in texts if t not in taken], rng)
        topic = next(item["topic"] for item in items if item["text"] == text)
        return Planted(verdict, kind, text, topic, [])

    def free_passages(
        self, side: str, motion: dict[str, Any], passages: set[str], need: str
    ) -> list[str]:
        out = []
        for pid, item in motion["passages"].items():
            if f"-{side}-" not in pid or pid in passages or need not in item:
                continue
            if any(pid in pair and pair & passages for pair in TENSIONS):
                continue
            out.append(pid)
        return out

    def take(self, pid: str, passages: set[str]) -> None:
        passages.add(pid)

    def supported(self, speech, earlier, motion, passages, rng) -> Planted:  # type: ignore[no-untyped-def]
        mentioned = {e for mine in speech.claims for e in mine.evidence}
        refs = [
            (s, c)
            for s in earlier
            for c in s.claims
            if c.kind in ("passage_exact", "passage_paraphrase") and c.passage not in mentioned
        ]
        turn_kinds = ("turn_exact", "turn_paraphrase")
        passage_kinds = ("passage_exact", "passage_paraphrase")
        use_turn = bool(refs) and sum(self.kinds[k] for k in turn_kinds) <= sum(
            self.kinds[k] for k in passage_kinds
        )
        if use_turn:
            source, ref = refs[-1]
            assert ref.passage is not None
            item = motion["passages"][ref.passage]
            kind = min(turn_kinds, key=lambda k: (self.kinds[k], turn_kinds.index(k)))
            if kind == "turn_exact":
                text = f'My opponent told us, in these words: "{ref.text}"'
            else:
                form = (
                    item["paraphrase"] if ref.kind == "passage_exact" else sentence(item["exact"])
                )
                text = f"My opponent accepts this much: {form}"
            return Planted("supported", kind, text, item["topic"], [source.ref, ref.passage])
        kind = min(passage_kinds, key=lambda k: (self.kinds[k], passage_kinds.index(k)))
        pid = self.least_used(self.free_passages(speech.side, motion, passages, "exact"), rng)
        self.take(pid, passages)
        item = motion["passages"][pid]
        text = sentence(item["exact"]) if kind == "passage_exact" else item["paraphrase"]
        return Planted("supported", kind, text, item["topic"], [pid], pid)

    def contradicted(self, speech, earlier, motion, passages, rng) -> Planted:  # type: ignore[no-untyped-def]
        turn_kinds = ("turn_never_mentioned", "turn_misreported")
        use_turn = (
            bool(earlier)
            and sum(self.kinds[k] for k in turn_kinds) <= self.kinds["passage_contradiction"]
        )
        if use_turn:
            misreportable = [
                (s, c)
                for s in earlier
                for c in s.claims
                if c.kind in ("passage_exact", "passage_paraphrase")
                and "contradiction" in motion["passages"][c.passage or ""]
                and c.passage not in {e for mine in speech.claims for e in mine.evidence}
            ]
            kind = min(turn_kinds, key=lambda k: (self.kinds[k], turn_kinds.index(k)))
            if kind == "turn_misreported" and misreportable:
                source, ref = misreportable[-1]
                item = motion["passages"][ref.passage]
                text = f"My opponent claimed this: {item['contradiction']}"
                return Planted("contradicted", kind, text, item["topic"], [source.ref, ref.passage])
            source = earlier[-1]
            ref = source.claims[rng.randrange(len(source.claims))]
            text = f"My opponent has not said a single word about {ref.topic}."
            return Planted("contradicted", "turn_never_mentioned", text, ref.topic, [source.ref])
        owner = other(speech.side)
        pid = self.least_used(self.free_passages(owner, motion, passages, "contradiction"), rng)
        self.take(pid, passages)
        item = motion["passages"][pid]
        return Planted(
            "contradicted",
            "passage_contradiction",
            item["contradiction"],
            item["topic"],
            [pid],
            None,
        )

    # ------------------------------------------------------------ files

    def document(self, name, number, motion, speeches, passages, rng) -> dict[str, Any]:  # type: ignore[no-untyped-def]
        evidence = {}
        for side in ("pro", "con"):
            own = sorted(p for p in passages if f"-{side}-" in p)
            prefix = self.pool_prefix(motion)
            spare = [
                pid
                for pid in self.pool
                if pid.startswith(f"{prefix}-{side}-")
                and pid not in passages
                and not any(pid in pair and pair & passages for pair in TENSIONS)
            ]
            own.append(self.least_used(spare, rng))
            evidence[side] = [
                {"id": pid, "source": "example", "text": self.pool[pid]["text"]}
                for pid in sorted(own)
            ]
        first = speeches[0].side
        sides = [
            {
                "index": 0 if side == "pro" else 1,
                "team_file": "",
                "side": side,
                "team": {
                    "id": f"writer-{side}",
                    "name": f"Set writer ({side})",
                    "voice": "",
                    "stance": "",
                    "values": [],
                    "corpus": None,
                },
                "model": "hand-written",
                "base_url": "",
                "budget": 200,
                "prep_budget": 200,
            }
            for side in ("pro", "con")
        ]
        stamp = "2026-11-30T00:00:00Z"
        turns = [
            {
                "phase_index": 0,
                "phase": "prep",
                "side_index": 0 if side == "pro" else 1,
                "order": 0,
                "text": "Prep notes: the evidence passages below.",
                "usage": {"prompt_tokens": 0, "completion_tokens": 7},
                "budget": 200,
                "hit_budget": False,
                "finish_reason": "stop",
                "latency_ms": 0,
                "started_at": stamp,
                "evidence": evidence[side],
            }
            for side in (first, other(first))
        ]
        for speech in speeches:
            text = " ".join([OPENERS[speech.position], *(c.text for c in speech.claims)])
            turns.append(
                {
                    "phase_index": speech.phase_index,
                    "phase": PHASES[speech.phase_index],
                    "side_index": 0 if speech.side == "pro" else 1,
                    "order": 0 if speech.position.endswith("first") else 1,
                    "text": text,
                    "usage": {"prompt_tokens": 0, "completion_tokens": len(text.split())},
                    "budget": 200,
                    "hit_budget": False,
                    "finish_reason": "stop",
                    "latency_ms": 0,
                    "started_at": stamp,
                    "length": "short",
                }
            )
        return {
            "schema_version": 2,
            "debatebench_version": "debatebench-eval fact-check validation set 1",
            "started_at": stamp,
            "finished_at": stamp,
            "run": {
                "topic": motion["motion"],
                "seed": 1000 + number,
                "budget_tolerance": 16,
                "phases": PHASES,
                "sides": sides,
            },
            "turns": turns,
        }

    def pool_prefix(self, motion: dict[str, Any]) -> str:
        first = next(iter(motion["passages"]))
        return first.rsplit("-", 2)[0]

    def key(self, name: str, speeches: list[Speech]) -> list[dict[str, Any]]:
        rows = []
        for speech in speeches:
            for slot, claim in enumerate(speech.claims, 1):
                rows.append(
                    {
                        "claim_id": f"{name}-c{len(rows) + 1}",
                        "debate": name,
                        "phase_index": speech.phase_index,
                        "side": speech.side,
                        "position": speech.position,
                        "slot": slot,
                        "verdict": claim.verdict,
                        "kind": claim.kind,
                        "text": claim.text,
                        "evidence": claim.evidence,
                    }
                )
        return rows


def sentence(span: str) -> str:
    return span[0].upper() + span[1:] + "."


def build() -> dict[str, str]:
    """Every file of the set, by path relative to the set's folder."""
    bank = yaml.safe_load((SET_DIR / "sentences.yaml").read_text(encoding="utf-8"))
    pool = {row["id"]: row for row in map(json.loads, POOL.read_text().splitlines())}
    builder = Builder(bank, pool)
    files: dict[str, str] = {}
    rows: list[dict[str, Any]] = []
    for number in range(DEBATES):
        document, key = builder.debate(number)
        name = key[0]["debate"]
        files[f"transcripts/{name}.json"] = (
            json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        )
        rows += key
    files["claims.jsonl"] = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    return files


def main(argv: list[str]) -> int:
    files = build()
    if argv[1:] == ["build"]:
        for stale in (SET_DIR / "transcripts").glob("*.json"):
            stale.unlink()
        for path, text in files.items():
            (SET_DIR / path).write_text(text, encoding="utf-8")
        print(f"wrote {len(files)} files under {SET_DIR}")
        return 0
    if argv[1:] == ["check"]:
        differ = [
            p
            for p, t in files.items()
            if not (SET_DIR / p).is_file() or (SET_DIR / p).read_text() != t
        ]
        print("\n".join(differ) or "the set matches its build")
        return 1 if differ else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
