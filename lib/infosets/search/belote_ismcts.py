"""The ISMCTS of Boudier's two-player Belote paper: options of the one IS-MCTS, on the Belote kernel.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), Algorithm 1, with the details of the authors' code from the
reading notes. ``BeloteISMCTSBot`` runs ``infosets.search.ismcts.ISMCTSBot`` with the compiled
engine on the ``belote2p`` kernel (``infosets.games.belote2p.kernel``) and these options
(``PAPER_OPTIONS``):

- ``node_key="moves"``: one tree over card sequences (both players' moves), rebuilt at every
  move;
- each iteration deals a determinization: a uniform shuffle of every card the mover cannot
  see (the opponent's hand and both players' covered face-down cards), without the fair-deal
  constraint; with ``inference=True`` the opponent's hand is drawn only from cards its past
  failures to follow suit / trump / overtrump allow (the paper's footnote 5, which it
  skipped);
- ``availability="expanded"``: selection among the children legal in the determinization by
  ``mean + C * sqrt(ln(avail) / visits)``; a child's availability starts at 1 when it is
  created and gains 1 each time it is legal at a selection or expansion step through its
  parent;
- ``normalize_rewards=False``, ``uct_c=C`` (82): raw card points;
- expansion of one untried legal move chosen uniformly, then a uniform random rollout;
- ``reward="heuristic"``: the reward of a node is the final card points (no last-trick
  bonus) of the player who moved into it (the kernel's heuristic at the end of the game);
- ``final="visits_mean"``: the move played is the most visited root child, ties to the
  higher mean, remaining ties uniformly at random (seeded). The authors' rule took the lowest
  card id, which in the last tricks, where two cards often score the same card points,
  gives away the last-trick bonus.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from infosets.core.rng import as_generator
from infosets.games.belote2p import kernel as belote_kernel
from infosets.games.belote2p.game import GAME_NAME
from infosets.games.belote2p.position import Position
from infosets.search.ismcts import ISMCTSBot

PAPER_OPTIONS = {"availability": "expanded", "node_key": "moves", "reward": "heuristic",
                 "normalize_rewards": False, "final": "visits_mean"}


def opponent_hand_exclusions(state, player: int) -> int:
    """Cards the opponent of ``player`` provably no longer holds in hand in a ``belote2p``
    state (its revealed voids: off-suit, no trump when trumping was due, no overtrump; the
    kernel's record, ``Position.excluded``)."""
    return state.kernel.excluded(1 - player)


class BeloteISMCTSBot(pyspiel.Bot):
    """ISMCTS for ``belote2p`` states (see the module docstring).

    Args:
      iterations: iterations per move (the paper: 500).
      exploration: UCB constant C on raw points (the paper: 82).
      rng: numpy Generator, SeedSequence or int seed (required; ``infosets.core.rng``); the only
        source of randomness. A Generator is used as is (its stream continues).
      inference: restrict the opponent's hand by its revealed voids (footnote 5).
    """

    def __init__(self, iterations: int = 500, exploration: float = 82.0, *, rng,
                 inference: bool = False):
        super().__init__()
        if not isinstance(iterations, (int, np.integer)) or iterations < 1:
            raise ValueError(f"iterations must be an int >= 1, got {iterations!r}")
        if not exploration >= 0:
            raise ValueError(f"exploration must be >= 0, got {exploration!r}")
        self._rng = as_generator(rng)
        self.iterations = int(iterations)
        self.exploration = float(exploration)
        self.inference = bool(inference)
        self._searchers: dict[int, ISMCTSBot] = {}
        self._root_stats: dict[int, tuple[int, float, int]] = {}

    def _searcher(self, player: int) -> ISMCTSBot:
        """The engine's IS-MCTS for one seat (both seats share this bot's generator)."""
        if player not in self._searchers:
            self._searchers[player] = ISMCTSBot(
                pyspiel.load_game(GAME_NAME), player, iterations=self.iterations,
                uct_c=self.exploration, rng=self._rng, engine="compiled", **PAPER_OPTIONS)
        return self._searchers[player]

    # -- pyspiel.Bot ----------------------------------------------------------------
    def step(self, state) -> int:
        excluded = opponent_hand_exclusions(state, state.current_player()) \
            if self.inference else 0
        return self.choose(state.kernel, excluded)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False

    # -- search ---------------------------------------------------------------------
    def choose(self, root_state: Position, excluded_from_opponent_hand: int = 0) -> int:
        """Run the search from the mover's view of ``root_state``; return the card (a single
        legal card is played without a search)."""
        legal = root_state.legal_mask()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        self.search(root_state, excluded_from_opponent_hand)
        root = {c: (n, mean) for c, (n, mean, _) in self._root_stats.items()}
        return int(self._searcher(root_state.to_move).final_action(root))

    def search(self, root_state: Position, excluded_from_opponent_hand: int = 0
               ) -> dict[int, tuple[int, float, int]]:
        """Search from the mover's view of ``root_state`` (a position, not terminal);
        returns ``root_statistics()``. ``excluded_from_opponent_hand``: cards the opponent
        is known not to hold (0: none)."""
        if root_state.is_terminal():
            raise ValueError("root_state: must not be terminal")
        array = belote_kernel.array_from_position(root_state, excluded_from_opponent_hand)
        searcher = self._searcher(root_state.to_move)
        root = searcher.search_array(array)
        avail = searcher.last_root_availability
        self._root_stats = {c: (n, mean, avail[c]) for c, (n, mean) in root.items() if n > 0}
        return self.root_statistics()

    def root_statistics(self) -> dict[int, tuple[int, float, int]]:
        """Per root card: (visits, mean reward, availability) of the last search."""
        return dict(self._root_stats)
