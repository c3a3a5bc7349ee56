"""Tests of the 7 Wonders port (lib/infosets/games/seven_wonders/game.py)."""

import itertools

import numpy as np
import pyspiel
import pytest

import infosets.games  # noqa: F401
from infosets.games import _history_worlds as hw
from infosets.games import _tabletop as tt
from infosets.games import determinizers
from infosets.games.seven_wonders import cards as wc
from infosets.games.seven_wonders import game as sw
from infosets.games.seven_wonders import kernel as wk
from tabletop_checks import (
    check_adapter_agrees_with_kernel,
    check_kernel_is_a_search_state,
    chi_square_pvalue,
    play_to_decision,
    seven_wonders_age_one_last_turn,
)


def test_random_sim_with_tensors():
    game = pyspiel.load_game("seven_wonders")
    gt = game.get_type()
    assert gt.provides_observation_tensor and gt.provides_information_state_tensor
    assert (gt.min_num_players, gt.max_num_players, game.num_players()) == (3, 3, 3)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_adapter_agrees_with_kernel():
    check_adapter_agrees_with_kernel(pyspiel.load_game("seven_wonders"), seed=1, games=3)


def test_errors():
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("seven_wonders(players=4)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("seven_wonders(no_such_parameter=1)")
    game = pyspiel.load_game("seven_wonders")
    state = play_to_decision(game, np.random.default_rng(0), 0)
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match="not legal"):
        state.apply_action(illegal)
    with pytest.raises(ValueError, match="player"):
        hw.sample_world(state, 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        hw.sample_world(state, 0, 3)


def test_card_set_is_the_three_player_deck():
    assert wc.NUM_CARDS == 68 and len(wc.GUILD_IDS) == 10
    for age in (1, 2):
        assert len(wc.AGE_CARDS[age]) == 21
    assert len(wc.AGE_CARDS[3]) + wc.GUILDS_PER_GAME == 21
    # Chains name cards of the earlier ages.
    names = {c.name for c in wc.CARDS}
    assert all(link in names for c in wc.CARDS for link in c.chain)


def test_sorted_deal_makes_every_hand_equally_likely():
    pool = list(range(6))
    flags = np.zeros(wk.NC, np.int64)
    flags[pool] = 1
    actions, probs = np.zeros(wk.NC, np.int64), np.zeros(wk.NC)
    probs_of = {}
    for hand in itertools.combinations(pool, 3):
        p, previous = 1.0, -1
        for i, card in enumerate(hand):
            count = wk._sorted_draw(flags, 0, 0, len(pool), previous, 3 - i, actions, probs)
            outcomes = dict(zip(actions[:count].tolist(), probs[:count].tolist()))
            assert abs(sum(outcomes.values()) - 1.0) < 1e-12
            p *= outcomes[card]
            previous = card
        probs_of[hand] = p
    assert all(abs(p - 1 / 20) < 1e-12 for p in probs_of.values())


def _kernel_at_first_turn(seed=0):
    k = sw.WondersKernel()
    rng = np.random.default_rng(seed)
    while k.current_player() == tt.CHANCE:
        k.apply(tt.sample_chance(k, rng))
    return k


def _set_seats(k, base: int, values) -> None:
    k.s[base : base + 3] = values


def _set_built(k, built) -> None:
    """Give each player the cards ``built[p]`` (in building order) in the kernel's array."""
    for p, cards in enumerate(built):
        k.s[wk.BUILT + p * wk.MAXB : wk.BUILT + p * wk.MAXB + len(cards)] = cards
        k.s[wk.NBUILT + p] = len(cards)


def _payment(k, p: int, cost: tuple):
    """The kernel's cheapest purchase of ``cost`` for ``p``: (total, to left, to right) or None."""
    out, scratch = np.zeros(3, np.int64), np.zeros(wk.SCRATCH, np.int64)
    wk._prepare_purchase(k.s, p, scratch)
    ok = wk._pay(np.asarray(cost, np.int64), len(cost), out, scratch)
    return tuple(out.tolist()) if ok else None


def _play_price(k, p: int, card: int):
    out, scratch = np.zeros(3, np.int64), np.zeros(wk.SCRATCH, np.int64)
    wk._prepare_purchase(k.s, p, scratch)
    return tuple(out.tolist()) if wk._play_price(k.s, p, card, out, scratch) else None


def test_trading_takes_the_cheapest_purchase():
    k = _kernel_at_first_turn()
    _set_seats(k, wk.WONDERS, [6, 0, 2])  # Giza (stone), Rhodes (ore), Ephesus (papyrus)
    _set_built(k, [[], [3], []])  # right neighbour p1 also has an Ore Vein
    east = next(i for i, c in enumerate(wc.CARDS) if c.name == "East Trading Post")
    assert _payment(k, 0, (wc.STONE,)) == (0, 0, 0)
    assert _payment(k, 0, (wc.ORE, wc.ORE)) == (4, 0, 4)
    assert _payment(k, 0, (wc.ORE, wc.ORE, wc.ORE)) is None
    assert _payment(k, 0, (wc.PAPYRUS,)) == (2, 2, 0)  # left neighbour p2
    _set_built(k, [[east], [3], []])
    assert _payment(k, 0, (wc.ORE, wc.ORE)) == (2, 0, 2)  # raw from the right: 1 each
    # Caravansery (own choice of raw) is never sold to neighbours.
    caravansery = next(i for i, c in enumerate(wc.CARDS) if c.name == "Caravansery")
    _set_built(k, [[east], [3], [caravansery]])
    assert _payment(k, 0, (wc.WOOD,)) is None
    assert _payment(k, 2, (wc.WOOD,)) == (0, 0, 0)


def test_science_and_scoring():
    assert wk._science_points(1, 1, 1, 0) == 10
    assert wk._science_points(2, 1, 0, 1) == 4 + 1 + 1 + 7  # the wildcard completes a set
    assert wk._science_points(3, 0, 0, 1) == 16
    k = _kernel_at_first_turn()
    _set_seats(k, wk.WONDERS, [6, 0, 2])
    _set_seats(k, wk.COINS, [7, 0, 3])
    _set_seats(k, wk.MILITARY, [2, -1, 0])
    _set_seats(k, wk.STAGES, [2, 0, 0])  # Giza stages: 3 + 5 VP
    baths = next(i for i, c in enumerate(wc.CARDS) if c.name == "Baths")
    _set_built(k, [[baths], [], []])
    assert k.scores()[0] == 2 + 7 // 3 + 3 + 5 + 3


def test_chain_builds_free_and_no_duplicate_names():
    k = _kernel_at_first_turn()
    baths = next(i for i, c in enumerate(wc.CARDS) if c.name == "Baths")
    aqueduct = next(i for i, c in enumerate(wc.CARDS) if c.name == "Aqueduct")
    loom1, loom2 = sw.CARD_BY_NAME["Loom"]
    _set_built(k, [[baths, loom1], [], []])
    k.s[wk.COINS] = 0
    assert _play_price(k, 0, aqueduct) == (0, 0, 0)
    assert _play_price(k, 0, loom2) is None


def test_military_and_hand_passing():
    k = _kernel_at_first_turn()
    hands = [list(h) for h in k.hands]
    for p in range(3):
        k.apply(sw.encode(sw.DISCARD, k.hands[p][0]))
    assert k.turn == 1 and k.coins == [6, 6, 6]
    assert k.hands[0] == hands[1][1:] and k.packet == [1, 2, 0]  # age I passes to the left
    k2 = _kernel_at_first_turn(1)
    stockade = next(i for i, c in enumerate(wc.CARDS) if c.name == "Stockade")
    _set_built(k2, [[stockade], [], []])
    k2.s[wk.TURN] = 5
    for p, hand in enumerate(k2.hands):
        k2.s[wk.HANDS + p * wk.NC + np.asarray(hand[2:], np.int64)] = 0
    for p in range(3):
        k2.apply(sw.encode(sw.DISCARD, k2.hands[p][0]))
    assert k2.age == 2 and k2.military == [2, -1, -1]
    assert ("m", 1, (2, -1, -1)) in k2.log  # the public log shows the tokens after the age


def _check_world(game, state, world, who):
    assert world.information_state_string(who) == state.information_state_string(who)
    assert world.observation_string(who) == state.observation_string(who)
    assert world.information_state_tensor(who) == state.information_state_tensor(who)
    assert world.observation_tensor(who) == state.observation_tensor(who)
    if who == state.current_player():
        assert world.legal_actions() == state.legal_actions()
    rebuilt = game.new_initial_state()
    for action in world.history():
        rebuilt.apply_action(action)
    assert str(rebuilt) == str(world)


def test_worlds_keep_infostate_tensors_and_rebuild_from_history():
    game = pyspiel.load_game("seven_wonders")
    rng = np.random.default_rng(2)
    sampler = determinizers.sampler_for(game)
    differs = 0
    for i in range(12):
        state = play_to_decision(game, rng, min_moves=int(rng.integers(0, 54)))
        for who in range(3):
            world = state.resample_from_infostate(
                who, pyspiel.UniformProbabilitySampler(int(rng.integers(1 << 30)), 0.0, 1.0)
            )
            _check_world(game, state, world, who)
            _check_world(game, state, sampler(state, who, rng), who)
            assert (
                sw.sample_world(state, who, np.random.default_rng(i)).history()
                == sw.sample_world(state, who, np.random.default_rng(i)).history()
            )
            opp = (who + 1) % 3
            differs += world.observation_tensor(opp) != state.observation_tensor(opp)
    assert differs > 5  # other players' hands do change between worlds


def _first_turn_card_draws():
    """Age I, turn 1, player 1 to choose; everybody discarded face down at turn 0 and player 0
    has chosen in secret. Player 1 knows packet 1 (its first hand, now player 0's) and packet 2
    (its hand now, less player 2's discard); the 8 other cards are player 2's discard x and
    packet 0 (player 0's discard y and the 6 cards player 2 holds now). Worlds: x, y, and
    player 0's secret choice among its legal moves. Player 0's hand is known, so every (x, y)
    has the same 11 legal moves: this position checks the card draws, not the weighting."""
    game = pyspiel.load_game("seven_wonders")
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    while state.is_chance_node():
        state.apply_action(tt.sample_chance(state.kernel, rng))
    kernel = state.kernel
    for p in range(3):
        state.apply_action(sw.encode(sw.DISCARD, kernel.hands[p][0]))
    state.apply_action(state.legal_actions()[int(rng.integers(len(state.legal_actions())))])
    assert state.current_player() == 1 and kernel.turn == 1
    player, truth = 1, state.information_state_string(1)
    true_history = state.history()
    slots = {rec[3]: [] for rec in kernel.records if rec[0] == "deal"}
    for rec in kernel.records:
        if rec[0] == "deal":
            slots[rec[3]].append(rec[2])
    moves = {(rec[3], rec[4]): rec[2] for rec in kernel.records if rec[0] == "move"}  # (turn, actor)
    seen = set(kernel.hands[1]) | {c for i in slots[1] for c in [true_history[i]]}
    unknown = [c for c in wc.AGE_CARDS[1] if c not in seen]
    assert len(unknown) == 8
    worlds = []
    for x in unknown:  # player 2's face-down card (from packet 2)
        for y in unknown:  # player 0's face-down card (from packet 0)
            if y == x:
                continue
            history = list(true_history[: moves[(1, 0)]])
            packet0 = sorted(c for c in unknown if c != x)
            packet2 = sorted(set(kernel.hands[1]) | {x})
            for i, c in zip(slots[0], packet0):
                history[i] = c
            for i, c in zip(slots[2], packet2):
                history[i] = c
            history[moves[(0, 0)]] = sw.encode(sw.DISCARD, y)
            history[moves[(0, 2)]] = sw.encode(sw.DISCARD, x)
            prefix = game.new_initial_state()
            for a in history:
                prefix.apply_action(a)
            assert len(prefix.legal_actions()) == 11
            for pick in prefix.legal_actions():
                world = prefix.clone()
                world.apply_action(pick)
                assert world.information_state_string(player) == truth
                worlds.append(tuple(world.history()))
    assert len(worlds) == 56 * 11
    return state, player, worlds, 8 * len(worlds)


def _age_one_last_turn_three_secrets(seed: int):
    """Age I, turn 5, player 2 to choose after seeded play in which players 0 and 1 put a card
    face down at turn 0, player 1 again at turn 4, and otherwise play face up when they can."""
    state = pyspiel.load_game("seven_wonders").new_initial_state()
    rng, kernel = np.random.default_rng(seed), state.kernel
    while not (kernel.age == 1 and kernel.turn == 5 and state.current_player() == 2):
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(kernel, rng))
            continue
        p, legal = state.current_player(), state.legal_actions()
        if p != 2 and (kernel.turn == 0 or (kernel.turn == 4 and p == 1)):
            hand = kernel.hands[p]
            state.apply_action(sw.encode(sw.DISCARD, hand[int(rng.integers(len(hand)))]))
            continue
        plays = [a for a in legal if sw.decode(a)[0] == sw.PLAY]
        if p != 2 and plays:
            legal = plays
        state.apply_action(legal[int(rng.integers(len(legal)))])
    return state


