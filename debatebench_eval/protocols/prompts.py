"""What each participant is asked: the round prompt, the synthesis and the decision.

The round prompt is heurema's (its moderator rules as the protocol's
preamble, the brief, the board of turns shown as `[Round N — speaker]`, the
signal instruction), with the round's own instruction and word limit when
the protocol gives them. The synthesis prompt is heurema's synthesizer
prompt. The persona's body is always the system message.
"""

from __future__ import annotations

from collections.abc import Sequence

from debatebench_eval.protocols.record import DeliberationTurn
from debatebench_eval.protocols.spec import Final, Protocol, Turns

# heurema's signalInstruction, verbatim.
SIGNAL_INSTRUCTION = (
    "End your reply with a fenced signal block:\n\n"
    "```signal\n"
    '{"position": "<your position>", "objections": ["<obj1>", "..."], "done": <true|false>}\n'
    "```\n\n"
    "Set done=true only if you have no objections. If you list any objections, done must be false."
)


def board(turns: Sequence[DeliberationTurn]) -> str:
    """Turns as heurema's board renders them."""
    return "\n\n".join(f"[Round {t.round} — {t.participant}]\n{t.text}" for t in turns)


def word_limit(max_words: int | None) -> str:
    return f"Use at most {max_words} words." if max_words else ""


def round_prompt(
    protocol: Protocol,
    turns: Turns,
    task: str,
    shown: Sequence[DeliberationTurn],
    number: int,
    question: str | None = None,
) -> str:
    parts = [protocol.preamble, f"## Brief\n\n{task}"]
    if shown:
        parts.append(f"## Discussion\n\n{board(shown)}")
    if question:
        parts.append(f"## The judge's question\n\n{question}")
    ask = "\n\n".join(p for p in (turns.instruction, word_limit(turns.max_words)) if p)
    if ask:
        parts.append(f"## Round {number}: {turns.name}\n\n{ask}")
    if turns.signal:
        parts.append(SIGNAL_INSTRUCTION)
    return "\n\n".join(p for p in parts if p)


def final_prompt(
    final: Final,
    task: str,
    shown: Sequence[DeliberationTurn],
    *,
    shape: str | None = None,
    answer_instruction: str | None = None,
) -> str:
    """heurema's synthesizer prompt; a judge also gets the reply's keys."""
    transcript = "".join(f"\n\n[Round {t.round} — {t.participant}]\n{t.text}" for t in shown)
    parts = [f"Task: {task}\n\nDebate transcript:{transcript}", final.instruction]
    parts.append(word_limit(final.max_words))
    if shape is not None:
        parts.append(
            f"Reply with one JSON object and nothing else, with exactly these keys:\n{shape}"
        )
    if answer_instruction:
        parts.append(answer_instruction)
    return "\n\n".join(p for p in parts if p)
