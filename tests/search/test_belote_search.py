"""Belote ISMCTS (belote_ismcts: the paper's algorithm as options of the one IS-MCTS), the
double-dummy solver and the baseline bots."""

import collections
import math
import random

import numpy as np
import pyspiel
import pytest
from scipy import stats

import infosets.games  # noqa: F401
from infosets.games.belote2p import deal as deal_lib
from infosets.games.belote2p import kernel as belote_kernel
from infosets.games.belote2p.position import Position
from infosets.games.belote2p.rules import cards_of, mask_of, parse_card
from infosets.search.belote_bots import (
    BelotePIMCBot,
    GreedyBot,
    RandomBot,
    determinize,
    greedy_card,
    openspiel_ismcts_bot,
    solve,
)
from infosets.search.belote_ismcts import PAPER_OPTIONS, BeloteISMCTSBot, opponent_hand_exclusions
from infosets.search.ismcts import ISMCTSBot

C = parse_card


def _random_position(rng, plies):
    kernel = Position.from_deal(deal_lib.fair_deal(rng), int(rng.integers(2)))
    for _ in range(plies):
        kernel.play(int(rng.choice(kernel.legal_moves())))
    return kernel


def _open_cards(kernel):
    """The same position with every card visible to the mover (nothing left to sample)."""
    k = kernel.clone()
    me, opp = k.to_move, 1 - k.to_move
    s = k.s
    s[belote_kernel.UP + opp] |= k.hand[opp] | k.down[opp]
    s[belote_kernel.HAND + opp] = 0
    s[belote_kernel.UP + me] |= k.down[me]
    s[belote_kernel.DOWN:belote_kernel.DOWN + 2] = 0
    s[belote_kernel.UNDER:belote_kernel.UNDER + 32] = -1
    return k


def _minimax_difference(kernel, tricks=None):
    """Brute-force minimax of the mover's final point difference, or, with ``tricks``, of
    the difference after that many tricks (the current one counted), as
    ``solve(horizon_tricks=tricks)`` defines it."""
    me = kernel.to_move
    stop = None if tricks is None else kernel.trick + tricks

    def rec(s):
        if s.is_terminal() or (stop is not None and s.trick >= stop):
            return s.score(me) - s.score(1 - me)
        vals = []
        for c in s.legal_moves():
            t = s.clone()
            t.play(c)
            vals.append(rec(t))
        return max(vals) if s.to_move == me else min(vals)

    out = {}
    for c in kernel.legal_moves():
        t = kernel.clone()
        t.play(c)
        out[c] = rec(t)
    return out


def test_solver_matches_brute_force_minimax():
    rng = np.random.default_rng(0)
    for plies in [31, 30, 29, 28, 27, 26, 25, 24, 23, 22] * 3:
        k = _random_position(rng, plies)
        me = k.to_move
        known = k.points[me] - k.points[1 - me]
        values = {c: v + known for c, v in solve(k).items()}
        assert values == _minimax_difference(k)


def test_solver_horizon_is_a_prefix_of_the_game():
    """A horizon shorter than the game is minimax cut after that many tricks (the old test
    set the horizon to the tricks left, so it compared the full search with itself)."""
    rng = np.random.default_rng(1)
    k = _random_position(rng, 26)  # 3 tricks left: a horizon of 3 is the whole game
    assert solve(k, horizon_tricks=3) == solve(k)
    for plies, tricks in ((10, 1), (10, 2), (21, 1), (21, 2)):
        k = _random_position(rng, plies)
        known = k.points[k.to_move] - k.points[1 - k.to_move]
        values = {c: v + known for c, v in solve(k, horizon_tricks=tricks).items()}
        assert values == _minimax_difference(k, tricks), (plies, tricks)
        assert solve(k, horizon_tricks=tricks) != solve(k)  # the cut matters here
    with pytest.raises(ValueError, match="horizon_tricks"):
        solve(k, horizon_tricks=0)


def test_ismcts_root_availability_and_visits():
    k = _random_position(np.random.default_rng(2), 0)
    bot = BeloteISMCTSBot(iterations=300, exploration=82.0, rng=0)
    bot.choose(k)
    stats_ = bot.root_statistics()
    n = len(k.legal_moves())
    assert sorted(stats_) == k.legal_moves()
    assert sum(v for v, _, _ in stats_.values()) == 300
    # Every root card is always legal: availability = iterations since its creation.
    assert sorted(a for _, _, a in stats_.values()) == [300 - i for i in range(n)][::-1]


