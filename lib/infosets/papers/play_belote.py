"""Play two-player Belote against the ISMCTS in JupyterLab (companion of ``belote_ismcts``).

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md): the paper's testers played the ISMCTS through a text board and a
history aid. ``board(session)`` builds the ipywidgets board (``human: true``) or, with no
human attached (``human: false``, as under papermill), a finished AI-vs-AI game;
``selfplay`` plays extra AI-vs-AI games; ``claims`` compares the human log with the
paper's 63 games. Finished human games are appended to ``log``.
"""

from __future__ import annotations

import pandas as pd

from infosets.claims import Claim, by_containment, frame, not_run
from infosets.core.rng import named_child
from infosets.experiments.config import Param, Schema, repo_root
from infosets.games.belote2p import log as game_log
from infosets.games.belote2p.deal import DealConstraint
from infosets.papers.belote_ismcts_analysis import HALF
from infosets.papers.belote_ismcts_analysis import PAPER_HUMAN_ABOVE_81 as HUMAN_ABOVE_81
from infosets.papers.belote_ismcts_analysis import PAPER_HUMAN_GAMES as HUMAN_GAMES
from infosets.papers.belote_ismcts_analysis import PAPER_HUMAN_MEAN as HUMAN_MEAN
from infosets.play.belote_match import Match
from infosets.play.belote_widget import BeloteBoard
from infosets.stats import mean_ci, wilson_interval

SCHEMA = Schema(
    params={
        "human": Param(bool, doc="attach a human board (false: the AI plays both seats)"),
        "human_seat": Param(str, choices=["0", "1", "random"], doc="the human's seat"),
        "iterations": Param(int, lo=1, hi=100_000, doc="the AI's ISMCTS iterations (paper 500)"),
        "exploration": Param(float, lo=0.0, hi=10_000.0, doc="the AI's UCB constant (paper 82)"),
        "min_trumps": Param(int, lo=0, hi=4, doc="fair deal: trumps per side"),
        "selfplay_games": Param(int, lo=0, hi=10_000, doc="extra AI-vs-AI games to show"),
        "log": Param(str, doc="human-game log, relative to the repository root"),
    },
)


def _match_seed(session, kind: str, index: int) -> int:
    """The seed of match ``index`` of ``kind`` ("board", "self-play"): the named child of the
    session seed (``infosets.core.rng.named_child``), as an int for ``Match``."""
    return int(named_child(session.cfg.seed, kind, index).generate_state(1)[0])


def new_match(session, game_index: int = 0) -> Match:
    """A seeded match from the session's config (AI vs AI when ``human`` is false)."""
    cfg = session.cfg
    seat = cfg["human_seat"] if cfg["human"] else None
    return Match(_match_seed(session, "board", game_index), seat, cfg["iterations"], cfg["exploration"],
                 repo_root() / cfg["log"] if cfg["human"] else None,
                 DealConstraint(min_trumps=cfg["min_trumps"]))


def board(session) -> BeloteBoard:
    """The board of game 0 (already played out when no human is attached)."""
    return BeloteBoard(new_match(session, 0))


def selfplay(session) -> pd.DataFrame:
    """``selfplay_games`` AI-vs-AI games: first leader, scores, tricks won by seat 0."""
    rows = []
    for i in range(1, session.cfg["selfplay_games"] + 1):
        match = Match(_match_seed(session, "self-play", i), None, session.cfg["iterations"],
                      session.cfg["exploration"], None,
                      DealConstraint(min_trumps=session.cfg["min_trumps"]))
        match.run_ai()
        winners = [w for _, _, _, w in match.state.plays if w >= 0]
        s = match.score()
        rows.append({"game": i, "first_leader": match.state.first_leader, "score_0": s[0],
                     "score_1": s[1], "tricks_won_0": winners.count(0)})
    return pd.DataFrame(rows, columns=["game", "first_leader", "score_0", "score_1",
                                       "tricks_won_0"])


def claims(session) -> pd.DataFrame:
    """The human log against the paper's 63 games, as ``Claim`` records (match: the paper's
    number lies inside our 95% interval)."""
    games = game_log.read_games(repo_root() / session.cfg["log"])
    rate = HUMAN_ABOVE_81 / HUMAN_GAMES
    if games.empty:
        rows = [not_run("AI scores > 81 against humans", f"{rate:.3f} (43/63)",
                        "no human games logged yet")]
    else:
        w = wilson_interval(float((games["ai_score"] > HALF).sum()), len(games))
        m = mean_ci(games["ai_score"])
        interval = (m.lo, m.hi) if m.n >= 2 else None  # one game: mean_ci's is [x, x]
        rows = [Claim("AI scores > 81 against humans", f"{rate:.3f} (43/63)", w.value,
                      by_containment(w.lo, w.hi, rate), interval=(w.lo, w.hi), n=len(games),
                      test="Wilson 95% interval contains the paper's value"),
                Claim("AI mean score against humans", f"{HUMAN_MEAN}", m.value,
                      by_containment(*interval, HUMAN_MEAN) if interval else "inconclusive",
                      interval=interval, n=m.n, test="t 95% interval contains the paper's value",
                      note="" if interval else "one game: no interval yet")]
    return frame(rows)
