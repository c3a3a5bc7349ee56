"""A one-off check of Boudier's two-player Belote ISMCTS (docs/papers/belote_ismcts.md):
does the paper's reward, card points without the 10-point last-trick bonus, cost points?

The same search (500 iterations, C = 82, the paper's options) scored by the game's returns
(bonus included) plays the paper's version on duplicate deals, each deal once from each
seat. Prints the variant's mean score (of 162) with a t 95% interval over deals.

    .venv/bin/python benchmarks/check_belote_reward.py 4000

Not a benchmark (``make bench`` runs ``bench_*.py`` only) and not in the notebook: it
tests a suspicion raised by the paper-preset claims (OpenSpiel's ISMCTSBot, which counts the
bonus, beats our ISMCTS).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import pyspiel
from scipy import stats

import infosets.games  # noqa: F401  (registers belote2p)
from infosets.core.rng import named_child
from infosets.papers import belote_ismcts as paper
from infosets.search import belote_ismcts as search

ROOT_SEED = 20261126


class ReturnsRewardBot(search.BeloteISMCTSBot):
    """The paper's ISMCTS with ``reward="returns"``: a playout scores the game's returns."""

    def _searcher(self, player: int):
        if player not in self._searchers:
            options = {**search.PAPER_OPTIONS, "reward": "returns"}
            self._searchers[player] = search.ISMCTSBot(
                pyspiel.load_game(search.GAME_NAME), player, iterations=self.iterations,
                uct_c=self.exploration, rng=self._rng, engine="compiled", **options)
        return self._searchers[player]


def main(deals: int) -> dict:
    game = pyspiel.load_game("belote2p")
    per_deal, scores = [], []
    start = time.process_time()
    for d in range(deals):
        deal, first = paper.deal_for(ROOT_SEED, d, game.constraint)
        pair = []
        for variant_seat in (0, 1):
            seq = named_child(ROOT_SEED, "seat play", d, variant_seat)
            a, b = seq.spawn(2)
            variant = ReturnsRewardBot(500, 82.0, rng=a)
            original = search.BeloteISMCTSBot(500, 82.0, rng=b)
            bots = [variant, original] if variant_seat == 0 else [original, variant]
            pair.append(paper.play_deal(game, deal, first, bots, seq)["scores"][variant_seat])
        scores += pair
        per_deal.append(np.mean(pair))
    x = np.asarray(per_deal)
    half = stats.t.ppf(0.975, deals - 1) * x.std(ddof=1) / np.sqrt(deals)
    return {"deals": deals, "games": 2 * deals, "variant_mean_score": round(x.mean(), 2),
            "ci95": [round(x.mean() - half, 2), round(x.mean() + half, 2)],
            "variant_games_above_81": round(float(np.mean(np.asarray(scores) > 81)), 4),
            "cpu_seconds": round(time.process_time() - start, 1)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 4000)))
