"""The compiled Hearts kernel (games/hearts/kernel.py) against OpenSpiel's C++ ``hearts``, the
oracle: every rule, chance outcome, return and information-state string on random games; its
worlds against HeartsWorlds (games/hearts/worlds.py): the player's view kept, nothing leaked,
the same distribution; and the compiled engine searching on it, draw for draw as the Python
reference engine."""

import collections
import math

import numpy as np
import pyspiel
import pytest
from scipy import stats as scipy_stats

from infosets.core.pcg32 import PCG32
from infosets.games import heuristics
from infosets.games.hearts import kernel as K
from infosets.games.hearts.worlds import HeartsWorlds, _Plan
from infosets.games.kernels import KernelSampler, kernel_heuristic
from infosets.search.common import RewardScale, python_random
from infosets.search.compiled import CompiledSearch, engine_for
from infosets.search.ismcts import ISMCTSBot
from infosets.search.settings import make_settings

# One worker runs this file (``make test``'s two): the kernel is not in the compile queue
# (tests/precompile.py), and its first calls, split over both workers, compiled every kernel
# function twice at once (nb_determinize 8 CPU-s, nb_apply_action 2, nb_infostate_key 1).
pytestmark = pytest.mark.xdist_group("hearts_kernel")
P_MIN = 1e-3  # fixed seeds: the tests are deterministic; this only guards against real bias
GAME = pyspiel.load_game("hearts")
KERNEL = K.kernel_for(GAME)
VARIANTS = [
    {},
    {"jd_bonus": True, "avoid_all_tricks_bonus": True},
    {"can_lead_any_club": True, "no_pts_on_first_trick": False},
    {"must_break_hearts": False, "qs_breaks_hearts": False},
    {"can_lead_hearts_instead_of_qs": True},
]


def random_state(seed: int, decisions: int, pass_dir: int, game=GAME) -> pyspiel.State:
    """A seeded random Hearts game with pass direction ``pass_dir``, stopped at its
    ``decisions``-th decision."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    seen = 0
    while True:
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()] if state.history() else [pass_dir]
            state.apply_action(outcomes[rng.integers(len(outcomes))])
            continue
        if seen == decisions:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        seen += 1


def assert_same_state(s: np.ndarray, state: pyspiel.State):
    """The kernel array and the OpenSpiel state agree on everything the contract exposes."""
    buf, probs = np.empty(K.NUM_ACTIONS, np.int64), np.empty(K.NUM_ACTIONS)
    assert K.nb_current_player(s) == state.current_player()
    n = K.nb_legal_actions(s, buf)
    assert buf[:n].tolist() == state.legal_actions()
    if state.is_chance_node():
        n = K.nb_chance_outcomes(s, buf, probs)
        assert list(zip(buf[:n].tolist(), probs[:n].tolist())) == state.chance_outcomes()
    for p in range(4):
        assert K.array_infostate_string(s, p) == state.information_state_string(p)
    assert K.array_state_string(s) == str(state)
    returns = np.zeros(4)
    K.nb_returns(s, returns)
    assert returns.tolist() == state.returns()


# Games per rule set. Measured by line tracing of games/hearts/kernel.py (numba off) over the
# former 80 default and 30 variant games: every line the default games reach is first reached by
# their 14th game (the last: shooting the moon, game 14, and the first trick's no-points rule,
# game 11), every line a variant adds by its first game; the games after those repeated
# rules already compared. A first-trick rule off by one (points allowed to the trick's last
# player) still fails (the fourth rule set's games).
RANDOM_GAMES, VARIANT_GAMES = 20, 10


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_random_games_agree_with_openspiel_after_every_action(variant):
    """Pass direction, deal, passes and plays: after every action the kernel's player, legal
    actions, chance outcomes, strings and returns are OpenSpiel's (default rules and four
    variants of the flags)."""
    game = pyspiel.load_game("hearts", VARIANTS[variant])
    kernel = K.kernel_for(game)
    rng = np.random.default_rng(variant)
    for _ in range(RANDOM_GAMES if variant == 0 else VARIANT_GAMES):
        state, s = game.new_initial_state(), kernel.from_history([])
        while True:
            assert_same_state(s, state)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            action = legal[rng.integers(len(legal))]
            state.apply_action(action)
            K.nb_apply_action(s, action)
        assert kernel.history(s) == state.history()


def test_shooting_the_moon_scores_as_openspiel():
    """North plays its highest card and the others their lowest until North takes every
    point (26 to each opponent, North 0): the kernel's returns are OpenSpiel's."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        state = GAME.new_initial_state()
        state.apply_action(0)
        while state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rng.integers(len(outcomes))])
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(max(legal) if state.current_player() == 0 else min(legal))
        if state.returns() == [26.0, 0.0, 0.0, 0.0]:
            break
    assert state.returns() == [26.0, 0.0, 0.0, 0.0]
    returns = np.zeros(4)
    K.nb_returns(KERNEL.from_history(state.history()), returns)
    assert returns.tolist() == [26.0, 0.0, 0.0, 0.0]


