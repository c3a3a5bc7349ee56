"""The state interface every search of the library calls: the ``SearchState`` protocol.

Written for the searches of the PI-MCTS / IS-MCTS comparison of Ravichandran, Goodman and
Lucas ("PIMCTS evaluation in tabletop games", docs/papers/pimcts_aggregation.md) and used by
every paper's search. A ``pyspiel.State`` satisfies it, and so does a fast kernel state that
provides the same methods (``games/_tabletop.py``, ``games/trick_game/array_rules.py``). It lives in the
bottom layer so that games can name the contract they meet without importing ``search``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class SearchState(Protocol):
    """What MCTS, PI-MCTS and IS-MCTS call on a state.

    As in pyspiel, ``current_player()`` must return ``PlayerId.TERMINAL`` (-4) at terminal
    states and ``PlayerId.CHANCE`` (-1) at chance nodes: the search loops test only it. Non-chance
    ``apply_action`` must be deterministic (open-loop UCT caches states reached before any
    chance draw of an iteration).
    """

    def current_player(self) -> int: ...
    def legal_actions(self) -> Sequence[int]: ...
    def apply_action(self, action: int) -> None: ...
    def clone(self) -> SearchState: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> Sequence[float]: ...
    def is_chance_node(self) -> bool: ...
    def chance_outcomes(self) -> Sequence[tuple[int, float]]: ...
    def information_state_string(self, player: int) -> str: ...
