"""Spades on the history-filtering machinery (``infosets.filtering.spades``): the worked example
of a second trick-taking game. Its worlds keep the player's information state in every phase,
are real states whose every play is legal, never keep the last dealt card (the generic replay
chain did until 2026-11-29: tests/games/test_determinizers.py), are uniform over the consistent
deals (exactly, and through the chain; the generic replay chain is not, late in a deal), and
drive our IS-MCTS and PI-MCTS."""

import collections

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

from infosets.filtering.enumerate import iter_histories
from infosets.filtering.spades import (
    SpadesPublicState,
    SpadesWorlds,
    dealt_hands,
    world_from_hands,
)
from infosets.games.determinizers import infostate_key
from infosets.search.ismcts import ISMCTSBot
from infosets.search.pimcts import PIMCTSBot
from random_play import play_until

GAME = pyspiel.load_game("spades")


def _play(decisions, seed=0):
    """Random play past the deal until ``decisions`` moves (bids, then cards) were made."""
    return play_until(GAME, np.random.default_rng(seed), decisions)


def _replays_legally(world):
    fresh = GAME.new_initial_state()
    for action in world.history():
        if not fresh.is_chance_node():
            assert action in fresh.legal_actions(), (action, fresh)
        fresh.apply_action(action)
    return str(fresh) == str(world)


@pytest.mark.parametrize("mode", ["uniform", "mcmc"])
# bidding, first lead, mid-trick, late (seats 0, 0, 3, 2, 2). Bids do not enter the public
# state (plays only), so the bidding phase is one public state: 3 decisions (seat 3, also seen
# at 9) was the same case as 0 and the dearest, about 6 s for its two modes.
@pytest.mark.parametrize("decisions", [0, 4, 9, 22, 41])
def test_worlds_keep_the_information_state_and_are_real_states(mode, decisions):
    state = _play(decisions)
    player = state.current_player()
    sampler = SpadesWorlds(mode)
    rng = np.random.default_rng(decisions)
    worlds = [sampler(state, player, rng) for _ in range(8)]
    for world in worlds:
        assert infostate_key(world, player) == infostate_key(state, player)
        assert world.current_player() == player
        assert _replays_legally(world)
        assert dealt_hands(world)[player] == dealt_hands(state)[player]
    assert any(dealt_hands(w) != dealt_hands(state) for w in worlds)


def test_a_failed_follow_and_a_spade_lead_make_voids():
    """Found by replay: whoever fails to follow is void in the led suit; a spade lead (legal
    only with nothing else in hand, since spades are never broken in OpenSpiel 2.0.2) makes
    its leader void in the three other suits."""
    seen_follow = seen_lead = False
    for seed in range(40):
        state = _play(40, seed)
        public = SpadesPublicState.from_state(state)
        hands = dealt_hands(state)
        for i, (player, card) in enumerate(public.plays):
            if i % 4 and card // 13 != public.plays[i - i % 4][1] // 13:
                assert public.void[player][public.plays[i - i % 4][1] // 13]
                seen_follow = True
            if i % 4 == 0 and card // 13 == 3:
                assert public.void[player][:3] == (True, True, True)
                seen_lead = True
        for player in range(4):  # the truth is always consistent with the voids
            later = hands[player] & ~public.played_by()[player]
            for suit in range(4):
                if public.void[player][suit]:
                    assert not any((later >> c) & 1 for c in range(13 * suit, 13 * suit + 13))
    assert seen_follow and seen_lead


def test_the_last_dealt_card_moves():
    """Player 0 never sees player 3's last dealt card: it lands in player 3's hand in a third
    of the worlds (13 of the 39 unseen places), not every time as with the replay chain
    before 2026-11-29."""
    state = _play(0)
    last = state.history()[51]
    sampler = SpadesWorlds("uniform")
    rng = np.random.default_rng(7)
    kept = sum(world.history()[51] == last for world in (sampler(state, 0, rng)
                                                          for _ in range(300)))
    held = sum((h[3] >> last) & 1 for h in (sampler.sample_hands(state, 0, rng)
                                            for _ in range(300)))
    assert kept < 30  # true card at its own position: 1/3 x 1/13 = 1 in 39, about 8 of 300
    assert scipy_stats.binomtest(held, 300, 13 / 39).pvalue > 1e-3


@pytest.mark.parametrize("mode", ["uniform", "mcmc"])
def test_worlds_are_uniform_over_the_consistent_deals(mode):
    state = _play(46, seed=3)  # 100 consistent deals
    player = state.current_player()
    public = SpadesPublicState.from_state(state)
    deals = list(iter_histories(public.constraints({player: dealt_hands(state)[player]})))
    assert 20 <= len(deals) <= 2000, len(deals)
    sampler = SpadesWorlds(mode, transitions=3, burn_in=10)
    rng = np.random.default_rng(11)
    draws = 40 * len(deals)
    counts = collections.Counter(sampler.sample_hands(state, player, rng) for _ in range(draws))
    assert set(counts) <= set(deals)
    observed = [counts[d] for d in deals]
    assert scipy_stats.chisquare(observed).pvalue > 1e-3


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "known limitation of games/history_replay.py's chain: late in a deal most unseen deal "
    "steps hold cards already played, so few of its moves change a hand (chi-square / dof about "
    "25 at thin 8, with or without the chain's block moves). Spades no longer reaches the chain "
    "(games/spades/worlds.py is its exact sampler); skat, crazy_eights, go_fish, gin_rummy and "
    "any game without a sampler of its own still do"))