def _consistent_worlds_by_brute_force(state, player: int) -> list[tuple]:
    """Every history consistent with ``player``'s information state, in age I at a decision of
    the last mover: the unknown cards (neither built, nor the player's own picks or hand) are
    put every way into the others' face-down moves and their two hands, which fixes the deal;
    the information state string keeps the consistent ones (replayed on a kernel, then checked
    move by move), and the others' pending choices run over their legal moves."""
    kernel, history = state.kernel, state.history()
    assert kernel.age == 1 and player == kernel.n - 1 == state.current_player()
    game = state.get_game()
    moves = [rec for rec in kernel.records if rec[0] == "move"]  # (.., index, turn, actor, packet, action)
    pending = [rec for rec in moves if rec[3] == kernel.turn]
    resolved = [rec for rec in moves if rec[3] < kernel.turn]
    hidden = [rec for rec in resolved if rec[4] != player and sw.decode(rec[6])[0] != sw.PLAY]
    known = {sw.decode(rec[6])[1] for rec in resolved if rec not in hidden} | set(kernel.hands[player])
    unknown = [c for c in wc.AGE_CARDS[1] if c not in known]
    slots = [[rec[2] for rec in kernel.records if rec[0] == "deal" and rec[3] == k] for k in range(3)]
    start = pending[0][2]
    truth = state.information_state_string(player)
    reference = kernel.fresh()
    for action in history[:start]:
        reference.apply(action)
    truth_before = reference.information_state_string(player)
    a, b = (p for p in range(kernel.n) if p != player)
    worlds = []
    for cards in itertools.permutations(unknown, len(hidden)):
        rest = [c for c in unknown if c not in cards]
        for hand_a in itertools.combinations(rest, len(kernel.hands[a])):
            hands = {player: kernel.hands[player], a: list(hand_a), b: [c for c in rest if c not in hand_a]}
            trial = list(history[:start])
            card_of = {rec[2]: sw.decode(rec[6])[1] for rec in resolved}
            for rec, c in zip(hidden, cards):
                trial[rec[2]] = sw.encode(sw.decode(rec[6])[0], c)
                card_of[rec[2]] = c
            for p in range(kernel.n):
                packet = kernel.packet[p]
                content = [card_of[rec[2]] for rec in resolved if rec[5] == packet] + hands[p]
                for i, c in zip(slots[packet], sorted(content)):
                    trial[i] = c
            probe = kernel.fresh()
            for action in trial:
                probe.apply(action)
            if probe.information_state_string(player) != truth_before:
                continue
            prefixes = [game.new_initial_state()]
            for action in trial:
                prefixes[0].apply_action(action)  # checked: raises if not legal
            for _ in pending:
                prefixes = [s.child(pick) for s in prefixes for pick in s.legal_actions()]
            for world in prefixes:
                assert world.information_state_string(player) == truth
                worlds.append(tuple(world.history()))
    return worlds


