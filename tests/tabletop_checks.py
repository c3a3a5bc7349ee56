"""Checks shared by the tests of the tabletop ports (lib/infosets/games/_tabletop.py)."""

from __future__ import annotations

import copy

import numpy as np
import pyspiel
from scipy import stats

import infosets.games  # noqa: F401  (registers the games)
from infosets.games import _tabletop as tt


def play_to_decision(game, rng, min_moves: int):
    """A random pyspiel state at a decision node after at least ``min_moves`` player moves."""
    state = game.new_initial_state()
    moves = 0
    while True:
        if state.is_terminal():  # the game was shorter: aim earlier
            state = game.new_initial_state()
            moves = 0
            min_moves //= 2
            continue
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
            continue
        if moves >= min_moves:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        moves += 1


def check_adapter_agrees_with_kernel(game, seed: int, games: int = 20):
    """Random games through pyspiel and through a bare kernel give identical runs."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state()
        kernel = game.new_kernel()
        while not state.is_terminal():
            assert kernel.current_player() == state.current_player()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert outcomes == kernel.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                action = outcomes[rng.integers(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                assert legal == kernel.legal_actions()
                assert legal, "a decision node without legal actions"
                action = legal[rng.integers(len(legal))]
            state.apply_action(action)
            kernel.apply(action)
        assert kernel.is_terminal()
        assert state.returns() == kernel.returns()
        assert abs(sum(state.returns()) - 1.0) < 1e-9


def check_resample_keeps_infostate(game, seed: int, states: int = 30):
    """Every resampled world keeps the infostate and can be played to the end."""
    rng = np.random.default_rng(seed)
    for i in range(states):
        state = play_to_decision(game, rng, min_moves=int(rng.integers(0, 40)))
        player = state.current_player()
        for who in {player, int(rng.integers(game.num_players()))}:
            world = state.resample_from_infostate(
                who, pyspiel.UniformProbabilitySampler(int(rng.integers(1 << 30)), 0.0, 1.0))
            assert world.information_state_string(who) == state.information_state_string(who)
            assert world.observation_string(who) == state.observation_string(who)
            assert world.current_player() == state.current_player()
            if who == player:
                assert world.legal_actions() == state.legal_actions()
            tt.random_playout(world.kernel.copy(), rng)
            sampled = tt.sample_world(state, who, np.random.default_rng(i))
            again = tt.sample_world(state, who, np.random.default_rng(i))
            assert str(sampled) == str(again), "sample_world is not reproducible for one seed"


def chi_square_pvalue(observed: list[int], probs: list[float]) -> float:
    """p-value of a chi-square goodness-of-fit test of counts against probabilities."""
    observed = np.asarray(observed, dtype=float)
    expected = np.asarray(probs, dtype=float) * observed.sum()
    keep = expected > 0
    assert observed[~keep].sum() == 0, "an outcome with probability 0 occurred"
    return float(stats.chisquare(observed[keep], expected[keep]).pvalue)


def check_errors(game_name: str, bad_players: list[int]):
    """Wrong player counts and unknown parameters are refused at load time."""
    import pytest
    for n in bad_players:
        with pytest.raises((ValueError, pyspiel.SpielError), match="players"):
            pyspiel.load_game(f"{game_name}(players={n})")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game(f"{game_name}(no_such_parameter=1)")
    game = pyspiel.load_game(game_name)
    state = play_to_decision(game, np.random.default_rng(0), 0)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match="not legal"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match="player"):
        tt.sample_world(state, game.num_players(), np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        tt.sample_world(state, 0, 42)


def check_resample_along_games(game, seed: int, games: int):
    """At every decision of a few random games, every player's world keeps their view."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(tt.sample_chance(state.kernel, rng))
                continue
            mover = state.current_player()
            for who in range(game.num_players()):
                world = tt.sample_world(state, who, rng)
                assert world.information_state_string(who) == state.information_state_string(who)
                if who == mover:
                    assert world.legal_actions() == state.legal_actions()
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])


def slot_values(kernel) -> dict:
    """Every slot of a kernel object over its class hierarchy (an ``ArrayKernel`` holds its
    state in the inherited slot ``s``), arrays as lists so that snapshots compare with ==."""
    names = [n for cls in type(kernel).__mro__ for n in getattr(cls, "__slots__", ())]
    values = {name: getattr(kernel, name) for name in names}
    return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in values.items()}


def _kernel_fields(kernel) -> dict:
    """Every field of a kernel, deep-copied (a snapshot that later moves cannot alter)."""
    return copy.deepcopy(slot_values(kernel))