def test_from_history_round_trips():
    for seed, decisions in [(1, 0), (2, 7), (3, 12), (4, 40), (5, 63)]:
        state = random_state(seed, decisions, seed % 4)
        s = KERNEL.from_state(state)
        assert KERNEL.history(s) == state.history()
        assert np.array_equal(KERNEL.from_history(KERNEL.history(s)), s)
        assert KERNEL.to_state(GAME, s).history() == state.history()


def test_heuristic_is_the_python_engines():
    """nb_heuristic gives what infosets.games.heuristics gives the Python engine (TAG's
    LeaderHeuristic on minus the points, on the 0 .. 36 scale), at the end the returns."""
    out = np.zeros(4)
    seen = set()
    for seed in range(40):
        state = random_state(seed, 12 + seed, seed % 4)
        K.nb_heuristic(KERNEL.from_state(state), out)
        assert out.tolist() == pytest.approx(heuristics.heuristic(state), abs=1e-12)
        seen.add(tuple(out))
    assert len(seen) > 5
    end = random_state(1, 64, 1)
    assert end.is_terminal()
    K.nb_heuristic(KERNEL.from_state(end), out)
    assert out.tolist() == end.returns()
    state = random_state(2, 20, 1)
    s = KERNEL.from_state(state)
    s[K.POINTS : K.POINTS + 4] = [0, 13, 3, 0]  # by hand: North 0.5 + (0 - 0) / 52 of 36
    K.nb_heuristic(s, out)
    assert out.tolist() == pytest.approx([18.0, 36 * (0.5 - 13 / 52), 36 * (0.5 - 3 / 52), 18.0])


def draw(s: np.ndarray, player: int, stream: np.ndarray) -> np.ndarray:
    world = s.copy()
    K.nb_determinize(world, player, stream)
    return world


def replay(history: list[int], first_play: int) -> pyspiel.State:
    """The pyspiel state of ``history``, each play checked legal."""
    state = GAME.new_initial_state()
    for i, action in enumerate(history):
        if i >= first_play:
            assert action in state.legal_actions()
        state.apply_action(action)
    return state


@pytest.mark.parametrize("pass_dir", [0, 1, 2, 3])
@pytest.mark.parametrize("decisions", [0, 1, 5, 11, 12, 13, 30, 50, 62])
def test_worlds_keep_the_players_view_and_replay(pass_dir, decisions):
    """Every phase (passing, first lead, mid-game, last trick), the mover and a non-mover:
    the world has the player's information-state key and string, its history replays legally
    on pyspiel to the same view, and rebuilds the same array."""
    decisions = min(decisions, (64 if pass_dir else 52) - 1)
    state = random_state(10 * pass_dir + decisions, decisions, pass_dir)
    s = KERNEL.from_state(state)
    stream = PCG32(decisions).to_array()
    first_play = 1 + 52 + (12 if pass_dir else 0)
    for player in (state.current_player(), (state.current_player() + 1) % 4):
        view, key = state.information_state_string(player), K.nb_infostate_key(s, player)
        for _ in range(10):
            world = draw(s, player, stream)
            assert K.nb_infostate_key(world, player) == key
            assert K.array_infostate_string(world, player) == view
            rebuilt = replay(KERNEL.history(world), first_play)
            assert rebuilt.information_state_string(player) == view
            assert str(rebuilt) == K.array_state_string(world)
            assert np.array_equal(KERNEL.from_history(KERNEL.history(world)), world)