def _last_turn_hidden_choice():
    """Age I, turn 5, player 2 to choose (builder seed 189): the hidden cards are player 0's
    and player 1's turn-0 discards (never seen by player 2: 2 ways) and the card z player 1
    put face down at turn 4 from the 3 player 2 passed it (3 ways), which leaves player 0 the
    other two; then player 0's and player 1's pending choices. Player 0 cannot build a stage
    and can afford one of the 3 cards, so z leaves it 2, 3 or 3 legal moves (player 1 has 6
    whatever z): 96 worlds, 24, 36 and 36 per z. A sampler without the rejection step draws
    each z with probability 1/3 instead of 2/8, 3/8, 3/8 (uniform within a z both ways)."""
    state = _age_one_last_turn_three_secrets(189)
    worlds = _consistent_worlds_by_brute_force(state, 2)
    face_down = next(
        rec[2] for rec in state.kernel.records if rec[0] == "move" and rec[3] == 4 and rec[4] == 1
    )
    per_z = sorted(np.unique([sw.decode(w[face_down])[1] for w in worlds], return_counts=True)[1])
    assert len(worlds) == 96 and per_z == [24, 36, 36]  # the spread the power assumes
    return state, 2, worlds, 3000


@pytest.mark.parametrize("position", [_first_turn_card_draws, _last_turn_hidden_choice])
def test_world_is_uniform_over_the_enumerated_consistent_histories(position):
    """Every consistent history (enumerated independently of the sampler, each checked by the
    information state string) is drawn equally often. At the first position the hidden
    chooser's legal moves do not depend on the hidden cards, so a sampler without the
    rejection step has the same law there (power against it = the test's size, 1e-3); the
    second position is where it differs: 3,000 draws give a noncentrality of 3000 / 27 = 111,
    power 0.9968 at p = 1e-3 (ncx2, 95 df)."""
    state, player, worlds, draws = position()
    assert tuple(state.history()) in worlds and len(set(worlds)) == len(worlds)
    index = {w: i for i, w in enumerate(worlds)}
    counts = np.zeros(len(worlds), dtype=int)
    rng = np.random.default_rng(4)
    for _ in range(draws):
        counts[index[tuple(state.kernel.world_history(player, rng))]] += 1
    assert chi_square_pvalue(counts, [1 / len(worlds)] * len(worlds)) > 1e-3


