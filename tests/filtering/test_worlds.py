"""The deal-constraint world sampler's base class (``infosets.filtering.worlds.DealWorlds``),
the machinery of the history-filtering IS-MCTS samplers (Solinas et al., arXiv 2311.14651,
sections 2.3 and 6): a game supplies four hooks, and a subclass missing one cannot be built."""

import pytest

from infosets.filtering.resampler import InfostateSampler
from infosets.filtering.spades import SpadesWorlds
from infosets.filtering.worlds import DealWorlds

HOOKS = ("public_state", "own_hand", "log_reach", "world")


def test_the_four_hooks_are_abstract():
    assert DealWorlds.__abstractmethods__ == frozenset(HOOKS)
    with pytest.raises(TypeError, match="abstract"):
        DealWorlds()


def test_a_subclass_missing_a_hook_fails_when_built_naming_it():
    """Until 2026-11-27 the hooks raised NotImplementedError, so a subclass without
    ``log_reach`` was built and failed only at its first world (mcmc mode)."""

    class NoReach(DealWorlds):
        def public_state(self, state):
            return None

        def own_hand(self, state, player):
            return 0

        def world(self, state, player, public, hands, rand):
            return state

    with pytest.raises(TypeError, match="log_reach"):
        NoReach()


def test_the_game_samplers_supply_every_hook():
    assert not InfostateSampler.__abstractmethods__
    assert not SpadesWorlds.__abstractmethods__
    assert SpadesWorlds().mode == "uniform"
    assert InfostateSampler(None, "uniform").mode == "uniform"
