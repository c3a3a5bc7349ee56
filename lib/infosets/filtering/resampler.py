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
consistent with the information state (void-aware, policy-blind). The machinery is
``worlds.DealWorlds``, shared with ``spades.SpadesWorlds``; this module gives it oh_hell's
public state, hands, reach model and worlds.
"""

from __future__ import annotations

from infosets.filtering.policies import OhHellRange, SoftmaxQPolicy
from infosets.filtering.public_state import OhHellPublicState
from infosets.filtering.scenarios import true_hands
from infosets.filtering.worlds import DealWorlds


class InfostateSampler(DealWorlds):
    """``DealWorlds`` for OpenSpiel's ``oh_hell``, with the opponents' joint policy as the
    reach model (``policies.OhHellRange``).

    Args:
      policy: the joint policy the opponents are believed to follow (mcmc mode: required,
        an object with ``log_prob`` such as ``SoftmaxQPolicy``; unused in uniform mode).
      mode, transitions, burn_in: as ``DealWorlds``.
    """

    def __init__(self, policy: SoftmaxQPolicy, mode: str = "mcmc", transitions: int = 5,
                 burn_in: int = 20):
        super().__init__(mode, transitions, burn_in)
        if self.mode == "mcmc" and not callable(getattr(policy, "log_prob", None)):
            raise ValueError(f"policy: mode 'mcmc' needs the opponents' joint policy (an object with "
                             f"log_prob, e.g. SoftmaxQPolicy), got {type(policy).__name__}")
        self.policy = policy

    def public_state(self, state) -> OhHellPublicState:
        name = state.get_game().get_type().short_name
        if name != "oh_hell":
            raise ValueError(f"state: an oh_hell state is needed, got {name}")
        return OhHellPublicState.from_state(state)

    def own_hand(self, state, player: int) -> int:
        return true_hands(state)[player]

    def log_reach(self, public: OhHellPublicState):
        return OhHellRange(public, self.policy).log_reach

    def world(self, state, player: int, public: OhHellPublicState, hands, rand):
        return public.to_state(hands, check=False)
