"""Tests of the Colt Express port (lib/infosets/games/colt_express/game.py)."""

from collections import Counter

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _tabletop as tt
from infosets.games import determinizers
from infosets.games.colt_express import game as ce
from infosets.games.colt_express import kernel as ck
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_errors,
    check_kernel_is_a_search_state,
    check_resample_along_games,
    check_resample_keeps_infostate,
    chi_square_pvalue,
    play_checking_every_view,
    player_views,
)


def _sampler(seed):
    return pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)


def _colt_layout(n):
    """The documented observation tensor layout (module docstring), in order, as shapes."""
    cars, steps = n + 1, 5 * n
    return [("player", (n,)), ("phase", (2,)), ("round", (5,)), ("round_card", (10,)),
            ("turn", (5,)), ("turn_type", (4,)), ("mover", (n,)), ("characters", (n, 6)),
            ("spots", (n, cars, 2)), ("marshal", (cars,)), ("bullets_left", (n,)),
            ("bullet_cards", (n,)), ("train_loot", (cars, 2, 8)), ("bandit_loot", (n, 8)),
            ("hand", (7,)), ("deck", (7,)), ("hand_sizes", (n,)), ("deck_sizes", (n,)),
            ("pile", (steps, n + 8))]


def _check_colt_tensors(state, n, obs_size):
    kernel = state.kernel
    for p, v in player_views(state, _colt_layout(n), obs_size):
        for name in ("phase", "round", "round_card", "turn", "turn_type", "characters",
                     "spots", "marshal", "pile"):
            assert set(np.unique(v[name])) <= {0.0, 1.0}, name
        assert (v["spots"].reshape(n, -1).sum(axis=1) == 1).all()   # each bandit in one spot
        assert v["marshal"].sum() == 1
        assert ((v["bullets_left"] >= 0) & (v["bullets_left"] <= 1)).all()   # bullets / 6
        assert v["round"].sum() == (0 if state.is_terminal() else 1)
        # my hand and deck are mine; every bandit's hand and deck sizes are public
        np.testing.assert_array_equal(v["hand"], kernel.hand[p])
        np.testing.assert_array_equal(v["deck"], kernel.deck[p])
        np.testing.assert_array_equal(v["hand_sizes"], [sum(h) for h in kernel.hand])
        np.testing.assert_array_equal(v["deck_sizes"], [sum(d) for d in kernel.deck])
        assert v["hand_sizes"][p] == v["hand"].sum() and v["deck_sizes"][p] == v["deck"].sum()


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_sim_with_tensors(players):
    game = pyspiel.load_game(f"colt_express(players={players})")
    assert game.get_type().provides_observation_tensor
    assert game.get_type().provides_information_state_tensor
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    obs_size = game.observation_tensor_size()
    assert len(state.observation_tensor(0)) == obs_size
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    layout = _colt_layout(players)
    assert sum(int(np.prod(shape)) for _, shape in layout) == obs_size
    assert state.kernel.tensor_pieces(False) == layout
    rng = np.random.default_rng(players)
    moves = play_checking_every_view(state, rng, lambda s: _check_colt_tensors(s, players, obs_size))
    assert moves >= 20


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("colt_express"), seed=1, games=5)


@pytest.mark.parametrize("players", [3, 4])
def test_resample_keeps_infostate(players):
    check_resample_keeps_infostate(pyspiel.load_game(f"colt_express(players={players})"),
                                   seed=2, states=12)


def test_resample_at_every_decision():
    check_resample_along_games(pyspiel.load_game("colt_express"), seed=3, games=1)


def test_errors():
    check_errors("colt_express", bad_players=[1, 7])


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("colt_express"), seed=4)


def test_sampler_for_finds_the_replay_sampler():
    game = pyspiel.load_game("colt_express")
    assert determinizers.sampler_for(game) is ce.sample_world
    assert "colt_express" in determinizers.determinizable_games()


def _random_state(game, rng, moves):
    state = game.new_initial_state()
    while not state.is_terminal() and (state.is_chance_node() or moves > 0):
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            moves -= 1
    return state


