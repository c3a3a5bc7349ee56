"""The generic tabletop kernel over a game's array rules (lib/infosets/games/array_kernel.py),
on the games that use it (pimcts_aggregation's ports; sushi_go first): it calls the jitted
rules and nothing else, copies are independent, it serves as a search state, and the
engine's record converts states and arrays without replay."""

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401  (registers the games)
from infosets.games import _tabletop as tt
from infosets.games.array_kernel import ArrayKernel
from infosets.games.kernels import kernel_for

ARRAY_GAMES = [
    "sushi_go(players=3)",
    "sushi_go(players=5)",
    "love_letter(players=3)",
    "love_letter(players=4)",
]


def _random_kernels(game, seed: int, limit: int = 10_000):
    """The kernel of one random game at every step (chance by its probabilities)."""
    rng = np.random.default_rng(seed)
    kernel = game.new_kernel()
    for _ in range(limit):
        yield kernel
        if kernel.is_terminal():
            return
        if kernel.is_chance_node():
            kernel.apply(tt.sample_chance(kernel, rng))
        else:
            legal = kernel.legal_actions()
            kernel.apply(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", ARRAY_GAMES)
def test_kernel_answers_are_the_jitted_rules(name):
    """Each answer is the kernel module's function on the same array, step by step."""
    game = pyspiel.load_game(name)
    kernel = game.new_kernel()
    assert isinstance(kernel, ArrayKernel)
    rules, n = type(kernel).RULES, game.num_players()
    buf, probs, out = np.zeros(kernel.NUM_ACTIONS, np.int64), np.zeros(kernel.NUM_ACTIONS), np.zeros(n)
    for k in _random_kernels(game, seed=1):
        mover = rules.nb_current_player(k.s)
        assert k.current_player() == mover and k.is_terminal() == (mover == tt.TERMINAL)
        assert k.is_chance_node() == (mover == tt.CHANCE)
        assert k.legal_actions() == buf[: rules.nb_legal_actions(k.s, buf)].tolist()
        if mover == tt.CHANCE:
            m = rules.nb_chance_outcomes(k.s, buf, probs)
            assert k.chance_outcomes() == list(zip(buf[:m].tolist(), probs[:m].tolist()))
            assert all(type(a) is int and type(p) is float for a, p in k.chance_outcomes())
        rules.nb_returns(k.s, out)
        assert k.returns() == out.tolist()
    assert k.is_terminal() and sum(k.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ARRAY_GAMES)
def test_kernel_is_a_search_state(name):
    """``clone``/``apply_action`` drive the same game as the pyspiel state, and clones are
    independent (the array kernel's form of ``tabletop_checks.check_kernel_is_a_search_state``,
    whose field snapshot reads named slots)."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(tt.sample_chance(state, rng))
    kernel, real = state.kernel.clone(), state.clone()
    assert kernel is not state.kernel and type(kernel) is type(state.kernel)
    before, mid = state.kernel.s.tolist(), None
    players = range(game.num_players())
    for step in range(10_000):
        assert kernel.current_player() == real.current_player()
        assert kernel.is_terminal() == real.is_terminal()
        assert [kernel.information_state_string(p) for p in players] == [
            real.information_state_string(p) for p in players
        ]
        if real.is_terminal():
            break
        action = (
            tt.sample_chance(real, rng)
            if real.is_chance_node()
            else real.legal_actions()[int(rng.integers(len(real.legal_actions())))]
        )
        if not real.is_chance_node():
            assert kernel.legal_actions() == real.legal_actions()
        if step == 5:
            mid, mid_array = kernel.clone(), kernel.s.tolist()
        kernel.apply_action(action)
        real.apply_action(action)
    assert kernel.returns() == real.returns()
    assert state.kernel.s.tolist() == before, "playing the clone changed the original"
    assert mid.s.tolist() == mid_array, "playing the kernel changed its later clone"
    assert mid.s.tolist() != kernel.s.tolist()


@pytest.mark.parametrize("name", ARRAY_GAMES)
def test_engine_record_converts_without_replay(name):
    """``from_state`` is the kernel's array (a copy, equal to the replayed history's),
    ``to_state`` wraps an array (not copied) into a state with the same strings, and the
    record's string of an array is the adapter's."""
    game = pyspiel.load_game(name)
    record = kernel_for(game)
    for step, k in enumerate(_random_kernels(game, seed=2)):
        if step % 7:
            continue
        state = record.to_state(game, k.s)
        assert state.kernel.s is k.s and state.history() == []
        array = record.from_state(state)
        assert array is not k.s and array.tolist() == k.s.tolist()
        for p in range(game.num_players()):
            assert record.infostate_string(array, p) == k.information_state_string(p)
            assert state.information_state_string(p) == k.information_state_string(p)
    history_state = game.new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(150):
        history_state.apply_action(
            tt.sample_chance(history_state, rng)
            if history_state.is_chance_node()
            else history_state.legal_actions()[0]
        )
    assert record.from_history(history_state.history()).tolist() == record.from_state(history_state).tolist()


def test_wrap_shares_the_array_and_copy_does_not():
    game = pyspiel.load_game("sushi_go")
    kernel = game.new_kernel()
    wrapped = type(kernel).wrap(kernel.s)
    copied = kernel.copy()
    kernel.apply(kernel.legal_actions()[0])
    assert wrapped.s is kernel.s and copied.s.tolist() != kernel.s.tolist()