def check_kernel_is_a_search_state(game, seed: int, moves: int = 400):
    """The kernel's pyspiel-style aliases drive the same game as the pyspiel state.

    From a random decision state, a ``clone()`` of its kernel and a clone of the pyspiel
    state play up to ``moves`` random actions (chance drawn by its probabilities) side by
    side through ``apply_action``; before each action and at the end they agree on the mover,
    ``is_chance_node``, ``is_terminal``, the legal actions (the chance outcomes at chance
    nodes) and every player's information state string, and at the end on the returns (most
    ports end within 400 actions; virus and dominion usually do not). The clone is
    independent: the original kernel's fields are unchanged by the playout, and a second
    clone taken after 5 actions is unchanged by the moves that follow it."""
    rng = np.random.default_rng(seed)
    state = play_to_decision(game, rng, 3)
    kernel = state.kernel.clone()
    assert kernel is not state.kernel and not kernel.is_chance_node()
    assert type(kernel) is type(state.kernel)
    before = _kernel_fields(state.kernel)
    real = state.clone()
    players = range(game.num_players())
    mid, mid_fields = None, None
    for step in range(moves + 1):
        assert kernel.current_player() == real.current_player(), step
        assert kernel.is_chance_node() == real.is_chance_node(), step
        assert kernel.is_terminal() == real.is_terminal(), step
        for p in players:
            assert kernel.information_state_string(p) == real.information_state_string(p), (step, p)
        if real.is_terminal() or step == moves:
            break
        if real.is_chance_node():
            outcomes = real.chance_outcomes()
            assert kernel.chance_outcomes() == outcomes, step
            actions, probs = zip(*outcomes)
            action = actions[rng.choice(len(actions), p=np.asarray(probs) / sum(probs))]
        else:
            legal = real.legal_actions()
            assert kernel.legal_actions() == legal, step
            action = legal[rng.integers(len(legal))]
        if step == 5:
            mid = kernel.clone()
            mid_fields = _kernel_fields(mid)
        kernel.apply_action(int(action))
        real.apply_action(int(action))
    assert kernel.returns() == real.returns()
    assert _kernel_fields(state.kernel) == before, "playing the clone changed the original"
    if mid is not None:
        assert _kernel_fields(mid) == mid_fields, "playing the kernel changed its later clone"
        assert _kernel_fields(mid) != _kernel_fields(kernel), "no move was made after the clone"


def tensor_blocks(tensor, layout) -> dict:
    """``{name: block}`` of a flat tensor cut by ``layout``, a list of ``(name, shape)`` (an
    int shape gives a flat block), in order."""
    out, start = {}, 0
    for name, shape in layout:
        size = int(np.prod(shape))
        out[name] = np.asarray(tensor[start:start + size]).reshape(shape)
        start += size
    return out


def player_views(state, layout, obs_size, hi=None):
    """Yield ``(p, blocks)`` for each player p, ``blocks`` its observation tensor cut by
    ``layout``, after the checks every port's tensors share: finite and non-negative (and at
    most ``hi``), the information state tensor beginning with the observation, and one-hots of
    p in ``player`` and of the mover in ``mover`` (zero at the end)."""
    n, mover = state.num_players(), state.current_player()
    for p in range(n):
        obs = np.asarray(state.observation_tensor(p))
        info = np.asarray(state.information_state_tensor(p))
        assert np.isfinite(info).all() and (info >= 0).all() and (hi is None or (info <= hi).all())
        np.testing.assert_array_equal(info[:obs_size], obs)  # the observation comes first
        blocks = tensor_blocks(obs, layout)
        np.testing.assert_array_equal(blocks["player"], np.eye(n)[p])
        np.testing.assert_array_equal(blocks["mover"], np.eye(n)[mover] if mover >= 0 else np.zeros(n))
        yield p, blocks


def play_checking_every_view(state, rng, check) -> int:
    """Play ``state`` to its end at random (chance by its probabilities), calling
    ``check(state)`` at every decision and at the end; every move must change every player's
    observation and information state tensors (in the ports tested with it every move is
    seen by all). Returns the number of moves made."""
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        check(state)
        before = [(state.observation_tensor(p), state.information_state_tensor(p))
                  for p in range(state.num_players())]
        state.apply_action(int(rng.choice(state.legal_actions())))
        moves += 1
        for p, (obs, info) in enumerate(before):
            assert state.observation_tensor(p) != obs, (p, state.history())
            assert state.information_state_tensor(p) != info, (p, state.history())
    check(state)
    return moves


def seven_wonders_age_one_last_turn(seed: int):
    """Seven Wonders at Age I, turn 5, player 2 to choose, after seeded random play in which
    player 1 put a card face down at turn 4: two-card hands, so the legal-move weights of the
    hidden choices differ most (the weighting tests of the adapter and the kernel sampler)."""
    from infosets.games.seven_wonders import game as sw

    state = pyspiel.load_game("seven_wonders").new_initial_state()
    rng, kernel = np.random.default_rng(seed), state.kernel
    while not (kernel.age == 1 and kernel.turn == 5 and state.current_player() == 2):
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(kernel, rng))
        elif kernel.age == 1 and kernel.turn == 4 and state.current_player() == 1:
            state.apply_action(sw.encode(sw.DISCARD, kernel.hands[1][0]))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