def test_ismcts_is_seeded_and_sees_only_the_information_state():
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(3)
    searches = []
    for plies in (0, 5, 12):
        state = game.new_state_from_deal(deal_lib.fair_deal(rng), 0)
        for _ in range(plies):
            state.apply_action(int(rng.choice(state.legal_actions())))
        player = state.current_player()
        world = state.resample_from_infostate(player, rng)
        assert world.deal != state.deal
        bots = [BeloteISMCTSBot(200, 82.0, rng=7) for _ in range(2)]
        assert bots[0].step(state) == bots[1].step(world)
        # the whole search is the same from the world, not only the card; another seed, or
        # another information state (below), gives another search: a bot ignoring its seed or
        # the state passed the card check alone
        if len(state.legal_actions()) > 1:
            assert bots[0].root_statistics() == bots[1].root_statistics()
            other = BeloteISMCTSBot(200, 82.0, rng=8)
            other.step(state)
            assert other.root_statistics() != bots[0].root_statistics()
            searches.append(bots[0].root_statistics())
    # and another information state gives another search
    assert len(searches) >= 2 and all(a != b for a, b in zip(searches, searches[1:]))


def test_ismcts_plays_solver_optimal_moves_with_open_cards():
    rng = np.random.default_rng(4)
    hits = total = 0
    for _ in range(20):
        k = _open_cards(_random_position(rng, 24))
        values = solve(k, last_trick_bonus=False)  # the ISMCTS reward: card points only
        if len(set(values.values())) == 1:
            continue
        total += 1
        card = BeloteISMCTSBot(3000, 20.0, rng=total).choose(k)
        hits += values[card] == max(values.values())
    assert total >= 8 and hits == total


def test_pimc_open_cards_equals_solver():
    rng = np.random.default_rng(5)
    for _ in range(10):
        k = _open_cards(_random_position(rng, 20))
        values = solve(k)
        card = BelotePIMCBot(worlds=2, rng=0, exact_tricks=16).choose(k)
        assert values[card] == max(values.values())


def test_void_inference_from_replies():
    """The voids a reply proves (the kernel's record, read by the bots' inference)."""
    def hands(cards0, cards1, leader):
        return Position.from_cards([mask_of(map(C, cards0)), mask_of(map(C, cards1))], [0, 0],
                                   [0, 0], [-1] * 32, leader)

    k = hands(["AH", "7C"], ["7S", "8C"], 0)  # p1 holds no heart; its trump 8C must be played
    k.play(C("AH"))
    k.play(C("8C"))  # trumping a heart lead: no heart, but trumps remain possible
    assert k.excluded(1) == 0xFF << 16
    k = hands(["AH", "8D"], ["7S", "7D"], 0)
    k.play(C("AH"))
    k.play(C("7S"))  # no heart and no trump playable
    assert k.excluded(1) == 0xFF << 16 | 0xFF and k.excluded(0) == 0
    k = hands(["7C"], ["8C"], 0)
    k.play(C("7C"))
    k.play(C("8C"))  # 8C beats 7C: no inference
    assert k.excluded(1) == 0
    k = hands(["9C"], ["JC"], 1)
    k.play(C("JC"))
    k.play(C("9C"))  # nothing beats the jack: 9C proves nothing
    assert k.excluded(0) == 0
    k = hands(["7C", "8H"], ["AC", "7D"], 1)
    k.play(C("AC"))
    k.play(C("7C"))  # 7C under AC: no 9C or JC in hand
    assert k.excluded(0) == mask_of([C("9C"), C("JC")])
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(0)
    state = game.new_state_from_deal(deal_lib.fair_deal(rng), 0)
    while not state.kernel.excluded(1):
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert opponent_hand_exclusions(state, 0) == state.kernel.excluded(1) != 0


def test_determinize_respects_exclusions_and_is_uniform():
    rng = np.random.default_rng(6)
    k = _random_position(rng, 6)
    me, opp = k.to_move, 1 - k.to_move
    unknown = cards_of(k.hidden_from(me))
    excluded = mask_of(unknown[:3])
    rand = random.Random(0)
    counts = dict.fromkeys(unknown, 0)
    hands = collections.Counter()
    n = 4000
    for _ in range(n):
        w = determinize(k, rand, excluded)
        assert w.hand[me] == k.hand[me] and w.up == k.up
        assert w.hand[opp] & excluded == 0
        assert w.hand[opp].bit_count() == k.hand[opp].bit_count()
        assert sorted(cards_of(w.hand[opp] | w.down[0] | w.down[1])) == unknown
        for c in cards_of(w.hand[opp]):
            counts[c] += 1
        hands[w.hand[opp]] += 1
    allowed = [c for c in unknown if not excluded >> c & 1]
    obs = [counts[c] for c in allowed]
    assert stats.chisquare(obs).pvalue > 1e-3
    # the joint law too: every one of the C(8, 4) = 70 allowed hands, equally often (a sampler
    # with the right frequency per card but correlated cards passed the check above)
    size = k.hand[opp].bit_count()
    assert len(hands) == math.comb(len(allowed), size) == 70
    assert stats.chisquare(list(hands.values())).pvalue > 1e-3