def test_world_rebuilds_from_its_history():
    game = pyspiel.load_game("colt_express")
    rng = np.random.default_rng(5)
    for moves in (0, 7, 20, 45, 70):
        state = _random_state(game, rng, moves)
        for player in range(3):
            world = state.resample_from_infostate(player, _sampler(moves * 3 + player))
            rebuilt = game.new_initial_state()
            for action in world.history():
                rebuilt.apply_action(action)
            assert str(rebuilt) == str(world)
            assert world.information_state_string(player) == state.information_state_string(player)


def _hidden_position(seed):
    """A planning state whose mover faces an opponent with a face-down card on the pile."""
    game = pyspiel.load_game("colt_express")
    rng = np.random.default_rng(seed)
    for _ in range(200):
        state = _random_state(game, rng, int(rng.integers(2, 12)))
        k = state.kernel
        if state.is_terminal() or k.phase != ce.PLAN:
            continue
        mover = state.current_player()
        hidden = [e for e in k.pile if e[2] and e[0] != mover]
        if hidden:
            return state, mover, hidden[0][0]
    raise AssertionError("no position with a face-down opponent card")


def _exact_posterior(kernel, q):
    """Exact law of (q's hand, q's pending face-down cards) by enumerating q's round.

    Dynamic programming over q's events this round: a draw branches over the card types with
    the chance probability, a face-up play must be in hand, a face-down card branches
    uniformly over the playable types in hand (its type is unknown until resolved).
    """
    r = kernel.round
    events = [i for i, t in enumerate(kernel.tags) if t is not None and t[1] == q and t[2] == r]
    pending = {e[3] for e in kernel.pile}
    frontier = {(tuple(kernel.round_decks[r][q]), (0,) * ce.NUM_CARD_TYPES, ()): 1.0}
    for i in events:
        kind = kernel.tags[i][0]
        nxt = Counter()
        for (pool, hand, hidden), prob in frontier.items():
            if kind == ce.T_DRAW:
                total = sum(pool)
                for t, c in enumerate(pool):
                    if c:
                        p2, h2 = list(pool), list(hand)
                        p2[t] -= 1
                        h2[t] += 1
                        nxt[(tuple(p2), tuple(h2), hidden)] += prob * c / total
            elif kind == ce.T_FACE_UP or i not in pending:
                t = kernel.hist[i]
                if hand[t]:
                    h2 = list(hand)
                    h2[t] -= 1
                    weight = 1.0 if kind == ce.T_FACE_UP else 1.0 / sum(
                        1 for c in range(ce.PLAYABLE) if hand[c])
                    nxt[(pool, tuple(h2), hidden)] += prob * weight
            else:
                playable = [c for c in range(ce.PLAYABLE) if hand[c]]
                for t in playable:
                    h2 = list(hand)
                    h2[t] -= 1
                    nxt[(pool, tuple(h2), hidden + (t,))] += prob / len(playable)
        frontier = nxt
    law = Counter()
    for (_, hand, hidden), prob in frontier.items():
        law[(hand, hidden)] += prob
    total = sum(law.values())
    return {key: p / total for key, p in law.items()}


def _world_key(kernel, q):
    hidden = tuple(c for o, c, h, i in kernel.pile if o == q and h)
    return tuple(kernel.hand[q]), hidden


def test_resample_is_exact_over_consistent_worlds():
    state, mover, q = _hidden_position(6)
    law = _exact_posterior(state.kernel, q)
    assert len(law) > 3 and _world_key(state.kernel, q) in law
    rng = np.random.default_rng(7)
    counts = Counter()
    draws = 3000
    for _ in range(draws):
        world = ce.sample_world(state, mover, rng)
        counts[_world_key(world.kernel, q)] += 1
    assert set(counts) <= set(law), "a sampled world outside the consistent set"
    keys = sorted(law)
    assert chi_square_pvalue([counts[k] for k in keys], [law[k] for k in keys]) > 1e-3


