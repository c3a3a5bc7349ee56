"""Hearts worlds: the exact sampler against the OpenSpiel resampler it replaced.

Determinization for PI-MCTS and IS-MCTS on Hearts (slug ``pimcts_aggregation``). Hearts is
served by ``hearts_worlds.HeartsWorlds`` (exact: uniform over the deals and unseen passes
consistent with the player's view, each world replayed and checked). Until 2026-11-29 it was
``determinizers.CheckedResampler``: OpenSpiel's ``resample_from_infostate`` (which ignores
voids and keeps an opponent's unseen pass), each world replayed and refused ones redrawn,
and after 20 refusals in a row the history-replay Metropolis chain. At seeded decisions of
random Hearts games (passing and play phases), in one run:
- CPU ms per world, ``HeartsWorlds`` (ours) against ``CheckedResampler`` (reference), with
  ``worlds`` worlds drawn per decision as a search does (ours builds its plan once per
  information state);
- the same against OpenSpiel's bare resampler, unchecked (a floor no sound sampler beats by
  much: it reads no voids and its worlds may be illegal);
- the share of decisions where all 20 of ``CheckedResampler``'s resamples were refused;
- ``HeartsWorlds``' refused worlds (its rules make the replay check a guard: expected 0).
Timings are over the decisions where ``CheckedResampler`` gives a world: its chain fallback
refuses a decision where it finds no start without the truth (within 10 s): that decision's
draws end there, the refused draw is left out of the reference's time and the decision out of
the other samplers', and the refusals are counted (``decisions_the_reference_refused``).
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_hearts_worlds.py [--decisions N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets.games.determinizers import CheckedResampler, resample_sampler
from infosets.games.hearts.worlds import HeartsWorlds

sys.path.insert(0, os.path.dirname(__file__))
from _harness import report, row  # noqa: E402

TOPIC = "hearts_worlds"


def states(game, rng, n):
    """``n`` (state, mover) pairs at seeded decisions of random games, every phase."""
    out = []
    while len(out) < n:
        state = game.new_initial_state()
        while not state.is_terminal() and len(out) < n:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            if rng.random() < 0.25:
                out.append((state.clone(), state.current_player()))
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
    return out


def cpu_ms_per_world(sampler, sample, worlds, seed, refusals=None) -> float:
    """CPU ms per world of ``sampler`` over ``worlds`` draws at each decision of ``sample``;
    a draw the sampler refuses (RuntimeError: ``CheckedResampler``'s chain found no start
    without the truth) counts in ``refusals`` (a list, appended), not in the time, and ends
    that decision's draws."""
    rng = np.random.default_rng(seed)
    spent, made = 0.0, 0
    for state, player in sample:
        for _ in range(worlds):
            start = time.process_time()
            try:
                sampler(state, player, rng)
            except RuntimeError:
                if refusals is None:
                    raise
                refusals.append((state, player))
                break  # each refusal waits out the chain's 10 s start: the decision's other draws go
            spent += time.process_time() - start
            made += 1
    return 1000 * spent / max(made, 1)


def sampling_args(description: str, argv, decisions: int) -> argparse.Namespace:
    """``--decisions``, ``--worlds`` and ``--seed`` of a world-sampler benchmark, checked."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--decisions", type=int, default=decisions, help="decisions sampled")
    parser.add_argument("--worlds", type=int, default=20, help="worlds per decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.worlds < 1:
        parser.error("--decisions and --worlds must be >= 1")
    return args


def main(argv=None) -> None:
    args = sampling_args(__doc__.splitlines()[0], argv, decisions=120)
    game = pyspiel.load_game("hearts")
    sample = states(game, np.random.default_rng(args.seed), args.decisions)
    exact, checked = HeartsWorlds(game), CheckedResampler(game)
    # the reference first, over every decision; the samplers are then compared on the
    # decisions it served (a refusal ends that decision's draws, and it is left out)
    refused = []
    reference = cpu_ms_per_world(checked, sample, args.worlds, args.seed, refused)
    fell = checked.refused / (checked.max_resample_tries * len(sample) * args.worlds)
    sample = [decision for decision in sample if not any(decision is r for r in refused)]
    ours = cpu_ms_per_world(exact, sample, args.worlds, args.seed)
    bare = cpu_ms_per_world(resample_sampler, sample, args.worlds, args.seed)
    n = dict(n_decisions=len(sample), worlds_per_decision=args.worlds,
             decisions_the_reference_refused=len(refused))
    report(TOPIC, [
        row("hearts: CPU ms per world, HeartsWorlds (exact) vs CheckedResampler (OpenSpiel "
            "resample + replay check + chain fallback)", ours, reference, "ms",
            higher_is_better=False, **n),
        row("hearts: CPU ms per world, HeartsWorlds vs OpenSpiel's bare resampler (unchecked, "
            "reads no voids)", ours, bare, "ms", higher_is_better=False, **n),
        row("hearts: CheckedResampler calls that fell back to the chain (upper bound: refused "
            "resamples / 20 per call)", fell, None, "share", **n),
        row("hearts: HeartsWorlds worlds refused by the replay check", exact.refused, None,
            "worlds", **n),
    ])


if __name__ == "__main__":
    main()
