"""What each participant is shown: a pure function of the turns so far.

`none`: only the task. `previous`: the turns of the round before.
`all`: every turn of the earlier rounds. A round spoken in `sequential`
order also shows the turns already given in the same round (heurema's
board, where each speaker reads the ones before); a `parallel` round's
speakers never see each other.
"""

from __future__ import annotations

from collections.abc import Sequence

from debatebench_eval.protocols.record import DeliberationTurn


def shown_turns(
    turns: Sequence[DeliberationTurn], round_number: int, visibility: str, sequential: bool
) -> list[DeliberationTurn]:
    def shown(turn: DeliberationTurn) -> bool:
        if turn.round == round_number:
            return sequential
        if visibility == "previous":
            return turn.round == round_number - 1
        return visibility == "all" and turn.round < round_number

    return [turn for turn in turns if shown(turn)]