def test_greedy_wins_cheaply_or_discards_cheapest():
    k = Position.from_cards([mask_of([C("AH")]), mask_of([C("10H"), C("KH"), C("7H")])], [0, 0],
                            [0, 0], [-1] * 32, 0)
    k.play(C("AH"))
    assert greedy_card(k) == C("7H")  # cannot beat the ace: cheapest heart
    k = Position.from_cards([mask_of([C("QH")]), mask_of([C("10H"), C("KH"), C("7H")])], [0, 0],
                            [0, 0], [-1] * 32, 0)
    k.play(C("QH"))
    assert greedy_card(k) == C("KH")  # K wins with 4 points, 10 would give 10


def test_bots_finish_games_and_openspiel_ismcts_is_seeded():
    """Random and greedy bots finish a game (162 points shared); the random bot and
    OpenSpiel's IS-MCTS are seeded by ``rng``: the same seed replays the game or the search
    (every root statistic), another seed changes it. The moves alone, compared before,
    passed a bot that ignored its seed (a fixed seed of its own plays the same move twice)."""
    game = pyspiel.load_game("belote2p")
    rng = np.random.default_rng(8)
    deal = deal_lib.fair_deal(rng)

    def play(seed):
        state = game.new_state_from_deal(deal, 0)
        bots = [RandomBot(rng=seed), GreedyBot()]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert sum(state.returns()) == 162
        return state.history()

    assert play(1) == play(1) != play(2)
    state = game.new_state_from_deal(deal_lib.fair_deal(rng), 1)

    def search(seed):
        bot = openspiel_ismcts_bot(game, 50, 82.0, rng=seed)
        action = bot.step(state)
        assert action in state.legal_actions()
        return action, {a: (c.visits, c.return_sum) for a, c in bot._root_node.child_info.items()}

    first = search(3)
    assert search(3) == first
    assert search(4)[1] != first[1]


@pytest.mark.parametrize("kwargs, word", [
    ({"iterations": 0, "rng": 1}, "iterations"), ({"exploration": -1.0, "rng": 1},
                                                  "exploration"),
    ({"rng": None}, "^rng: "), ({"rng": "x"}, "^rng: "),
])
def test_bad_bot_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        BeloteISMCTSBot(**kwargs)


def _last_two_tricks():
    """Two tricks left, card points all zero: leading 8D (the lower id) wins the next trick
    and loses the last one (and its 10-point bonus); leading 7S does the opposite."""
    return Position.from_cards([mask_of([C("8D"), C("7S")]), mask_of([C("7D"), C("8S")])],
                               [0, 0], [0, 0], [-1] * 32, 0, trick=14, points=(76, 76))


def test_tied_root_moves_are_chosen_at_random_and_seeded():
    stats_ = None
    picks = []
    for seed in range(24):
        bot = BeloteISMCTSBot(100, 82.0, rng=seed)
        picks.append(bot.choose(_last_two_tricks()))
        stats_ = bot.root_statistics()
        assert BeloteISMCTSBot(100, 82.0, rng=seed).choose(_last_two_tricks()) == picks[-1]
    # Visits and means tie (card points cannot tell the two leads apart) ...
    assert {(n, mean) for n, mean, _ in stats_.values()} == {(50, 76.0)}
    # ... and the choice is not the lowest card id every time (that gave away the bonus).
    assert set(picks) == {C("8D"), C("7S")}
    assert 4 <= picks.count(C("7S")) <= 20


def test_final_rule_prefers_visits_then_mean():
    game = pyspiel.load_game("belote2p")
    bot = ISMCTSBot(game, 0, rng=0, final="visits_mean")
    assert bot.final_action({3: (5, 10.0), 9: (6, 1.0)}) == 9
    assert bot.final_action({3: (6, 10.0), 9: (6, 1.0)}) == 3
    assert {bot.final_action({3: (6, 1.0), 9: (6, 1.0)}) for _ in range(40)} == {3, 9}


def test_paper_bot_is_the_engine_with_the_paper_options():
    """The wrapper's move equals the engine's IS-MCTS with the paper's options run on the same
    kernel position and generator draws (one search loop)."""
    rng = np.random.default_rng(9)
    for plies in (0, 9, 20):
        k = _random_position(rng, plies)
        while len(k.legal_moves()) == 1:
            k = _random_position(rng, plies)
        wrapper = BeloteISMCTSBot(200, 82.0, rng=5)
        card = wrapper.choose(k)
        engine = ISMCTSBot(pyspiel.load_game("belote2p"), k.to_move, iterations=200, uct_c=82.0,
                           rng=np.random.default_rng(5),
                           engine="compiled", **PAPER_OPTIONS)
        root = engine.search_array(belote_kernel.array_from_position(k))
        assert {c: (n, m) for c, (n, m, _) in wrapper.root_statistics().items()} == \
            {c: s for c, s in root.items() if s[0] > 0}
        assert engine.final_action(root) == card
