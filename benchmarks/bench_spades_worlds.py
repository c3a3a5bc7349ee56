"""Spades worlds: the exact sampler against the history-replay chain it replaced.

Determinization for PI-MCTS and IS-MCTS on Spades (no paper run plays it; a user's search
does). Spades is served by ``spades_worlds.SpadesWorlds`` since 2026-11-29 (exact: uniform
over the deals consistent with the player's view, the voids and spade leads read from the
play, each world replayed and checked). Before, ``determinizers.sampler_for`` served it the
generic ``history_replay.ReplayDeterminizer`` chain, which mixes slowly late in a deal
(``tests/filtering/test_spades.py``). At seeded decisions of random Spades games (bidding
and play), in one run:
- CPU ms per world, ``SpadesWorlds`` (ours) against the chain (reference), ``worlds`` worlds
  drawn per decision as a search does (ours builds its plan once per information state);
- ``SpadesWorlds``' refused worlds (its rules make the replay check a guard: expected 0).
Run: ``nice -n 10 .venv/bin/python benchmarks/bench_spades_worlds.py [--decisions N]``.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pyspiel

import infosets.games  # noqa: F401  (registers our games)
from infosets.games.history_replay import ReplayDeterminizer
from infosets.games.spades.worlds import SpadesWorlds

sys.path.insert(0, os.path.dirname(__file__))
from _harness import report, row  # noqa: E402
from bench_hearts_worlds import cpu_ms_per_world, sampling_args, states  # noqa: E402

TOPIC = "spades_worlds"


def main(argv=None) -> None:
    args = sampling_args(__doc__.splitlines()[0], argv, decisions=60)
    game = pyspiel.load_game("spades")
    sample = states(game, np.random.default_rng(args.seed), args.decisions)
    exact = SpadesWorlds(game)
    ours = cpu_ms_per_world(exact, sample, args.worlds, args.seed)
    chain = cpu_ms_per_world(ReplayDeterminizer(game, mode="chain"), sample, args.worlds,
                             args.seed)
    n = dict(n_decisions=len(sample), worlds_per_decision=args.worlds)
    report(TOPIC, [
        row("spades: CPU ms per world, SpadesWorlds (exact) vs the history-replay chain it "
            "replaced", ours, chain, "ms", higher_is_better=False, **n),
        row("spades: SpadesWorlds worlds refused by the replay check", exact.refused, None,
            "worlds", **n),
    ])


if __name__ == "__main__":
    main()
