"""Hearts worlds: how often OpenSpiel's resampler is refused, what the fallback costs, and
whether the fallback chain leaks the true deal.

Determinization for PI-MCTS and IS-MCTS on Hearts (slug ``pimcts_aggregation``). Hearts is
served by ``determinizers.CheckedResampler``: OpenSpiel's ``resample_from_infostate``, each
world replayed and refused ones redrawn, and after ``max_resample_tries`` (20) refusals in a
row the history-replay Metropolis chain (``ReplayDeterminizer(mode="chain")``), which starts
at the real history. At seeded play-phase decisions of random Hearts games, in one run:
- the share of decisions where all 20 resamples are refused (the chain then draws the world);
- CPU ms per world of ``CheckedResampler`` itself at those decisions (20 refused resamples,
  then the chain's history analysis and burn-in) against the other decisions (reference /
  ours);
- a leak check at the refused decisions: the share of the opponents' true cards that the
  chain's first world (burn-in 20 sweeps, as searched) puts in the true hand, against a chain
  burnt in 10x longer (ratio 1 means no leak). A chain started at the truth that had not
  mixed would keep more of it.
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_hearts_worlds.py [--states N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets.games.determinizers import CheckedResampler
from infosets.games.history_replay import ReplayDeterminizer

sys.path.insert(0, os.path.dirname(__file__))
from _harness import report, row  # noqa: E402

TOPIC = "hearts_worlds"
FIRST_PLAY = 70     # history length past the deal and the passes


def hand(state: pyspiel.State, seat: int) -> set[str]:
    """The cards ``seat`` holds, read from its information-state string's ``Hand:`` block."""
    block = state.information_state_string(seat).split("Hand:")[1].split("\n\n")[0]
    return {line[0] + card for line in block.strip().splitlines() for card in line[2:]}


def truth_share(world: pyspiel.State, truth: pyspiel.State, player: int) -> float:
    """Share of the opponents' true cards that ``world`` puts in the same opponent's hand."""
    same = total = 0
    for seat in range(4):
        if seat != player:
            held = hand(world, seat)
            for card in hand(truth, seat):
                total += 1
                same += card in held
    return same / max(total, 1)


def decisions(game, rng, n):
    """At the first ``n`` play-phase decisions of random games, one world from the project's
    Hearts sampler (``CheckedResampler``): (state, player, fell back to the chain, CPU ms)."""
    checked = CheckedResampler(game)
    out = []
    while len(out) < n:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < n:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            if len(state.history()) >= FIRST_PLAY:
                player, before = state.current_player(), checked.refused
                start = time.process_time()
                checked(state, player, rng)
                ms = 1000 * (time.process_time() - start)
                out.append((state.clone(), player,
                            checked.refused - before >= checked.max_resample_tries, ms))
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=150, help="play-phase decisions sampled")
    parser.add_argument("--states", type=int, default=12, help="refused decisions for the leak check")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.states < 2:
        parser.error("--decisions must be >= 1 and --states >= 2")
    game = pyspiel.load_game("hearts")
    rng = np.random.default_rng(args.seed)

    sample = decisions(game, rng, args.decisions)
    refused_share = float(np.mean([fell for _, _, fell, _ in sample]))
    fallback_ms = [ms for _, _, fell, ms in sample if fell]
    accepted_ms = [ms for _, _, fell, ms in sample if not fell]

    refused = [(s, p) for s, p, fell, _ in sample if fell]
    while len(refused) < args.states:   # top up from further games
        refused += [(s, p) for s, p, fell, _ in decisions(game, rng, 50) if fell]
    refused = refused[:args.states]
    first, long_ = [], []
    for i, (s, p) in enumerate(refused):
        for r in range(4):
            world = ReplayDeterminizer(game, mode="chain")(s, p, np.random.default_rng([args.seed, i, r]))
            first.append((i, truth_share(world, s, p)))
        chain = ReplayDeterminizer(game, mode="chain", burn_in_sweeps=200)
        sub = np.random.default_rng([args.seed, i, 99])
        long_ += [(i, truth_share(chain(s, p, sub), s, p)) for _ in range(20)]
    per_state_first = np.array([np.mean([v for j, v in first if j == i]) for i in range(len(refused))])
    per_state_long = np.array([np.mean([v for j, v in long_ if j == i]) for i in range(len(refused))])
    diff = per_state_first - per_state_long
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))

    report(TOPIC, [
        row("hearts: share of play-phase decisions where all 20 OpenSpiel resamples are refused",
            refused_share, None, "share", n_decisions=len(sample)),
        row("hearts: CPU ms per world of CheckedResampler, at a refused decision (20 resamples, "
            "then the chain's analysis and burn-in) vs an accepted one (reference / ours)",
            float(np.mean(fallback_ms)) if fallback_ms else float("nan"),
            float(np.mean(accepted_ms)), "ms", higher_is_better=False,
            n_fallback=len(fallback_ms), n_accepted=len(accepted_ms)),
        row("hearts: share of the opponents' true cards in the true hand, chain burn-in 20 vs 200 "
            "sweeps (1 = no leak)", float(per_state_first.mean()), float(per_state_long.mean()),
            "share", paired_difference=float(diff.mean()), ci95_half_width=float(half),
            n_states=len(refused), worlds_per_state="4 first worlds, 20 long-chain worlds"),
    ])


if __name__ == "__main__":
    main()
