"""The generic history-replay determinizer on OpenSpiel games we never touched.

Determinization as used by PI-MCTS and IS-MCTS (slugs ``pimcts_aggregation``,
``belief_mixtures``); the sampler is ``infosets.games.history_replay.ReplayDeterminizer``.
Per game, at a seeded decision state, in one run:
- ms per sample (and the first call, which analyses the history or enumerates), with the
  ratio to the game's own ``resample_from_infostate`` where OpenSpiel implements one
  (reference / ours: above 1 means ours is faster);
- the share of samples whose information state equals the real one (must be 1);
- where the consistent set can be enumerated: chi-square of the sampler's worlds against the
  exact distribution, and the Markov chain's mixing on the same state (``mode="chain"``):
  chi-square p-value, total-variation distance to the exact distribution, and the share of
  consecutive samples that repeat the previous world.
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_determinizers.py [--samples N]``.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
import warnings

import numpy as np
import pyspiel
from scipy import stats

import infosets.games  # noqa: F401  (registers our games)
from infosets.games.history_replay import ReplayDeterminizer, infostate_key

sys.path.insert(0, os.path.dirname(__file__))
from _harness import report  # noqa: E402
from _harness import row as harness_row  # noqa: E402

TOPIC = "determinizers"
# (game, player moves before the measured decision)
GAMES = [
    ("dark_hex", 4), ("dark_hex_ir", 4), ("latent_ttt", 4), ("phantom_ttt_ir", 3),
    ("kriegspiel", 4), ("dark_chess", 3), ("phantom_go(board_size=5)", 6), ("battleship", 6),
    ("cribbage", 4), ("dou_dizhu", 4), ("hanabi", 4), ("tiny_hanabi", 1), ("liars_dice_ir", 1),
    ("tiny_bridge_4p", 2), ("rbc", 2), ("kuhn_poker(players=3)", 2), ("leduc_poker", 1),
    ("hearts", 8), ("gin_rummy", 6),  # bridge: its default scores each auction by double dummy
]


def play(game, rng, moves):
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])
            continue
        if made == moves:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
        made += 1
    return None


def sample_many(sampler, state, player, n, rng, seconds):
    worlds, start = [], time.perf_counter()
    while len(worlds) < n and time.perf_counter() - start < seconds:
        worlds.append(sampler(state, player, rng))
    return worlds, (time.perf_counter() - start) / max(len(worlds), 1)


def own_resampler_ms(state, player, n, seconds):
    try:
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0, 0.0, 1.0))
    except pyspiel.SpielError:
        return None
    start, done = time.perf_counter(), 0
    while done < n and time.perf_counter() - start < seconds:
        state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(done, 0.0, 1.0))
        done += 1
    return 1e3 * (time.perf_counter() - start) / done


def fit(worlds, exact):
    """Chi-square p-value, total variation distance to ``exact``, share of repeats."""
    keys = sorted(exact)
    counts = collections.Counter(tuple(w.history()) for w in worlds)
    n = len(worlds)
    observed = [counts.get(k, 0) for k in keys]
    outside = n - sum(observed)
    pvalue = stats.chisquare(observed, [n * exact[k] for k in keys]).pvalue if not outside else 0.0
    tv = 0.5 * (sum(abs(counts.get(k, 0) / n - exact[k]) for k in keys) + outside / n)
    repeats = np.mean([str(a) == str(b) for a, b in zip(worlds, worlds[1:])]) if n > 1 else 0.0
    return float(pvalue), float(tv), float(repeats)


def measure(name, moves, n, seconds, rng):
    game = pyspiel.load_game(name)
    state = play(game, rng, moves)
    if state is None:
        return []
    player = state.current_player()
    key = infostate_key(state, player)
    sampler = ReplayDeterminizer(game, mode="auto")
    start = time.perf_counter()
    try:
        sampler(state, player, rng)
        first_ms = 1e3 * (time.perf_counter() - start)
        worlds, per = sample_many(sampler, state, player, n, rng, seconds)
    except RuntimeError:  # fell back to the chain, which found no start without the truth
        return [harness_row(f"{name}: the sampler refused (no world without the truth found)",
                            float("nan"), None, "ms", higher_is_better=False, game=name)]
    kept = np.mean([infostate_key(w, player) == key for w in worlds])
    theirs = own_resampler_ms(state, player, n, seconds)
    extra = {"game": name, "method": sampler.last_method, "samples": len(worlds),
             "first_call_ms": first_ms, "infostate_kept": float(kept),
             "history_length": len(state.history())}
    rows = [harness_row(f"{name} ms/sample ({sampler.last_method}, first call {first_ms:.0f} ms, "
                        f"infostate kept {kept:.0%} of {len(worlds)})", 1e3 * per, theirs,
                        "ms", higher_is_better=False, **extra)]
    try:
        exact = ReplayDeterminizer(game, mode="exact").exact_distribution(state, player)
    except RuntimeError:
        return rows
    if len(exact) < 2:
        return rows
    p_sampler, tv_sampler, _ = fit(worlds, exact)
    chain = ReplayDeterminizer(game, mode="chain")
    try:
        chain_worlds, chain_per = sample_many(chain, state, player, n, rng, seconds)
    except RuntimeError:  # the chain starts from a world drawn without the truth, or refuses
        chain_worlds, chain_per = [], float("nan")
    p_chain, tv_chain, repeats = fit(chain_worlds, exact) if chain_worlds else (float("nan"),) * 3
    rows.append(harness_row(
        f"{name} vs exact enumeration ({len(exact)} worlds): sampler chi2 p={p_sampler:.3g} "
        f"TV={tv_sampler:.3f}; " + (f"chain chi2 p={p_chain:.3g} TV={tv_chain:.3f} "
                                     f"repeats={repeats:.0%} ({1e3 * chain_per:.2f} ms/sample)"
                                     if chain_worlds else "chain: no start without the truth found"),
        p_sampler, None, "chi2 p-value", consistent_worlds=len(exact), chain_pvalue=p_chain,
        chain_tv=tv_chain, sampler_tv=tv_sampler, chain_repeats=repeats, game=name))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=400, help="samples per game (default 400)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time cap per measurement")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.samples < 2 or args.seconds <= 0:
        parser.error("--samples must be >= 2 and --seconds > 0")
    rng = np.random.default_rng(np.random.SeedSequence(args.seed))
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, moves in GAMES:
            rows += measure(name, moves, args.samples, args.seconds, rng)
    report(TOPIC, rows)


if __name__ == "__main__":
    main()
