"""Worlds from a trick-taking game's deal constraints, generic over the game: the sampler
IS-MCTS calls for each iteration's world.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), sections 2.3 and 6: IS-MCTS samples a history for each iteration; the
MCMC history sampler generates it from the player's belief P(h | S_i) under the opponents'
model instead of uniformly. ``DealWorlds`` holds what every trick-taking game shares: at each
new information state, the table of its consistent deals (``mcmc.AssignmentTable``) and, in
``mode="mcmc"``, one RingSwap chain advanced ``transitions`` steps per call; in
``mode="uniform"``, exact uniform draws among the consistent deals (void-aware, model-blind).

A game supplies four hooks: its public state (``public_state.TrickTakingPublicState``), the
acting player's own hand, the reach model of the public actions, and the world (a pyspiel
state) a deal makes. ``resampler.InfostateSampler`` is the ``oh_hell`` instance (the paper's
game) and ``spades.SpadesWorlds`` a second.
"""

from __future__ import annotations

import abc
from collections.abc import Callable

from infosets.core.checks import check_int, check_sampler_call
from infosets.core.rng import as_random
from infosets.filtering.mcmc import AssignmentTable, RingSwapChain, check_chain_args
from infosets.filtering.public_state import TrickTakingPublicState

MODES = ("mcmc", "uniform")


class DealWorlds(abc.ABC):
    """Worlds consistent with the acting player's information state, from deal constraints.

    The sampler has no randomness of its own: every draw comes from the ``rng`` the search
    hands to each call (``ISMCTSBot`` passes its generator), so one seed drives the search
    and its worlds, and identical seeds give identical worlds.

    Args:
      mode: "mcmc" (a RingSwap chain whose target is the reach model's probability of the
        public actions given the deal) or "uniform" (exact uniform deals).
      transitions: chain transitions per sampled world (mcmc mode), an int >= 1.
      burn_in: transitions before the first world of a new information state, an int >= 0.

    A game subclasses it and supplies ``public_state``, ``own_hand``, ``log_reach`` and
    ``world``: they are abstract, so a subclass missing one cannot be built (TypeError naming
    it) instead of failing at its first world.
    """

    def __init__(self, mode: str = "mcmc", transitions: int = 5, burn_in: int = 20):
        if mode not in MODES:
            raise ValueError(f"mode: {mode!r} must be one of {MODES}")
        transitions = check_int(transitions, "transitions", lo=1)
        burn_in = check_int(burn_in, "burn_in")
        check_chain_args(num_samples=0, burn_in=burn_in)
        self.mode, self.transitions, self.burn_in = mode, transitions, burn_in
        self._key = self._public = self._table = self._chain = None

    # ------------------------------------------------------------------ the game's hooks
    @abc.abstractmethod
    def public_state(self, state) -> TrickTakingPublicState:
        """What every player has seen (hashable; its ``constraints`` give the deal constraints)."""
        raise NotImplementedError

    @abc.abstractmethod
    def own_hand(self, state, player: int) -> int:
        """``player``'s initial hand (bitmask), which every world keeps."""
        raise NotImplementedError

    @abc.abstractmethod
    def log_reach(self, public) -> Callable[[tuple[int, ...]], float]:
        """The chain's target: log probability of ``public``'s actions given a deal (hands)."""
        raise NotImplementedError

    @abc.abstractmethod
    def world(self, state, player: int, public, hands, rand):
        """The pyspiel state that deal ``hands`` and ``public``'s actions make (``rand``: a
        ``random.Random`` for any draw the construction needs)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ sampling
    def _prepare(self, state, player: int, rand) -> None:
        public = self.public_state(state)
        own = self.own_hand(state, player)
        key = (public, player, own)
        if key == self._key:
            return
        self._key, self._public = key, public
        constraints = public.constraints(fixed_hands={player: own})
        self._table = AssignmentTable(constraints)
        if self.mode == "mcmc":
            start = self._table.sample(rand)
            self._chain = RingSwapChain(constraints, self.log_reach(public), rand.getrandbits(63),
                                        initial=start)
            self._chain.run(self.burn_in)

    def _hands(self, state, player: int, rand) -> tuple[int, ...]:
        self._prepare(state, player, rand)
        if self.mode == "uniform":
            return self._table.sample(rand)
        self._chain.rand = rand
        self._chain.run(self.transitions)
        return self._chain.hands

    def sample_hands(self, state, player: int, rng) -> tuple[int, ...]:
        """A deal (initial hand bitmasks) consistent with ``player``'s information state,
        drawn with ``rng`` (numpy Generator, SeedSequence or int seed; ``infosets.core.rng``): one
        ``random.Random`` seeded from it drives this call's draws, the chain's included."""
        check_sampler_call(state, player, state.num_players())
        return self._hands(state, player, as_random(rng))

    def __call__(self, state, player: int, rng):
        """The resampler: a world (pyspiel state) consistent with the information state."""
        check_sampler_call(state, player, state.num_players())
        rand = as_random(rng)
        hands = self._hands(state, player, rand)
        return self.world(state, player, self._public, hands, rand)
