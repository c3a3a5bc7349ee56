"""The paper's games against humans, recomputed from the author's raw logs.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), Section VI: 63 games of the ISMCTS AI against human players. The logs
(``data/belote_human_logs/``, the author's files, copied unchanged) give who led first, the
winner of each trick and the AI's score. From them we compute, with 95% intervals, what the
paper reports: the share of games the AI wins (more than 81 of 162 points), the mean score,
the mean score by first leader (Fig. 5) and the AI's win rate per trick (Fig. 6). Our own
games against people (``make play-belote``) are read by the same code.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from infosets.games.belote2p import log as game_log
from infosets.games.belote2p.rules import TOTAL_POINTS
from infosets.stats import mean_ci, welch_difference, wilson_interval

HALF = TOTAL_POINTS / 2  # more than 81 points wins the deal
LOG_FOLDER = Path("data") / "belote_human_logs"


def published_games(root) -> pd.DataFrame:
    """The 63 published games (one row each; ``trick_1..16`` 1 where the AI won the trick)."""
    return game_log.read_folder(Path(root) / LOG_FOLDER)


def summary(games: pd.DataFrame, who: str) -> pd.DataFrame:
    """Section VI's headline numbers for ``games``, one row per statistic, with 95% intervals.

    Statistics: ``above_81`` (share of games over 81 points, Wilson), ``mean_score`` (t),
    ``mean_score_ai_first`` and ``mean_score_opponent_first`` (t), and
    ``first_leader_gap`` (AI-first minus opponent-first mean score, Welch).
    """
    if games.empty:
        raise ValueError(f"{who}: no games to summarise")
    scores = games["ai_score"].to_numpy(float)
    ai_first = games.loc[games["ai_led_first"], "ai_score"].to_numpy(float)
    opp_first = games.loc[~games["ai_led_first"], "ai_score"].to_numpy(float)
    rows = [("above_81", wilson_interval(int((scores > HALF).sum()), scores.size)),
            ("mean_score", mean_ci(scores))]
    if ai_first.size:
        rows.append(("mean_score_ai_first", mean_ci(ai_first)))
    if opp_first.size:
        rows.append(("mean_score_opponent_first", mean_ci(opp_first)))
    if ai_first.size > 1 and opp_first.size > 1:
        rows.append(("first_leader_gap", welch_difference(ai_first, opp_first)))
    return pd.DataFrame([{"who": who, "statistic": name, "value": e.value, "lo": e.lo,
                          "hi": e.hi, "n": e.n} for name, e in rows])


def trick_win_rates(games: pd.DataFrame, who: str) -> pd.DataFrame:
    """The AI's win rate at each of the 16 tricks (Fig. 6), Wilson 95% intervals."""
    rows = []
    for i, column in enumerate(game_log.TRICK_COLUMNS, start=1):
        e = wilson_interval(int(games[column].sum()), len(games))
        rows.append({"who": who, "trick": i, "win_rate": e.value, "lo": e.lo, "hi": e.hi,
                     "n": e.n})
    return pd.DataFrame(rows)
