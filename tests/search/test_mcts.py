"""OL-MCTS: tactics on the perfect-information control, both engines, bad input."""

import collections
import random

import pyspiel
import pytest
from scipy import stats as scipy_stats

import infosets.games  # noqa: F401
from infosets.search.common import RewardScale
from infosets.search.mcts import OLMCTSBot, choose_final, uct_search


def ttt(moves):
    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


@pytest.mark.parametrize("engine", ["python", "cpp"])
def test_takes_the_win_and_blocks(engine):
    game = pyspiel.load_game("tic_tac_toe")
    win = ttt([0, 3, 1, 4])          # x: 0 1, o: 3 4 -> x wins at 2
    block = ttt([0, 4, 8, 2])        # x: 0 8, o: 4 2 -> x must block 6
    assert OLMCTSBot(game, 0, iterations=1000, rng=0, engine=engine).step(win) == 2
    assert OLMCTSBot(game, 0, iterations=2000, rng=0, engine=engine).step(block) == 6


def test_python_and_cpp_trees_agree_on_values():
    """Both engines report means on the normalised [0, 1] scale and agree on them. The win
    alone (mean 1.0, as before) is 1.0 raw too, so a C++ wrapper that skipped the mapping to
    [0, 1] passed; after x 0, o 4, x 8 the edge replies that hold the draw are worth ~0.53 to o
    in both trees (raw: ~0.06), each visited 600-730 times of 3000."""
    game = pyspiel.load_game("tic_tac_toe")
    state = ttt([0, 3, 1, 4])
    scale = RewardScale(game, True)
    ours = uct_search(state, 3000, 1.0, random.Random(0), scale)
    from infosets.search.mcts import cpp_uct_search
    theirs = cpp_uct_search(state, 3000, 1.0, 0, scale)
    assert ours[2][1] / ours[2][0] == pytest.approx(1.0)
    assert theirs[2][1] / theirs[2][0] == pytest.approx(1.0)
    assert sum(n for n, _ in ours.values()) == 3000
    state = ttt([0, 4, 8])
    ours = uct_search(state, 3000, 1.0, random.Random(0), scale)
    theirs = cpp_uct_search(state, 3000, 1.0, 0, scale)
    for stats in (ours, theirs):
        assert all(0.0 <= w / n <= 1.0 for n, w in stats.values())
    for edge in (1, 3, 5, 7):
        assert theirs[edge][1] / theirs[edge][0] == pytest.approx(ours[edge][1] / ours[edge][0],
                                                                  abs=0.03)


def test_the_cpp_tree_scales_c_by_the_utility_span():
    """Our trees apply c to rewards normalised to [0, 1]; OpenSpiel's C++ tree sees the raw
    returns (tic-tac-toe: -1 to 1, a span of 2), so it must get c x 2 to rank children
    alike. The wrapper's search equals, visit for visit, a bare C++ MCTSBot given c = 2 and
    the same seed, and differs from one given c = 1 (after x 0, o 4, x 8 the losing corner
    replies get about 250 visits at c = 2 and 50 at c = 1, ten seeds). No test checked the
    scaling before: passing c unscaled went unnoticed."""
    from infosets.search.mcts import cpp_uct_search

    game = pyspiel.load_game("tic_tac_toe")
    state = ttt([0, 4, 8])
    scale = RewardScale(game, True)
    ours = cpp_uct_search(state, 3000, 1.0, 5, scale)

    def bare(c):
        evaluator = pyspiel.RandomRolloutEvaluator(1, 5)
        bot = pyspiel.MCTSBot(game, evaluator, c, 3000, 1000, False, 5, False)
        return {child.action: child.explore_count for child in bot.mcts_search(state).children}

    visits = {a: n for a, (n, _) in ours.items()}
    assert visits == bare(2.0)
    assert visits != bare(1.0)