def test_keys_tell_information_states_apart():
    """Across random states, two states share a player's key exactly when they share its
    information-state string; at the end the string is the state's, whatever order the deal
    came in."""
    by_key, by_string = {}, {}
    for seed in range(60):
        state = random_state(seed, seed % 20 + 10, 1 + seed % 3)
        s = KERNEL.from_state(state)
        for player in range(4):
            key, string = (
                (player, K.nb_infostate_key(s, player)),
                (player, state.information_state_string(player)),
            )
            assert by_key.setdefault(key, string) == string
            assert by_string.setdefault(string, key) == key
    end = random_state(4, 64, 2)
    history = end.history()
    history[1], history[5] = history[5], history[1]  # North's first two cards dealt the other way
    swapped = KERNEL.from_history(history)
    assert K.array_state_string(swapped) == str(end)
    assert K.nb_infostate_key(swapped, 2) == K.nb_infostate_key(KERNEL.from_state(end), 2)
    assert K.nb_infostate_key(KERNEL.from_state(random_state(5, 64, 2)), 2) != K.nb_infostate_key(swapped, 2)
    state = random_state(3, 20, 1)
    world = draw(KERNEL.from_state(state), 0, PCG32(1).to_array())
    assert K.nb_infostate_key(world, 0) == K.nb_infostate_key(KERNEL.from_state(state), 0)
    assert {K.nb_infostate_key(world, p) for p in (1, 2, 3)} != {
        K.nb_infostate_key(KERNEL.from_state(state), p) for p in (1, 2, 3)
    }


def opponent_hands(world: np.ndarray, opponents) -> tuple:
    return tuple(int(world[K.HAND + p]) for p in opponents)


def test_worlds_never_leak_a_card_the_player_cannot_know():
    """Mid-game: every unseen card that HeartsWorlds' plan lets two or more opponents hold
    is held by at least two of them over the draws, and the unseen passes vary."""
    state = random_state(8, 12 + 14, pass_dir=2)
    player = (state.current_player() + 1) % 4
    plan = _Plan(state, player, HeartsWorlds(GAME).rules)
    s = KERNEL.from_state(state)
    stream = PCG32(2).to_array()
    holders = collections.defaultdict(set)
    passes = set()
    hidden_passers = [p for p in plan.opponents if p != (player - 2) % 4]
    for _ in range(300):
        world = draw(s, player, stream)
        for p in plan.opponents:
            for c in range(52):
                if world[K.HAND + p] >> c & 1:
                    holders[c].add(p)
        history = KERNEL.history(world)
        passes.add(tuple(history[53 + 3 * p + i] for p in hidden_passers for i in range(3)))
    free = [c for mask, cards in plan.classes if bin(mask).count("1") >= 2 for c in cards]
    assert len(free) > 10
    assert all(len(holders[c]) >= 2 for c in free)
    assert len(passes) > 100


def test_no_unseen_pass_is_kept_while_passing():
    """East passes after North: a world keeps North's three cards (unseen by East) with
    chance 1 / C(13, 3) given North's hand."""
    state = random_state(4, 3, pass_dir=1)
    assert state.current_player() == 1
    s = KERNEL.from_state(state)
    true_pass = KERNEL.history(s)[53:56]
    stream = PCG32(3).to_array()
    kept = sum(KERNEL.history(draw(s, 1, stream))[53:56] == true_pass for _ in range(300))
    assert kept <= 2


def test_worlds_have_hearts_worlds_distribution():
    """Late in a game (trick 11 of 13), the opponents' hands drawn by the kernel and by
    HeartsWorlds are one distribution, on the same support, and so are the cards in the
    passes the player did not see (chi-square homogeneity)."""
    state = random_state(21, 12 + 40, pass_dir=1)
    player = state.current_player()
    opponents = [p for p in range(4) if p != player]
    hidden = [53 + 3 * p + i for p in opponents if p != (player - 1) % 4 for i in range(3)]
    s = KERNEL.from_state(state)
    stream = PCG32(5).to_array()
    ours = [draw(s, player, stream) for _ in range(3000)]
    sampler, rng = HeartsWorlds(GAME), np.random.default_rng(0)
    theirs = [KERNEL.from_state(sampler(state, player, rng)) for _ in range(3000)]
    hands = [collections.Counter(opponent_hands(w, opponents) for w in worlds) for worlds in (ours, theirs)]
    assert set(hands[0]) == set(hands[1]) and 2 < len(hands[0]) < 300
    table = [[count[h] for h in sorted(hands[0])] for count in hands]
    assert scipy_stats.chi2_contingency(table).pvalue > P_MIN
    passed = [
        collections.Counter(int(w[K.HIST + i]) for w in worlds for i in hidden) for worlds in (ours, theirs)
    ]
    assert set(passed[0]) == set(passed[1]) and len(passed[0]) > 10
    table = [[count[c] for c in sorted(passed[0])] for count in passed]
    assert scipy_stats.chi2_contingency(table).pvalue > P_MIN


