"""Every determinizer of the table, phase by phase: the infostate is kept, a world's history
rebuilds it, and the truth comes back no more often than chance allows (issue: determinizers
must never hand back the truth). Phases, policies and the chance bound: determinizer_phases.py.
"""

import inspect

import numpy as np
import pyspiel
import pytest
from scipy import stats

from determinizer_phases import SCENARIOS, states_by_phase, truth_probability_bound
from infosets.games import belote2p
from infosets.games.determinizers import CHAIN_GAMES, infostate_key, sampler_for
from infosets.games.history_replay import ReplayDeterminizer

ALPHA = 1e-6  # a correct sampler exceeds the threshold with probability < ALPHA (seeds are fixed)
TABLETOP = {"sushi_go", "love_letter", "exploding_kittens", "virus", "stratego", "dominion"}
SLOW = CHAIN_GAMES | {"belote2p", "crazy_eights", "oh_hell"}


def _replayed(game, world):
    state = game.new_initial_state()
    for action in world.history():
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_phase_keeps_the_infostate_and_never_leaks_the_truth(name):
    game = pyspiel.load_game(name)
    short = game.get_type().short_name
    found = states_by_phase(name, seed=0)
    assert set(found) == set(SCENARIOS[name][1]), "a phase was not reached"
    sampler = sampler_for(game)
    # 30 worlds in every game: with 8 (the slow games until 2026-11-27) and ALPHA = 1e-9 the
    # threshold reached 8 whenever the truth's probability exceeded ~0.075, so a sampler that
    # always returned the truth passed go_fish, skat and belote2p
    samples = 30
    rng = np.random.default_rng(1)
    for phase, state in found.items():
        player = state.current_player()
        key = infostate_key(state, player)
        hits = 0
        if isinstance(sampler, ReplayDeterminizer):
            sampler.start_seconds = _start_seconds(short, phase)
        try:
            sampler(state, player, rng)
        except RuntimeError as error:  # the chain found no start without the truth
            assert (short, phase) in MAY_REFUSE, f"{phase}: {error}"
            assert f"'{short}'" in str(error) and "\n" not in str(error)
            continue
        for _ in range(samples):
            world = sampler(state, player, rng)
            assert infostate_key(world, player) == key, phase
            assert str(_replayed(game, world)) == str(world), f"{phase}: history() is not the world"
            hits += str(world) == str(state)
        if hits:
            bound, _ = truth_probability_bound(state, player, max_trials=60 if short in SLOW else 300)
            allowed = stats.binom.isf(ALPHA, samples, bound)
            assert hits <= allowed, f"{phase}: truth {hits}/{samples}, chance allows <= {allowed}"


@pytest.mark.parametrize("name", sorted(TABLETOP))
def test_tabletop_world_history_rebuilds_the_world(name):
    game = pyspiel.load_game(name)
    found = states_by_phase(name, seed=0)
    rng = np.random.default_rng(1)
    sampler = sampler_for(game)
    for state in found.values():
        player = state.current_player()
        for _ in range(5):
            world = sampler(state, player, rng)
            rebuilt = _replayed(game, world)
            assert str(rebuilt) == str(world)
            assert all(rebuilt.information_state_string(p) == world.information_state_string(p)
                       for p in range(game.num_players()))
            assert world.information_state_string(player) == state.information_state_string(player)


def test_belote_worlds_with_other_deals_have_other_histories():
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(3)
    state = game.new_state_from_deal(belote2p.fair_deal(rng, game.constraint), 0)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    worlds = [belote2p.sample_world(state, 1, rng) for _ in range(6)]
    assert len({str(w) for w in worlds}) > 1
    assert len({tuple(w.history()) for w in worlds}) == len({str(w) for w in worlds})
    for world in worlds:
        assert world.history()[:33] != state.history()[:33] or str(world) == str(state)
        assert str(_replayed(game, world)) == str(world)


def test_gin_rummy_worlds_replay_to_themselves():
    """OpenSpiel 2.0.2's gin_rummy resampler returns the real history with other cards."""
    game = pyspiel.load_game("gin_rummy")
    found = states_by_phase("gin_rummy", seed=0)
    rng = np.random.default_rng(2)
    state = found["draw"]
    world = sampler_for(game)(state, state.current_player(), rng)
    assert str(_replayed(game, world)) == str(world)


# -- the chain's start (issue 52 item 2) --------------------------------------------------------
# Phases where no consistent world is found without the truth within the default budget: the
# sampler refuses (one line naming the game) instead of handing back the real history.
# gin_rummy's layoff: the knock is legal only for a hand of low deadwood, which no repair meets;
# crazy_eights: the hand shown once the deal ends is met card by card, often past the budget;
# skat's play: up to ~9 s of repairs, past the start's 10 s on a loaded machine.
MAY_REFUSE = {("gin_rummy", "layoff"), ("crazy_eights", "opening"), ("crazy_eights", "play"),
              ("skat", "playing")}
# The phases that refuse on every machine (skat's play starts in ~9 s on an idle one): their
# start is cut at 1 s instead of the default 10, which every call there waited out (about 50 s
# of the two tests below). What they check is the refusal (one line naming the game): it comes
# sooner, the same way.
NEVER_START = MAY_REFUSE - {("skat", "playing")}
REFUSAL_SECONDS = 1.0
FRESH_CHAINS = 6


def _start_seconds(short, phase) -> float:
    """The chain's start budget in ``phase`` of the game named ``short``."""
    default = inspect.signature(ReplayDeterminizer).parameters["start_seconds"].default
    return REFUSAL_SECONDS if (short, phase) in NEVER_START else default


def _fresh_chain_worlds(game, state, player, seed, phase):
    """The first world of each of ``FRESH_CHAINS`` new chains with no burn-in and one proposal:
    the start itself, nearly (the old chain started at the real history)."""
    worlds = []
    start_seconds = _start_seconds(game.get_type().short_name, phase)
    for k in range(FRESH_CHAINS):
        sampler = ReplayDeterminizer(game, mode="chain", burn_in_sweeps=0, thin=1,
                                     start_seconds=start_seconds)
        worlds.append(sampler(state, player, np.random.default_rng([seed, k])))
    return worlds


@pytest.mark.parametrize("name", sorted(n for n in SCENARIOS
                                        if pyspiel.load_game(n).get_type().short_name in CHAIN_GAMES))
def test_the_chain_starts_from_a_world_drawn_without_the_truth(name):
    """Phase by phase, the share of fresh chains' first worlds equal to the truth against the
    share chance allows (``truth_probability_bound``). Fails on a chain that starts at the real
    history (nearly every first world is the truth)."""
    game = pyspiel.load_game(name)
    short = game.get_type().short_name
    for phase, state in states_by_phase(name, seed=0).items():
        player = state.current_player()
        try:
            worlds = _fresh_chain_worlds(game, state, player, seed=7, phase=phase)
        except RuntimeError as error:
            assert (short, phase) in MAY_REFUSE, f"{phase}: {error}"
            assert f"'{short}'" in str(error) and "\n" not in str(error)
            continue
        key = infostate_key(state, player)
        assert all(infostate_key(w, player) == key for w in worlds), phase
        hits = sum(str(w) == str(state) for w in worlds)
        if hits:
            bound, _ = truth_probability_bound(state, player, max_trials=60)
            allowed = stats.binom.isf(ALPHA, FRESH_CHAINS, bound)
            assert hits <= allowed, f"{phase}: truth {hits}/{FRESH_CHAINS}, chance allows <= {allowed}"