def test_open_loop_chance_after_root_is_redrawn(monkeypatch):
    """Leduc, player 1 to act after a check: calling ends the round, so the public card is
    drawn below the root. OL-MCTS searches one sampled world, and open loop the public card
    is drawn afresh in every iteration that reaches it: uniform over the four cards that
    neither player holds in that world."""
    from infosets.search import mcts

    game = pyspiel.load_game("leduc_poker")
    state = game.new_initial_state()
    for action in (0, 3, 1):  # deal card 0 to player 0 and card 3 to player 1; player 0 checks
        state.apply_action(action)
    assert state.current_player() == 1 and 1 in state.legal_actions()
    drawn = []

    def recording(s, rnd):
        outcome = mcts_sample_chance(s, rnd)
        if len(s.history()) == 4:  # the public card, after the world's two private cards
            drawn.append((tuple(s.history()[:2]), outcome))
        return outcome

    mcts_sample_chance = mcts.sample_chance
    monkeypatch.setattr(mcts, "sample_chance", recording)
    bot = OLMCTSBot(game, 1, iterations=600, rng=1, engine="python")
    stats = bot.search(state)
    assert sum(n for n, _ in stats.values()) == 600
    worlds = {world for world, _ in drawn}
    assert len(worlds) == 1  # one world per decision (the paper's OL-MCTS)
    (world,) = worlds
    assert world[1] == 3  # the searcher's own card is kept
    counts = collections.Counter(outcome for _, outcome in drawn)
    assert len(drawn) >= 200 and set(counts) == set(range(6)) - set(world), counts
    assert scipy_stats.chisquare([counts[c] for c in sorted(counts)]).pvalue > 1e-4


def test_final_rules_and_random_ties():
    stats = {0: (10, 9.0), 1: (30, 15.0), 2: (10, 9.0)}
    assert choose_final(stats, "visits", [0, 1, 2], random.Random(0)) == 1
    picks = {choose_final(stats, "mean", [0, 1, 2], random.Random(s)) for s in range(20)}
    assert picks == {0, 2}
    assert choose_final(stats, "mean", [1], random.Random(0)) == 1  # only legal actions


def test_bad_input():
    game = pyspiel.load_game("tic_tac_toe")
    with pytest.raises(ValueError, match="^iterations:"):
        OLMCTSBot(game, 0, iterations=0, rng=0)
    with pytest.raises(ValueError, match="^engine:"):
        OLMCTSBot(game, 0, rng=0, engine="java")
    with pytest.raises(ValueError, match="^engine: 'cpp' needs a C\\+\\+ game"):
        OLMCTSBot(pyspiel.load_game("trick_game"), 0, rng=0, engine="cpp")
    with pytest.raises(ValueError, match="^rng:"):
        OLMCTSBot(game, 0, rng=None)


def reference_uct(world, iterations, uct_c, rnd, scale):
    """Plain open-loop UCT (clone every iteration, no caches) with the same random draws."""
    import math

    from infosets.search.common import random_rollout, sample_chance
    root = [0, 0.0, {}, -1]
    for _ in range(iterations):
        state, node, path = world.clone(), root, []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rnd))
                continue
            legal, children = state.legal_actions(), node[2]
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[rnd.randrange(len(untried))]
                node = children[action] = [0, 0.0, {}, state.current_player()]
                path.append(node)
                state.apply_action(action)
                break
            log_parent, best = math.log(node[0]), -1.0
            for a in legal:
                ch = children[a]
                score = ch[1] / ch[0] + uct_c * math.sqrt(log_parent / ch[0])
                if score > best:
                    best, action, child = score, a, ch
            node = child
            path.append(node)
            state.apply_action(action)
        random_rollout(state, rnd)
        rewards = scale(state.returns())
        root[0] += 1
        for nd in path:
            nd[0] += 1
            nd[1] += rewards[nd[3]]
    return {a: (ch[0], ch[1]) for a, ch in root[2].items()}


@pytest.mark.parametrize("game_name,moves", [("leduc_poker", [0, 1, 1, 1]), ("leduc_poker", [0, 1]),
                                             ("kuhn_poker(players=3)", [0, 1, 2]),
                                             ("oh_hell(players=3)", None)])