def test_the_replay_chain_is_uniform_over_the_consistent_deals_late_in_a_deal():
    """The generic replay chain, which ``determinizers.sampler_for`` once served spades with
    (tests/games/spades/test_spades_worlds.py checks the exact sampler that replaced it on this
    state), against the enumeration of every deal consistent with the player's view (the
    state of the test above: 120 deals)."""
    from infosets.games.history_replay import ReplayDeterminizer

    state = _play(46, seed=3)
    player = state.current_player()
    public = SpadesPublicState.from_state(state)
    deals = list(iter_histories(public.constraints({player: dealt_hands(state)[player]})))
    sampler = ReplayDeterminizer(GAME, mode="chain")
    rng = np.random.default_rng(11)
    draws = 5 * len(deals)
    counts = collections.Counter(dealt_hands(sampler(state, player, rng)) for _ in range(draws))
    assert set(counts) <= set(deals)  # every world is a consistent deal
    assert scipy_stats.chisquare([counts[d] for d in deals]).pvalue > 1e-3


def test_the_chain_follows_an_opponent_model():
    """``log_reach`` reweights the chain: a model that favours deals giving player 1 the ace
    of spades puts it there more often than the uniform 1 in 3."""
    state = _play(0)
    ace = 51
    if (dealt_hands(state)[0] >> ace) & 1:
        pytest.skip("player 0 holds the ace")
    sampler = SpadesWorlds("mcmc", log_reach=lambda hands: 2.0 * ((hands[1] >> ace) & 1),
                           transitions=3)
    rng = np.random.default_rng(5)
    share = np.mean([(sampler.sample_hands(state, 0, rng)[1] >> ace) & 1 for _ in range(600)])
    expected = np.exp(2.0) / (np.exp(2.0) + 2)  # odds e^2 : 1 : 1 over the three seats
    assert abs(share - expected) < 0.08, (share, expected)


def test_the_same_rng_gives_the_same_worlds():
    """The worlds come from the rng of each call only (``DealWorlds``): one seed gives one
    sequence of worlds, another seed another, and successive draws differ (the chain moves).
    The same-seed half alone, all that was checked before, passed a sampler that ignored its
    rng for a fixed seed of its own, which makes every seed of a search see the same worlds.
    After four tricks (a position whose deal table builds in a fraction of a second) this
    deal has 2.3e10 consistent deals: two uniform draws coincide with probability 4e-11."""
    state = _play(20)
    player = state.current_player()

    def worlds(mode, seed):
        sampler, rng = SpadesWorlds(mode), np.random.default_rng(seed)
        return [tuple(sampler(state, player, rng).history()) for _ in range(3)]

    for mode in ("uniform", "mcmc"):
        first = worlds(mode, 3)
        assert worlds(mode, 3) == first, mode
        assert len(set(first)) == 3, mode
        assert not set(worlds(mode, 4)) & set(first), mode


def test_bad_input_is_one_line_naming_the_parameter():
    with pytest.raises(ValueError, match="^mode:"):
        SpadesWorlds("gibbs")
    with pytest.raises(ValueError, match="^transitions:"):
        SpadesWorlds("mcmc", transitions=0)
    deal = GAME.new_initial_state()
    with pytest.raises(ValueError, match="^state:"):
        SpadesWorlds()(deal, 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="^state: a spades state"):
        SpadesPublicState.from_state(pyspiel.load_game("hearts").new_initial_state())
    state = _play(0)
    hands = list(dealt_hands(state))
    hands[1], hands[2] = hands[2], hands[1]
    world = world_from_hands(state, 0, hands, np.random.default_rng(0))  # still a real state
    assert dealt_hands(world) == tuple(hands)


class _Recording(SpadesWorlds):
    """SpadesWorlds that records each call: the state's history, the player and the
    information-state key of the world it returned to that player."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = []

    def __call__(self, state, player, rng):
        world = super().__call__(state, player, rng)
        self.calls.append((tuple(state.history()), player, infostate_key(world, player)))
        return world


def test_worlds_drive_ismcts_and_pimcts():
    """The bots search this module's worlds: IS-MCTS asks the sampler for one world per
    iteration (30) and PI-MCTS for one per determinization (3), each time at the real state
    for the searching player, and each world keeps that player's information state. The
    test checked only that the move was legal before, which a bot that ignored its
    ``sampler`` (falling back to the game's default determinizer) passed. The position is
    four tricks in, where the sampler's deal table builds in a fraction of a second."""
    state = _play(20)
    player = state.current_player()
    expected = (tuple(state.history()), player, infostate_key(state, player))
    rng = np.random.default_rng(0)
    for make, count in ((lambda s: ISMCTSBot(GAME, player, iterations=30, rng=rng, sampler=s), 30),
                        (lambda s: PIMCTSBot(GAME, player, iterations=30, determinizations=3,
                                             rng=rng, sampler=s), 3)):
        sampler = _Recording("mcmc")
        assert make(sampler).step(state) in state.legal_actions()
        assert sampler.calls == [expected] * count