def test_resample_is_reproducible_and_seeded():
    state, mover, _ = _hidden_position(8)
    a = state.resample_from_infostate(mover, _sampler(11))
    b = state.resample_from_infostate(mover, _sampler(11))
    assert a.history() == b.history()
    worlds = {tuple(state.resample_from_infostate(mover, _sampler(s)).history()) for s in range(20)}
    assert len(worlds) > 1


def test_tensors_do_not_leak():
    """Worlds drawn for a player give that player the same tensors; opponents' tensors vary."""
    game = pyspiel.load_game("colt_express")
    rng = np.random.default_rng(9)
    differs = 0
    phases = set()
    for moves in (3, 10, 16, 25, 40, 55, 80):
        state = _random_state(game, rng, moves)
        if state.is_terminal():
            continue
        phases.add(state.kernel.phase)
        for player in range(3):
            obs = state.observation_tensor(player)
            info = state.information_state_tensor(player)
            for _ in range(5):
                world = ce.sample_world(state, player, rng)
                assert world.observation_tensor(player) == obs
                assert world.information_state_tensor(player) == info
                other = (player + 1) % 3
                differs += world.information_state_tensor(other) != \
                    state.information_state_tensor(other)
    assert phases == {ce.PLAN, ce.RESOLVE}
    assert differs > 0


def _put(k, base, values):
    """Write ``values`` into the kernel's state array from slot ``base`` (kernel.py's layout)."""
    k.s[base : base + len(values)] = values


def _kernel(n=3, chars=(ce.GHOST, ce.CHEYENNE, ce.DJANGO)):
    """A kernel past setup, in the resolve phase with an empty pile (edit then resolve)."""
    k = ce.ColtExpressKernel(n)
    k.s[ck.QLEN] = 0
    _put(k, ck.CHARS, chars)
    k.s[ck.CARD] = 2
    k.s[ck.PHASE] = ck.RESOLVE
    return k


def _set_pile(k, entries):
    """The cards to resolve: (owner, card, face down, history index) each."""
    k.s[ck.PHEAD], k.s[ck.PEND] = 0, len(entries)
    _put(k, ck.PILE, [x for entry in entries for x in entry])


def _resolve(k, owner, card, action):
    _set_pile(k, [(owner, card, 0, 0), (owner, ce.ROB, 0, 0)])  # a second card keeps the round
    assert action in k.legal_actions(), (action, k.legal_actions())
    k.apply(action)


def test_marshal_sends_bandits_to_the_roof_with_a_bullet():
    k = _kernel()
    _put(k, ck.CAR, [2, 3, 0])
    k.s[ck.MARSHAL] = 3
    _resolve(k, 0, ce.SIDEWAYS, ce.MOVE_TO + 3)       # walking into the marshal's car
    assert (k.car[0], k.roof[0], k.deck[0][ce.BULLET]) == (3, 1, 1)
    k.s[ck.CAR + 1], k.s[ck.ROOF + 1] = 2, 0
    _resolve(k, 2, ce.MARSHAL, ce.MARSHAL_TO + 2)     # the marshal walks in on player 1
    assert k.marshal == 2
    assert (k.roof[1], k.deck[1][ce.BULLET]) == (1, 1)
    assert k.deck[2][ce.BULLET] == 0


def test_shooting_targets_belle_and_django():
    k = _kernel(chars=(ce.DJANGO, ce.BELLE, ce.DOC))
    _put(k, ck.CAR, [1, 2, 0])
    _put(k, ck.ROOF, [0, 0, 0])
    _set_pile(k, [(0, ce.SHOOT, 0, 0), (0, ce.ROB, 0, 0)])
    assert k.legal_actions() == [ce.SHOOT_AT + 2]     # Belle is spared while Doc is a target
    k.apply(ce.SHOOT_AT + 2)
    assert k.bullets_left[0] == 5 and k.deck[2][ce.BULLET] == 1
    assert k.car[2] == 0                             # Django pushes, but the caboose is the end
    k = _kernel(chars=(ce.DJANGO, ce.BELLE, ce.DOC))
    _put(k, ck.CAR, [1, 2, 3])
    _put(k, ck.ROOF, [1, 1, 1])
    _set_pile(k, [(0, ce.SHOOT, 0, 0), (0, ce.ROB, 0, 0)])
    assert k.legal_actions() == [ce.SHOOT_AT + 1]     # only the nearest roof; Belle alone
    k.apply(ce.SHOOT_AT + 1)
    assert k.car[1] == 3                             # pushed one car away from Django