def test_cached_replay_search_matches_plain_uct(game_name, moves):
    """The node caches and lazy replay of uct_search change no statistic and no draw."""
    game = pyspiel.load_game(game_name)
    state = game.new_initial_state()
    rng = random.Random(7)
    for move in moves or []:
        state.apply_action(move)
    while state.is_chance_node() or (moves is None and len(state.history()) < 60):
        legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(legal))
    scale = RewardScale(game, True)
    for seed in range(3):
        ours = uct_search(state, 300, 1.0, random.Random(seed), scale)
        assert ours == reference_uct(state, 300, 1.0, random.Random(seed), scale)


def test_raw_rewards_below_minus_one_play_legal_games():
    """Regression: the UCB maximum started at -1, so raw Leduc returns (down to -13) made
    open-loop UCT reuse a stale action (illegal-move crash) and IS-MCTS fall back to legal[0].
    That fallback plays legal moves, so legality alone (all this checked before) missed it;
    the searches are now checked against an analytic identity as well. UCB1 on raw returns r
    with constant c ranks children exactly as UCB1 on (r - low) / s with constant c / s (an
    increasing affine map of every score, which the -1 start broke: raw scores below -1 were
    never taken), so with the same seed the raw search at c = 1 (the bots' default, where
    scores fall below -1) takes the same path as the mapped one at c = 1 / s: the same visit
    counts, and raw means = low + s x mapped means, at every decision of 12 games. s = 32
    rather than Leduc's span 26 keeps the mapped sums exact in binary, so children whose raw
    sums tie exactly tie there too (with 26, rounding split such a tie the other way)."""
    import numpy as np
    import pyspiel

    from infosets.search.ismcts import ISMCTSBot
    from infosets.search.mcts import OLMCTSBot

    game = pyspiel.load_game("leduc_poker")
    low, span = game.min_utility(), 32.0
    assert low == -13.0 and game.max_utility() - low <= span

    def means(bot_class, stats):  # {action: (visits, mean)} from either bot's root
        if bot_class is OLMCTSBot:
            return {a: (n, w / n) for a, (n, w) in stats.items()}
        return dict(stats)

    for seed in range(12):
        rng = np.random.default_rng(seed)
        bots = [OLMCTSBot(game, 0, iterations=60, rng=seed, normalize_rewards=False),
                ISMCTSBot(game, 1, iterations=60, rng=seed + 100, normalize_rewards=False)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                player = state.current_player()
                action = bots[player].step(state)
                assert action in state.legal_actions()
                for bot_class in (OLMCTSBot, ISMCTSBot):
                    raw = means(bot_class, bot_class(game, player, iterations=60, rng=seed,
                                                     normalize_rewards=False).search(state))
                    mapped = bot_class(game, player, iterations=60, rng=seed, uct_c=1 / span)
                    mapped.scale.span = span  # rewards (r + 13) / 32 in the tree
                    unit = means(bot_class, mapped.search(state))
                    assert {a: n for a, (n, _) in raw.items()} == \
                        {a: n for a, (n, _) in unit.items()}, (bot_class, seed)
                    for a, (_, mean) in raw.items():
                        assert mean == pytest.approx(low + span * unit[a][1])
                state.apply_action(action)


def test_cpp_visit_finals_take_the_immediate_win_every_seed():
    """C++ MCTS records a terminal child's outcome and ranks it before visits; the visit-count
    finals must use it (regression: only 77-80% of seeds played the win at 100 iterations)."""
    from infosets.search.pimcts import PIMCTSBot
    game = pyspiel.load_game("tic_tac_toe")
    win = ttt([0, 3, 1, 4])
    ol = [OLMCTSBot(game, 0, iterations=100, rng=s, engine="cpp", final="visits").step(win)
          for s in range(100)]
    pi = [PIMCTSBot(game, 0, iterations=100, determinizations=1, aggregation="TotalVisits", rng=s,
                    engine="cpp").step(win) for s in range(100)]
    assert ol.count(2) == 100
    assert pi.count(2) == 100
