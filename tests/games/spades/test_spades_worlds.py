"""Exact Spades worlds (games/spades/worlds.py), which ``sampler_for("spades")`` serves since
2026-11-29 in place of the replay chain: real states with the player's view in every phase,
uniform over the consistent deals (against an enumeration, late in a deal where the chain was
not), the voids kept, the last dealt card free to move, and the same worlds from the same
rng."""

import collections

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

from infosets.filtering.enumerate import iter_histories
from infosets.filtering.spades import SpadesPublicState, dealt_hands
from infosets.games.determinizers import determinizer_label, infostate_key, sampler_for
from infosets.games.spades.worlds import SpadesWorlds, read_plan
from random_play import play_until

GAME = pyspiel.load_game("spades")
P_MIN = 1e-3  # fixed seeds: the tests are deterministic; this only guards against real bias


def _play(decisions, seed=0):
    return play_until(GAME, np.random.default_rng(seed), decisions)


def _consistent_deals(state, player):
    """Every deal (as the four initial hands) that gives ``player`` its view, enumerated by the
    history-filtering machinery (an independent reading of the same rules)."""
    public = SpadesPublicState.from_state(state)
    return list(iter_histories(public.constraints({player: dealt_hands(state)[player]})))


def test_sampler_for_spades_is_the_exact_sampler():
    sampler = sampler_for(GAME)
    assert isinstance(sampler, SpadesWorlds)
    assert determinizer_label(GAME) == "exact worlds, replay-checked (SpadesWorlds)"


@pytest.mark.parametrize("decisions", [0, 3, 4, 9, 22, 41, 55])  # bids, leads, mid-trick, last trick
def test_worlds_are_real_states_with_the_players_view(decisions):
    state = _play(decisions, seed=decisions)
    player = state.current_player()
    sampler = SpadesWorlds(GAME)
    rng = np.random.default_rng(decisions)
    worlds = [sampler(state, player, rng) for _ in range(8)]
    for world in worlds:
        rebuilt = GAME.new_initial_state()
        for action in world.history():
            rebuilt.apply_action(action)
        assert str(rebuilt) == str(world)  # a real state: its history rebuilds it
        assert infostate_key(world, player) == infostate_key(state, player)
        assert world.current_player() == player
        assert dealt_hands(world)[player] == dealt_hands(state)[player]
    assert sampler.refused == 0
    if decisions < 52:  # by the last trick a hand's cards may all be known
        assert any(dealt_hands(w) != dealt_hands(state) for w in worlds)


@pytest.mark.parametrize("decisions,seed", [(46, 3), (42, 2)])  # (42, 2): three voids, one a spade lead
def test_worlds_are_uniform_over_the_consistent_deals_late_in_a_deal(decisions, seed):
    """Where the replay chain was not uniform (chi-square / dof about 25 at the first state:
    tests/filtering/test_spades.py), every consistent deal comes up equally often."""
    state = _play(decisions, seed)
    player = state.current_player()
    deals = _consistent_deals(state, player)
    assert 20 <= len(deals) <= 5000, len(deals)
    assert read_plan(state, player).num_deals() == len(deals)  # the exact counts agree
    sampler = SpadesWorlds(GAME)
    rng = np.random.default_rng(11)
    counts = collections.Counter(dealt_hands(sampler(state, player, rng))
                                 for _ in range(20 * len(deals)))
    assert set(counts) <= set(deals)
    assert scipy_stats.chisquare([counts[d] for d in deals]).pvalue > P_MIN


def test_a_spade_lead_and_a_failed_follow_limit_the_worlds():
    """Deals in which an opponent who led a spade still holds another suit, or one who did not
    follow still holds the led suit, never come up (they are not in the enumeration, and every
    world's replay gives the player's view)."""
    seen_lead = seen_follow = False
    for seed in range(30):
        state = _play(40, seed)
        player = state.current_player()
        plan = read_plan(state, player)
        for q in plan.opponents:
            if plan.allowed.get(q) == [3]:
                seen_lead = True
            elif q in plan.allowed:
                seen_follow = True
        sampler, rng = SpadesWorlds(GAME), np.random.default_rng(seed)
        for world in (sampler(state, player, rng) for _ in range(5)):
            hands, played = dealt_hands(world), plan.played_by
            for q in plan.limited:
                left = hands[q] & ~sum(1 << c for c in played[q])
                suits = {c // 13 for c in range(52) if (left >> c) & 1}
                assert suits <= set(plan.allowed[q]), (seed, q, suits)
    assert seen_lead and seen_follow


def test_the_last_dealt_card_moves():
    """Player 0 never sees player 3's last dealt card: it is in player 3's hand in a third of
    the worlds (13 of the 39 unseen places)."""
    state = _play(0)
    last = state.history()[51]
    sampler, rng = SpadesWorlds(GAME), np.random.default_rng(7)
    held = sum((dealt_hands(sampler(state, 0, rng))[3] >> last) & 1 for _ in range(300))
    assert scipy_stats.binomtest(held, 300, 13 / 39).pvalue > P_MIN


def test_the_same_rng_gives_the_same_worlds_and_another_seed_others():
    state = _play(20)
    player = state.current_player()

    def worlds(seed):
        sampler, rng = SpadesWorlds(GAME), np.random.default_rng(seed)
        return [tuple(sampler(state, player, rng).history()) for _ in range(3)]

    first = worlds(3)
    assert worlds(3) == first
    assert len(set(first)) == 3
    assert not set(worlds(4)) & set(first)


def test_a_state_still_dealing_or_of_another_game_is_refused_in_one_line():
    with pytest.raises(ValueError, match="^game: SpadesWorlds serves 'spades', not 'hearts'"):
        SpadesWorlds(pyspiel.load_game("hearts"))
    dealing = GAME.new_initial_state()
    with pytest.raises(ValueError, match="^state"):
        SpadesWorlds(GAME)(dealing, 0, np.random.default_rng(0))
