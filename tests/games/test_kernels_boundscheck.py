"""Every game kernel and the compiled engine run with numba's bounds checking on.

Every kernel game: random games through every kernel function, and from sampled decisions a
determinized world (what the engine searches) played out to the end, with the kernel contract
the engine indexes by checked in Python on the way (legal actions and chance outcomes inside
``num_actions``, the mover inside ``num_players``, probabilities summing to one, a world keeping
the mover's information-state key). The engine's own code (``search.compiled``) is the same for
every game but its array sizes and calls, so its search variants are bounds-checked on
``ENGINE_GAMES`` (two players with chance, and a five-player card game), not recompiled for
every game: the contract checks are what keep the engine's indices in range on the others.
TAG's searches (their own compile of the engine, with tables per player and action) are
bounds-checked on the five-player game only (``TAG_GAMES``): the same code for every game,
whose tables the five-player game fills on every row; on Leduc as well they cost Leduc's
build 2.5 times its CPU (48 CPU-s instead of 19).

Every test process runs numba bounds-checked from the tests' own cache (``tests/numba_env.py``),
so the builds checked here are the ones every other test searches with. As a script,
``python tests/games/test_kernels_boundscheck.py [GAME ...]`` compiles and checks the named
kernel games (default: every game below), one subprocess each, and exits with the check's
status; ``make test`` runs ``check`` for each game in its compile queue (``tests/precompile.py``),
right after compiling that game's engine in the same worker."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = r'''
import random
import sys
import numba as nb
import numpy as np
import pyspiel
import infosets.games  # registers the Python ports
from infosets.games import kernels as K
from infosets.core.pcg32 import PCG32
from infosets.search.compiled import (AVAIL_EXPANDED, MAST_ALL, MAST_ROOT_ONLY, POLICY_EXP3, POLICY_RM,
                                      POLICY_UCB_TUNED, engine_for)

@nb.njit
def _probe(a):
    return a[len(a)]

try:
    _probe(np.zeros(3))
    raise SystemExit("bounds checking is off")
except IndexError:
    pass

GAMES = [("leduc_poker", {}, 200, 0.3), ("liars_dice", {"dice_sides": 3}, 200, 0.3),
         ("liars_dice", {"dice_sides": 6}, 200, 0.3), ("trick_game", {}, 100, 0.3),
         ("trick_game", {"num_cards": 52, "hand_size": 26}, 20, 0.3),
         ("poker_tag", {"max_hands": 3}, 30, 0.1), ("belote2p", {}, 4, 0.05),
         # hearts: the default rules and the flags its worlds read (_hand_limits)
         ("hearts", {}, 8, 0.2),
         ("hearts", {"must_break_hearts": False, "no_pts_on_first_trick": False,
                     "can_lead_hearts_instead_of_qs": True, "jd_bonus": True}, 4, 0.2),
         # tabletop card-game kernels: long games, so few of them and few searches
         ("sushi_go", {"players": 2}, 2, 0.03), ("sushi_go", {"players": 5}, 2, 0.03),
         ("love_letter", {"players": 2, "tokens_to_win": 2}, 3, 0.05),
         ("love_letter", {"players": 4}, 3, 0.05), ("virus", {"players": 3}, 2, 0.01),
         ("virus", {"players": 6}, 1, 0.01),
         # tabletop ports (stratego in short games)
         ("stratego", {"max_moves": 20}, 3, 0.05), ("exploding_kittens", {"players": 3}, 3, 0.05),
         ("dominion", {"players": 3, "max_turns": 12}, 3, 0.05), ("seven_wonders", {}, 2, 0.02),
         ("colt_express", {"players": 3}, 2, 0.03), ("colt_express", {"players": 6}, 1, 0.02),
         ("monopoly_deal", {"players": 3}, 2, 0.02), ("monopoly_deal", {"players": 5}, 1, 0.01)]
VARIANTS = [(-1, -1, False, 0.0, 0.0), (0, 2, True, 0.5, 0.3), (3, 1, False, 0.0, 0.5)]
ENGINE_GAMES = {("leduc_poker", ()), ("sushi_go", (("players", 5),))}
TAG_GAMES = {("sushi_go", (("players", 5),))}
# (tree policy, MaxMC, MAST, SelfOnly, rollouts counting moves): UCB-Tuned, regret matching with
# MaxMC, EXP3 with MAST rollouts, and SelfOnly (nodes keyed by moves, as the bots key them) with
# MAST for the root player only and rollouts counting moves
TAG_VARIANTS = [(POLICY_UCB_TUNED, 0, 0, 0, 0), (POLICY_RM, 1, 0, 0, 0), (POLICY_EXP3, 0, MAST_ALL, 0, 0),
                (POLICY_UCB_TUNED, 0, MAST_ROOT_ONLY, 1, 1)]
unknown = sorted(set(sys.argv[1:]) - {name for name, *_ in GAMES})
if unknown:
    raise SystemExit(f"games: not checked here: {', '.join(unknown)}")


def step(rules, s, buf, probs, a, p, rnd):
    """One random step of ``s`` in place, the contract checked; False at the end."""
    mover = int(rules.nb_current_player(s))
    if mover == -4:
        return False
    if mover == -1:
        n = rules.nb_chance_outcomes(s, buf, probs)
        assert 0 < n <= a and abs(probs[:n].sum() - 1.0) < 1e-9, (n, probs[:n].sum())
    else:
        assert 0 <= mover < p, mover
        n = rules.nb_legal_actions(s, buf)
        assert 0 < n <= a, n
    assert 0 <= buf[:n].min() and buf[:n].max() < a, buf[:n]
    rules.nb_apply_action(s, buf[rnd.randrange(n)])
    return True


for name, params, games, search_rate in GAMES:
    if sys.argv[1:] and name not in sys.argv[1:]:
        continue
    game = pyspiel.load_game(name, params)
    kernel = K.kernel_for(game)
    rules, a, p = kernel.rules, kernel.num_actions, kernel.num_players
    key = (name, tuple(sorted(params.items())))
    engine = engine_for(rules) if key in ENGINE_GAMES else None
    tag_variants = TAG_VARIANTS if key in TAG_GAMES else ()
    buf, probs, out = np.zeros(a, np.int64), np.zeros(a), np.zeros(p)
    rng, rnd = PCG32(1).to_array(), random.Random(0)  # per game: a check of one game is the same
    for _ in range(games):
        s = kernel.from_history([])
        while True:
            mover = int(rules.nb_current_player(s))
            if mover >= 0:
                for player in range(p):
                    rules.nb_infostate_key(s, player)
                rules.nb_heuristic(s, out)
                if rnd.random() < search_rate:
                    w = s.copy()
                    rules.nb_determinize(w, mover, rng)
                    assert rules.nb_infostate_key(w, mover) == rules.nb_infostate_key(s, mover)
                    while step(rules, w, buf, probs, a, p, rnd):  # the world, as a search plays it
                        pass
                    rules.nb_returns(w, out)
                    rules.nb_heuristic(w, out)
                    for variant in VARIANTS if engine is not None else ():
                        for availability in (True, False):
                            engine.ismcts_tree(s, mover, 30, 1.0, availability, True, -13.0, 26.0,
                                               *variant, rng, a, p, np.zeros(a, np.int64), np.zeros(a),
                                               np.zeros(a, np.bool_), np.zeros(2, np.int64))
                        # expanded availability, nodes keyed by moves, heuristic rewards
                        engine.ismcts_tree_with(s, mover, 30, 1.0, AVAIL_EXPANDED, True, True, True, -13.0,
                                                26.0, *variant, rng, a, p, np.zeros(a, np.int64),
                                                np.zeros(a), np.zeros(a, np.bool_), np.zeros(a, np.int64),
                                                np.zeros(2, np.int64))
                        engine.pimcts_trees(s, mover, 2, 15, 1.0, False, 0.0, 1.0, *variant, rng, a, p,
                                            np.zeros((2, a), np.int64), np.zeros((2, a)),
                                            np.zeros(2, np.int64))
                        # TAG's settings (issue 56): each tree policy, MaxMC, MAST, with the reward
                        # bounds out as the bots ask for them (compiled.CompiledSearch)
                        for policy, maxmc, mast, self_only, count_moves in tag_variants:
                            tag = np.array([policy, maxmc, 3, mast, self_only, count_moves], np.int64)
                            mast_n, mast_w = np.zeros((p, a), np.int64), np.zeros((p, a))
                            engine.pimcts_trees(s, mover, 2, 15, 1.0, True, 0.0, 1.0, *variant, rng,
                                                    a, p, np.zeros((2, a), np.int64), np.zeros((2, a)),
                                                    np.zeros(2, np.int64), tag, 0.1, mast_n, mast_w,
                                                    np.zeros((2, 2)))
                            engine.ismcts_tree_with(s, mover, 30, 1.0, AVAIL_EXPANDED, self_only == 1,
                                                   False, True, -13.0, 26.0, *variant, rng, a, p,
                                                   np.zeros(a, np.int64), np.zeros(a), np.zeros(a, np.bool_),
                                                   np.zeros(a, np.int64), np.zeros(2, np.int64), tag, 0.1,
                                                   mast_n, mast_w, np.zeros(2))
            if not step(rules, s, buf, probs, a, p, rnd):
                break
        rules.nb_returns(s, out)
print("ok")
'''


GAMES = (
    "belote2p",
    "colt_express",
    "dominion",
    "exploding_kittens",
    "hearts",
    "leduc_poker",
    "liars_dice",
    "love_letter",
    "monopoly_deal",
    "poker_tag",
    "seven_wonders",
    "stratego",
    "sushi_go",
    "trick_game",
    "virus",
)


def bounds_env() -> dict:
    """This process's environment with the tests' numba settings (``numba_env.checked_env``):
    bounds checking on and the tests' own cache, which numba's cache key (blind to the flag)
    keeps apart from the builds ``make figures`` loads."""
    tests = str(Path(__file__).resolve().parents[1])  # importable when run as a script
    if tests not in sys.path:
        sys.path.insert(0, tests)
    from numba_env import checked_env

    return checked_env()


def run_checks(games=(), timeout: float = 1700) -> subprocess.CompletedProcess:
    """Run SCRIPT on ``games`` (all: every game of SCRIPT) with bounds checking on, compiling
    into (or loading from) its own cache."""
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, *games],
        env=bounds_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def check(games=()) -> None:
    """Run SCRIPT on ``games`` in this process, started with ``bounds_env()`` (a worker of
    ``tests/precompile.py``); raises on a failed check, or if bounds checking is off."""
    if os.environ.get("NUMBA_BOUNDSCHECK") != "1":
        raise RuntimeError("check: this process was not started with bounds_env()")
    argv = sys.argv
    sys.argv = ["-c", *games]
    try:
        exec(SCRIPT, {"__name__": "bounds_check"})
    finally:
        sys.argv = argv


def test_every_kernel_game_is_checked():
    from infosets.games.kernels import kernel_games

    assert set(GAMES) == set(kernel_games())


# A fresh bounds-checked compile of every kernel and the engine took 10-16 min on a loaded
# 2-core machine (it is a compile-time bound, not a speed test; 30 s to 2 min a game). `make
# test` runs ``check`` for every game in tests/precompile.py's queue, after that game's
# engine, before pytest starts, and deselects this test.
@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", GAMES)
def test_kernel_and_engine_never_index_out_of_bounds(game):
    result = run_checks([game], timeout=880)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("ok")


def main(games) -> int:
    """Check ``games`` (all: every kernel game), one subprocess each; print each verdict."""
    failed = []
    for game in games or GAMES:
        try:
            result = run_checks([game], timeout=880)
        except subprocess.TimeoutExpired:
            failed.append(game)
            print(f"{game}: timed out (a compile on a busy machine; rerun to continue)", file=sys.stderr)
            continue
        if result.returncode:
            failed.append(game)
            print(f"{game}: exit {result.returncode}\n{result.stderr[-3000:]}", file=sys.stderr)
    print(
        f"bounds-checked numba build: {', '.join(failed) or 'none'} failed of {', '.join(games or GAMES)}",
        file=sys.stderr,
    )
    return 1 if failed else 0


def shard(argv: list[str]) -> list[str]:
    """The games of ``[--shard K/N] [GAME ...]``: every N-th game from the K-th (one process
    per core in `make test`), of the games named or of all."""
    if argv[:1] != ["--shard"]:
        return argv
    k, n = (int(x) for x in argv[1].split("/"))
    return list(argv[2:] or GAMES)[k::n]


if __name__ == "__main__":
    # `make test`'s warm-up (every game, split over the cores), or a check of the games named
    sys.exit(main(shard(sys.argv[1:])))
