"""The MCMC history sampler as a policy-aware IS-MCTS resampler for ``oh_hell``.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), sections 2.3 and 6: IS-MCTS samples a history for each iteration; the
chain generates it from the player's belief P(h | S_i) under the opponents' known policy
instead of uniformly. OpenSpiel 2.0.2's Python bindings do not expose
``ISMCTSBot.SetResampler``, so the sampler plugs into ``infosets.search.ismcts.ISMCTSBot``
through its ``sampler(state, player, rng) -> world`` argument; the callable also matches the
C++ ``InfostateResampler`` shape (state, player, rng).

``InfostateSampler(mode="mcmc")`` keeps one chain per information state and advances it
``transitions`` steps per call; ``mode="uniform"`` draws uniformly among the deals
consistent with the information state (void-aware, policy-blind).
"""

from __future__ import annotations

from infosets.core.rng import as_random
from infosets.filtering.mcmc import AssignmentTable, RingSwapChain
from infosets.filtering.policies import OhHellRange, SoftmaxQPolicy
from infosets.filtering.public_state import OhHellPublicState
from infosets.filtering.scenarios import true_hands

MODES = ("mcmc", "uniform")


class InfostateSampler:
    """Worlds consistent with the acting player's information state.

    The sampler has no randomness of its own: every draw comes from the ``rng`` the search
    hands to each call (``ISMCTSBot`` passes its generator), so one seed drives the search
    and its worlds, and identical seeds give identical worlds.

    Args:
      policy: the joint policy the opponents are believed to follow (mcmc mode).
      mode: "mcmc" (policy-aware chain) or "uniform".
      transitions: chain transitions per sampled world (mcmc mode), >= 1.
      burn_in: transitions before the first world of a new information state, >= 0.
    """

    def __init__(self, policy: SoftmaxQPolicy, mode: str = "mcmc", transitions: int = 5,
                 burn_in: int = 20):
        if mode not in MODES:
            raise ValueError(f"mode: {mode!r} must be one of {MODES}")
        if transitions < 1:
            raise ValueError(f"transitions: {transitions} must be >= 1")
        if burn_in < 0:
            raise ValueError(f"burn_in: {burn_in} must be >= 0")
        self.policy, self.mode = policy, mode
        self.transitions, self.burn_in = transitions, burn_in
        self._key = None
        self._ps = self._chain = self._table = None

    def _prepare(self, state, player, rand):
        ps = OhHellPublicState.from_state(state)
        own = true_hands(state)[player]
        key = (ps, player, own)
        if key == self._key:
            return
        self._key, self._ps = key, ps
        c = ps.constraints(fixed_hands={player: own})
        if self.mode == "uniform":
            self._table = AssignmentTable(c)
            return
        start = AssignmentTable(c).sample(rand)
        self._chain = RingSwapChain(c, OhHellRange(ps, self.policy).log_reach, rand.getrandbits(63),
                                    initial=start)
        self._chain.run(self.burn_in)

    def sample_hands(self, state, player, rng):
        """A deal (initial hand bitmasks) consistent with ``player``'s information state,
        drawn with ``rng`` (numpy Generator, SeedSequence or int seed; ``infosets.core.rng``): one
        ``random.Random`` seeded from it drives this call's draws, the chain's included."""
        rand = as_random(rng)
        self._prepare(state, player, rand)
        if self.mode == "uniform":
            return self._table.sample(rand)
        self._chain.rand = rand
        self._chain.run(self.transitions)
        return self._chain.hands

    def __call__(self, state, player, rng):
        """The resampler: a pyspiel ``oh_hell`` state consistent with the information state."""
        return self._ps_state(self.sample_hands(state, player, rng))

    def _ps_state(self, hands):
        return self._ps.to_state(hands, check=False)
