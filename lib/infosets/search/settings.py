"""Per-game MCTS settings shared by OL-MCTS, PI-MCTS and IS-MCTS, in both engines.

The pimcts_aggregation paper (Ravichandran, Goodman and Lucas, "PIMCTS evaluation in
tabletop games") tunes MCTS per game in the TAG framework: besides the exploration constant
``K`` (our ``uct_c``), TAG's parameter files set a rollout length whose cut-off is scored by
a game heuristic, a maximum tree depth, first-play urgency (FPU) and an exploration epsilon.
The defaults here reproduce the engines' behaviour without them, draw for draw.

* ``rollout_length``: player and chance actions played at random after the tree before the
  cut-off; ``None`` plays to the end; ``0`` scores the leaf itself. A cut-off state is
  scored by ``heuristic`` (required with a length), then normalised as returns are.
* ``max_depth``: tree nodes per iteration (the root's children are depth 1); at that depth
  the iteration leaves the tree and rolls out. ``None``: unbounded.
* ``fpu``: ``None`` tries every untried action first (uniformly at random); a number scores
  an untried action by it, against the tried ones' UCB values (first maximum in legal order).
* ``explore_epsilon``: at each tree node, with this probability a legal action is chosen
  uniformly at random instead (0 draws nothing).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# heuristic(state) -> one value per player, on the game's return scale.
Heuristic = Callable[[object], Sequence[float]]


@dataclass(frozen=True)
class MCTSSettings:
    rollout_length: int | None = None
    max_depth: int | None = None
    fpu: float | None = None
    explore_epsilon: float = 0.0
    heuristic: Heuristic | None = None

    def __post_init__(self):
        if self.rollout_length is not None and (
                not isinstance(self.rollout_length, int) or self.rollout_length < 0):
            raise ValueError(f"rollout_length: must be None or an int >= 0, got {self.rollout_length!r}")
        if self.max_depth is not None and (not isinstance(self.max_depth, int) or self.max_depth < 1):
            raise ValueError(f"max_depth: must be None or an int >= 1, got {self.max_depth!r}")
        if self.fpu is not None and not (isinstance(self.fpu, (int, float)) and math.isfinite(self.fpu)):
            raise ValueError(f"fpu: must be None or a finite number, got {self.fpu!r}")
        if not (isinstance(self.explore_epsilon, (int, float)) and 0.0 <= self.explore_epsilon <= 1.0):
            raise ValueError(f"explore_epsilon: must be in [0, 1], got {self.explore_epsilon!r}")
        if self.heuristic is not None and not callable(self.heuristic):
            raise ValueError("heuristic: must be a callable heuristic(state) -> values per player")

    @property
    def is_default(self) -> bool:
        return self == MCTSSettings()


DEFAULT = MCTSSettings()


def make_settings(rollout_length=None, max_depth=None, fpu=None, explore_epsilon=0.0,
                  heuristic=None, default_heuristic: Heuristic | None = None) -> MCTSSettings:
    """Validated settings; a rollout length takes ``heuristic`` or else the game's own
    (``default_heuristic``), and is refused without either."""
    MCTSSettings(rollout_length, max_depth, fpu, explore_epsilon)  # validates, in this order
    if rollout_length is not None and heuristic is None:
        heuristic = default_heuristic
        if heuristic is None:
            raise ValueError("heuristic: a rollout_length needs a heuristic and this game has none")
    return MCTSSettings(rollout_length, max_depth, None if fpu is None else float(fpu),
                        float(explore_epsilon), heuristic)