def test_punch_drops_loot_and_cheyenne_steals_purses():
    k = _kernel()
    _put(k, ck.CAR, [1, 1, 1])
    _put(k, ck.ROOF, [0, 0, 0])
    _put(k, ck.PLOOT + 2 * ce.NUM_LOOT, [0, 0, 0, 0, 0, 1, 1, 0])   # a 500 purse and a jewel
    action = ce.punch_action(2, True, ce.JEWEL)
    _resolve(k, 0, ce.PUNCH, action)                  # Ghost punches: the jewel drops
    assert k.loot[2][ce.JEWEL] == 1 and k.car[2] == 2
    k.s[ck.CAR + 2] = 1
    _resolve(k, 1, ce.PUNCH, ce.punch_action(2, False, 5))   # Cheyenne takes the purse
    assert k.ploot[1][5] == 1 and k.ploot[2] == [0] * 8 and k.car[2] == 0


def test_round_schedule_reverse_and_double_turns():
    k = ce.ColtExpressKernel(3)
    _put(k, ck.CHARS, [ce.GHOST, ce.CHEYENNE, ce.DJANGO])
    k.s[ck.QLEN] = 0
    k.s[ck.ROUND] = 1
    ck._start_round(k.s, 5)                          # Take It All: N, H, D, R; first player 1
    movers = [p for p, _, _ in k.sched]
    assert movers == [1, 2, 0] + [1, 2, 0] + [1, 1, 2, 2, 0, 0] + [1, 0, 2]
    assert sum(1 for kind, _ in k.queue if kind == ce.CH_DRAW) == 18


def test_shooter_reward_and_tie_break():
    k = _kernel()
    k.s[ck.DONE] = 1
    _put(k, ck.PLOOT, [0, 0, 0, 0, 0, 0, 0, 1] + [0] * 8 + [0, 0, 0, 0, 0, 0, 2, 0])
    _put(k, ck.BLEFT, [6, 6, 4])
    assert k.scores() == [1000, 0, 2000]
    assert k.returns() == [0.0, 0.0, 1.0]
    _put(k, ck.BLEFT, [4, 6, 4])
    k.s[ck.DECK + 2 * ce.NUM_CARD_TYPES + ce.BULLET] = 2   # tie on 2000: fewer bullet cards wins
    assert k.scores() == [2000, 0, 2000] and k.returns() == [1.0, 0.0, 0.0]


def test_heuristic_is_the_scaled_leader_margin():
    k = _kernel()
    k.s[ck.ROUND] = 2
    _put(k, ck.PLOOT, [4, 0, 0, 0, 0, 0, 0, 0] + [1, 0, 0, 0, 0, 0, 0, 0] + [0] * 8)
    _put(k, ck.BLEFT, [6, 5, 6])                     # player 1 leads the shooting: +1000 * 2/5
    values = ce.heuristic(k)
    assert values[0] == pytest.approx(0.5 + 0.5 * (1000 - 650) / 5000)
    assert values[1] == pytest.approx(0.5 + 0.5 * (650 - 1000) / 5000)
    assert values[2] == pytest.approx(0.5 + 0.5 * (0 - 1000) / 5000)
    k.s[ck.DONE] = 1
    assert ce.heuristic(k) == k.returns()


def test_runs_in_openspiel_rl_environment():
    from open_spiel.python import rl_environment
    game = pyspiel.load_game("colt_express")
    env = rl_environment.Environment(
        game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=3))
    step = env.reset()
    rng = np.random.default_rng(0)
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([legal[rng.integers(len(legal))]])
    assert sum(step.rewards) == pytest.approx(1.0)
    assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
