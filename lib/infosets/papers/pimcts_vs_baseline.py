"""Each game's agents against the OL-MCTS baseline, one row a game, for the PI-MCTS aggregation
paper (Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree
Search in Imperfect-Information Games", Fig. 1 and Sec. VI; docs/papers/pimcts_aggregation.md).

The claims table tests each of the paper's statements on its own row; this table puts a game's
three numbers side by side, so that a reader can see at a glance where IS-MCTS and the best
PI-MCTS cell stand against the baseline and against each other:

* IS-MCTS − OL-MCTS on every deal both played;
* the best PI-MCTS cell − OL-MCTS, the cell chosen as the claim "IS-MCTS matches or beats the
  best PI-MCTS" chooses it (on the even deals every cell played, ``pimcts_claims.chosen_and_tested``)
  and measured on the other deals only, so that the choice does not inflate its gain;
* IS-MCTS − that cell, with the claim's verdict (the claims table's row, recomputed here by the
  same function).

Every difference is paired per (deal, seat rotation), or per deal where the rotations are
correlated (``pimcts_claims._widest_unit``), with a t 95% interval; ``n`` counts those units.
The paper's stated PI-MCTS gain (``pimcts_analysis.paper_gain``) stands beside ours where it
gives a number, and its reading of the game (``pimcts_claims.READINGS``) where it gives words.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from infosets.experiments.legends import figure_legend
from infosets.papers import pimcts_analysis, pimcts_claims
from infosets.papers.pimcts_aggregation import is_paper_game

COLUMNS = ["game", "budget", "players", "paper_reading", "paper_pi_gain_lo", "paper_pi_gain_hi",
           "is_minus_ol", "is_minus_ol_lo", "is_minus_ol_hi", "is_minus_ol_n", "is_vs_ol",
           "pimcts_cell", "pi_minus_ol", "pi_minus_ol_lo", "pi_minus_ol_hi", "pi_minus_ol_n",
           "pi_vs_ol", "is_minus_pi", "is_minus_pi_lo", "is_minus_pi_hi", "is_minus_pi_n",
           "is_vs_best_pi", "note"]
NAME = "agents_vs_baseline"
PAPER_REF = "Fig. 1 and Sec. VI, each game's agents against OL-MCTS (ours: one row a game)"


def _players(results: pd.DataFrame, game: str) -> int:
    return int(results.loc[results["game"] == game, "players"].iloc[0])


def game_row(results: pd.DataFrame, game: str, budget: int) -> dict | None:
    """One game's row at ``budget`` (see the module docstring); None if the game has no
    control or no PI-MCTS cell there yet (a run in progress)."""
    table = pimcts_claims.paired_scores(results, game, budget)
    if "control" not in table.columns or not pimcts_claims.pi_cells(table):
        return None
    players = _players(results, game)
    name = game.split("(")[0]
    reading = pimcts_claims.READINGS.get((name, players), (None,))[0]
    gain = pimcts_analysis.paper_gain(game, high_budget=False)
    row = {c: np.nan for c in COLUMNS} | {
        "game": game, "budget": budget, "players": players, "paper_reading": reading or "",
        "paper_pi_gain_lo": gain[0] if gain else np.nan,
        "paper_pi_gain_hi": gain[1] if gain else np.nan,
        "is_vs_ol": "not run", "is_vs_best_pi": "not run"}
    notes = []
    best, test = pimcts_claims.chosen_and_tested(table)
    pi, unit = pimcts_analysis.paired_gap(test, best, "control")
    row.update({"pimcts_cell": best, "pi_minus_ol": pi["value"], "pi_minus_ol_lo": pi["lo"],
                "pi_minus_ol_hi": pi["hi"], "pi_minus_ol_n": pi["n"],
                "pi_vs_ol": pimcts_analysis.interval_side(pi["lo"], pi["hi"])})
    notes.append(f"PI-MCTS − OL-MCTS on the deals the choice did not read, unit {unit}")
    if "IS-MCTS" in table.columns:
        ism, unit = pimcts_analysis.paired_gap(table, "IS-MCTS", "control")
        row.update({"is_minus_ol": ism["value"], "is_minus_ol_lo": ism["lo"],
                    "is_minus_ol_hi": ism["hi"], "is_minus_ol_n": ism["n"],
                    "is_vs_ol": pimcts_analysis.interval_side(ism["lo"], ism["hi"])})
        notes.append(f"IS-MCTS − OL-MCTS unit {unit}")
        claim = pimcts_claims.ismcts_vs_best_pi(table, game, budget, players)
        lo, hi = claim.interval if claim.interval is not None else (np.nan, np.nan)
        row.update({"is_minus_pi": claim.ours if claim.ours is not None else np.nan,
                    "is_minus_pi_lo": lo, "is_minus_pi_hi": hi, "is_minus_pi_n": claim.n,
                    "is_vs_best_pi": claim.verdict})
    row["note"] = "; ".join(notes)
    return row


def agents_vs_baseline(results: pd.DataFrame, cfg) -> pd.DataFrame:
    """One row per paper game at its main budget (``pimcts_analysis.main_budget``), in the
    order the results hold them; the games beyond the paper stay in their own table."""
    rows = []
    for game in dict.fromkeys(results["game"]):
        if not is_paper_game(game):
            continue
        row = game_row(results, game, pimcts_analysis.main_budget(cfg, game))
        if row is not None:
            rows.append(row)
    return pd.DataFrame(rows, columns=COLUMNS)


def save(results: pd.DataFrame, session) -> pd.DataFrame:
    """``agents_vs_baseline`` saved as ``agents_vs_baseline``; returns the table."""
    table = agents_vs_baseline(results, session.cfg)
    session.save_table(table, NAME, paper_ref=PAPER_REF)
    return table


def plot(table: pd.DataFrame, session):
    """The table as one figure, a row per game: left, IS-MCTS − OL-MCTS (circles) and the best
    PI-MCTS cell − OL-MCTS (squares) with the paper's stated PI-MCTS gain (black bars); right,
    IS-MCTS − that cell with the non-inferiority margin and the verdict. Both panels share one
    x scale, within [-1, 1], so that sizes compare across them. Nothing for an empty table."""
    import matplotlib.pyplot as plt

    if table is None or not len(table):
        return None
    y = -np.arange(len(table), dtype=float)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 0.42 * len(table) + 1.8),
                                      layout="constrained", sharex=True, sharey=True)
    series = ((left, "is_minus_ol", "o", 0.14, "C0", "IS-MCTS − OL-MCTS"),
              (left, "pi_minus_ol", "s", -0.14, "C1", "best PI-MCTS cell − OL-MCTS"),
              (right, "is_minus_pi", "D", 0.0, "C2", "IS-MCTS − best PI-MCTS cell"))
    for ax, col, marker, shift, color, label in series:
        # a difference of two scores in [0, 1] lies in [-1, 1]: a t interval of a few games
        # that reaches past it is drawn to the bound (the table keeps it whole)
        lo = (table[col] - table[f"{col}_lo"].clip(lower=-1)).clip(lower=0).fillna(0)
        hi = (table[f"{col}_hi"].clip(upper=1) - table[col]).clip(lower=0).fillna(0)
        ax.errorbar(table[col], y + shift, xerr=[lo, hi], fmt=marker, ms=5, capsize=2,
                    color=color, label=label)
    stated = table["paper_pi_gain_lo"].notna()
    for yy, lo, hi in zip(y[stated], table.loc[stated, "paper_pi_gain_lo"],
                          table.loc[stated, "paper_pi_gain_hi"]):
        left.plot([lo, hi], [yy - 0.14] * 2, color="k", lw=2, marker="|", ms=11, mew=2)
    left.plot([], [], color="k", lw=2, marker="|", ms=11, mew=2,
              label="the paper's stated PI-MCTS gain")
    right.axvline(-pimcts_claims.MARGIN, color="C3", ls="--", lw=1,
                  label=f"non-inferiority margin (−{pimcts_claims.MARGIN:g})")
    for ax in (left, right):
        ax.axvline(0, color="k", ls=":", lw=1)
        ax.grid(axis="x", alpha=0.3)
    left.set_yticks(y, [f"{r.game}, B={int(r.budget)}\npaper: {r.paper_reading or 'no statement of its own'}"
                        for r in table.itertuples()], fontsize=7)
    left.set_ylim(y.min() - 0.6, 0.6)
    left.set_xlim(max(left.get_xlim()[0], -1.05), min(left.get_xlim()[1], 1.05))
    for yy, r in zip(y, table.itertuples()):
        n = "" if r.is_minus_pi_n != r.is_minus_pi_n else f", n={int(r.is_minus_pi_n)}"
        right.annotate(f"{r.is_vs_best_pi}{n}\nvs {r.pimcts_cell}", (1.01, yy),
                       xycoords=("axes fraction", "data"), fontsize=7, va="center")
    left.set_title("against the OL-MCTS baseline", fontsize=9)
    right.set_title("IS-MCTS − best PI-MCTS (verdict, n)", fontsize=9)
    fig.supylabel("paper game (B: iterations per decision) and the paper's reading", fontsize=8)
    fig.supxlabel("win-rate difference (fraction of games; paired per deal and seat rotation, "
                  "t 95% CI)", fontsize=8)
    figure_legend(fig, [left, right], "each paper game at its main budget; the best PI-MCTS "
                  "cell is chosen on the even deals and measured on the others")
    session.save_figure(fig, NAME, paper_ref=PAPER_REF)
    return fig
