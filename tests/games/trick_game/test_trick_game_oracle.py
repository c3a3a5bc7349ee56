"""CG nC (``trick_game``, docs/papers/belief_mixtures.md) on its numba rules against the frozen
pure-Python oracle (``oracle.py``, the former ``array_rules.TrickState``): random games agree step
by step on every field, the mover, the legal actions, the chance outcomes, the returns, the
strings, the tensors of every observer and the inputs of the world samplers; illegal actions
fail alike; seeded playouts play the same games (the worlds and searches drawn through the
Python adapter do not move)."""

import dataclasses
import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers trick_game)
from infosets.games.trick_game import array_rules as K
from infosets.games.trick_game import game as T


def _load_oracle():
    """``oracle.py`` beside this file, registered in ``sys.modules`` first (its ``Deck`` is a
    dataclass, which looks its module up there)."""
    name = "trick_game_oracle"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("oracle.py"))
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


oracle = _load_oracle()
FIELDS = ("dealt", "hands", "plays", "lead", "player", "tricks", "voids", "hand_size")
QUERIES = (
    "is_chance",
    "is_terminal",
    "num_dealt",
    "undealt_mask",
    "played_mask",
    "legal_mask",
    "returns",
    "plays_string",
    "current_player",
    "is_chance_node",
)
OBSERVERS = [
    pyspiel.IIGObservationType(public_info=True, perfect_recall=recall, private_info=private)
    for recall in (True, False)
    for private in (
        pyspiel.PrivateInfoType.NONE,
        pyspiel.PrivateInfoType.SINGLE_PLAYER,
        pyspiel.PrivateInfoType.ALL_PLAYERS,
    )
]


def _views(game, state) -> list:
    """Every observer's string and tensor for both players, and the state string, of a pyspiel
    state or of an object whose ``kernel`` (and ``_k``) is a state of the rules."""
    views = [T.TrickGameState.__str__(state)]
    for obs_type in OBSERVERS:
        observer = game.make_py_observer(obs_type)
        for player in (0, 1):
            observer.set_from(state, player)
            views.append((observer.string_from(state, player), observer.tensor.tolist()))
    return views


def _assert_same(game, state, theirs, step) -> None:
    ours = state.kernel
    for name in FIELDS:
        assert getattr(ours, name) == getattr(theirs, name), (step, name)
    for name in QUERIES:
        assert getattr(ours, name)() == getattr(theirs, name)(), (step, name)
    assert dataclasses.astuple(ours.deck) == dataclasses.astuple(theirs.deck)
    assert state.returns() == theirs.returns(), step
    for player in (0, 1):
        assert ours.information_state_string(player) == theirs.information_state_string(player)
        assert state.information_state_string(player) == theirs.information_state_string(player)
    if not theirs.is_terminal():
        assert ours.trick_leader() == theirs.trick_leader(), step
    shim = SimpleNamespace(kernel=theirs, _k=theirs)
    assert _views(game, state) == _views(game, shim), step
    # what the world samplers draw from (the draws themselves read only these and the rng)
    for player in (0, 1):
        assert T._opponent_slots(ours, player) == T._opponent_slots(theirs, player), step
    assert T._public_slots(ours) == T._public_slots(theirs), step
    assert T._deal_probability(ours) == T._deal_probability(theirs), step


def _assert_illegal_fails_alike(state, theirs, rng) -> None:
    """An illegal action raises the same ValueError on both and changes neither (the next
    ``_assert_same`` sees the state unchanged)."""
    legal = set(theirs.legal_actions())
    illegal = [a for a in range(-2, theirs.deck.num_cards + 2) if a not in legal]
    action = illegal[int(rng.integers(len(illegal)))]
    with pytest.raises(ValueError) as ours_error:
        state.kernel.apply_legal(action)
    with pytest.raises(ValueError) as oracle_error:
        theirs.check_legal(action)
    assert str(ours_error.value) == str(oracle_error.value)
    if action >= 0:  # pyspiel itself rejects -1
        with pytest.raises(ValueError, match="action"):
            state.apply_action(action)


@pytest.mark.parametrize(
    "num_cards, hand_size, games", [(10, 3, 40), (20, 6, 30), (13, 5, 30), (8, 4, 30), (52, 26, 4)]
)
def test_random_games_agree_with_the_oracle(num_cards, hand_size, games):
    game = pyspiel.load_game("trick_game", {"num_cards": num_cards, "hand_size": hand_size})
    rng = np.random.default_rng(num_cards * 100 + hand_size)
    for _ in range(games):
        state, theirs = game.new_initial_state(), oracle.TrickState(num_cards, hand_size)
        step = 0
        while True:
            _assert_same(game, state, theirs, step)
            if theirs.is_terminal():
                break
            if step % 3 == 0:
                _assert_illegal_fails_alike(state, theirs, rng)
            if theirs.is_chance():
                assert (
                    state.chance_outcomes() == state.kernel.chance_outcomes() == theirs.chance_outcomes()
                ), step
                legal = [a for a, _ in theirs.chance_outcomes()]
            else:
                legal = theirs.legal_actions()
                assert state.legal_actions() == state.kernel.legal_actions() == legal, step
            action = legal[int(rng.integers(len(legal)))]
            child = state.kernel.child(action)
            assert child.s is not state.kernel.s and child.player == theirs.child(action).player
            state.apply_action(action)
            theirs.apply(action)
            step += 1
        with pytest.raises(ValueError, match="over"):
            state.kernel.check_legal(0)
        assert state.is_terminal()


@pytest.mark.parametrize("num_cards, hand_size", [(10, 3), (20, 6), (20, 10)])
def test_seeded_playouts_and_deals_agree_with_the_oracle(num_cards, hand_size):
    for seed in range(20):
        ours, theirs = K.TrickState(num_cards, hand_size), oracle.TrickState(num_cards, hand_size)
        assert K.random_playout(ours, np.random.default_rng(seed)) == oracle.random_playout(
            theirs, np.random.default_rng(seed)
        )
        assert (ours.dealt, ours.plays, ours.tricks) == (theirs.dealt, theirs.plays, theirs.tricks)
        plays = theirs.plays[: seed % (2 * hand_size)]
        rebuilt = K.from_deal(num_cards, hand_size, tuple(theirs.dealt), plays)
        reference = oracle.from_deal(num_cards, hand_size, tuple(theirs.dealt), plays)
        assert rebuilt.plays_string() == reference.plays_string()
        for name in FIELDS:
            assert getattr(rebuilt, name) == getattr(reference, name), name
        assert K.deal_actions(tuple(ours.dealt)) == oracle.deal_actions(tuple(theirs.dealt))