def test_a_true_card_stays_with_its_holder_no_more_than_in_hearts_worlds():
    """At the first lead, each card East cannot place stays with its true holder as often as
    in HeartsWorlds' draws (their mean shares agree within sampling error)."""
    state = random_state(9, 12, pass_dir=1)
    player = (state.current_player() + 1) % 4
    s = KERNEL.from_state(state)
    opponents = [p for p in range(4) if p != player]
    truth = [int(s[K.HAND + p]) for p in opponents]

    def share(worlds):
        kept = [sum(bin(int(w[K.HAND + p]) & t).count("1") for p, t in zip(opponents, truth)) for w in worlds]
        return np.mean(kept), np.std(kept) / math.sqrt(len(kept))

    stream = PCG32(6).to_array()
    ours = share([draw(s, player, stream) for _ in range(1500)])
    sampler, rng = HeartsWorlds(GAME), np.random.default_rng(1)
    theirs = share([KERNEL.from_state(sampler(state, player, rng)) for _ in range(1500)])
    assert abs(ours[0] - theirs[0]) < 4 * math.hypot(ours[1], theirs[1])


PAPER = {"rollout_length": 0, "max_depth": 3, "fpu": 0.5, "explore_epsilon": 0.3}  # pimcts_settings.csv


def compiled_search() -> CompiledSearch:
    settings = make_settings(
        PAPER["rollout_length"],
        PAPER["max_depth"],
        PAPER["fpu"],
        PAPER["explore_epsilon"],
        heuristic=kernel_heuristic(GAME, KERNEL),
    )
    return CompiledSearch(GAME, KERNEL, math.sqrt(2), RewardScale(GAME, True), settings)


def test_the_compiled_engine_searches_hearts():
    """An IS-MCTS search (the paper's Hearts settings) from a mid-game state on the engine
    compiled for this kernel: every iteration reaches a legal root action."""
    assert engine_for(K).game == "hearts"
    state = random_state(6, 25, pass_dir=3)
    root, _, depth_max = compiled_search().ismcts(state, state.current_player(), 500, True, PCG32(1))
    assert root and set(root) <= set(state.legal_actions())
    assert sum(n for n, _ in root.values()) == 500
    assert 1 <= depth_max <= PAPER["max_depth"]
    best = max(root, key=lambda a: root[a][0])
    assert best in state.legal_actions()


def test_the_python_reference_searches_as_the_compiled_engine():
    """Seeded alike, the Python IS-MCTS on the kernel's worlds and heuristic gives the root
    statistics of the compiled engine, draw for draw."""
    state = random_state(7, 30, pass_dir=2)
    player = state.current_player()
    compiled, _, _ = compiled_search().ismcts(
        state, player, 150, True, python_random(np.random.default_rng(4))
    )
    bot = ISMCTSBot(
        GAME,
        player,
        iterations=150,
        uct_c=math.sqrt(2),
        rng=np.random.default_rng(4),
        engine="python",
        sampler=KernelSampler(GAME, KERNEL),
        heuristic=kernel_heuristic(GAME, KERNEL),
        **PAPER,
    )
    python = bot.search(state)
    assert set(python) == set(compiled)
    for action, (n, mean) in python.items():
        assert compiled[action][0] == n and compiled[action][1] == pytest.approx(mean, abs=1e-12)


def test_uncovered_parameters_are_named():
    assert K.uncovered(GAME.get_parameters()) is None
    no_pass = pyspiel.load_game("hearts(pass_cards=false)")
    assert K.kernel_for(no_pass) is None
    assert K.uncovered(no_pass.get_parameters()).startswith("pass_cards=false")
    assert K.kernel_for(pyspiel.load_game("hearts(jd_bonus=true)")) is not None