def test_no_world_during_a_deal():
    game = pyspiel.load_game("seven_wonders")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="during a deal"):
        hw.sample_world(state, 0, np.random.default_rng(0))


def test_heuristic_is_the_scaled_score():
    state = play_to_decision(pyspiel.load_game("seven_wonders"), np.random.default_rng(5), 30)
    h = sw.heuristic(state)
    assert h == [min(1.0, s / 100) for s in state.kernel.scores()]
    rng = np.random.default_rng(6)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(tt.sample_chance(state.kernel, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    assert sw.heuristic(state) == state.returns()


def test_kernel_is_a_search_state():
    check_kernel_is_a_search_state(pyspiel.load_game("seven_wonders"), seed=7)


def test_hidden_choices_weigh_worlds_by_their_legal_moves():
    """Age I, turn 5, player 2 to choose after two secret choices. Player 2 knows the 3 cards
    player 1 held at turn 4 (its own turn-3 hand less its pick) but not the card z player 1
    put face down, so player 0's hand is the other two and z must weigh player 0's legal
    moves with them (the rejection step). 2-card hands give the widest spread: here player 0
    cannot build a stage and can afford one of the 3 cards, so the weights are 2, 3, 3. (The
    former position, turn 1, had weights 10 to 12: an unweighted sampler passed, power 0.3%.)
    Against an unweighted sampler (uniform z), 1,500 draws give a noncentrality of
    1500 / 27 = 55.6: power 0.99994 at p = 1e-3 (ncx2, 2 df)."""
    state = seven_wonders_age_one_last_turn(60)
    kernel, history = state.kernel, state.history()
    moves = {(rec[3], rec[4]): rec[2] for rec in kernel.records if rec[0] == "move"}
    before = kernel.fresh()
    for action in history[: moves[(3, 2)]]:
        before.apply(action)
    held = sorted(c for c in before.hands[2] if c != sw.decode(history[moves[(3, 2)]])[1])
    face_down = moves[(4, 1)]
    assert held == sorted(kernel.hands[0] + [sw.decode(history[face_down])[1]])
    weights = _face_down_weights(state, held)
    assert sorted(weights.values()) == [2, 3, 3]  # the spread the power above assumes
    counts = np.zeros(len(held), dtype=int)
    rng = np.random.default_rng(1)
    for _ in range(1500):
        counts[held.index(sw.decode(kernel.world_history(2, rng)[face_down])[1])] += 1
    assert chi_square_pvalue(counts, [weights[z] / 8 for z in held]) > 1e-3


def _face_down_weights(state, held) -> dict:
    """At ``seven_wonders_age_one_last_turn``: for each card z of ``held`` (the 3 cards
    player 1 held at turn 4), player 0's number of legal moves when z went face down and
    player 0 holds the other two, the weight a world with that z must get."""
    weights = {}
    for z in held:
        probe = state.kernel.copy()
        hand = probe.s[wk.HANDS : wk.HANDS + wk.NC]
        hand[:] = 0
        hand[[c for c in held if c != z]] = 1
        probe.s[wk.CUR] = 0
        weights[z] = len(probe.legal_actions())
    return weights
