"""The tables, figures and claims of the two-player Belote ISMCTS paper, and its published
human games.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md): the ISMCTS's score distribution and the fraction of deals
above 81 (the paper: 43 of 63 human games, mean 92.1), the mean score by first leader
(Fig. 5), the trick-win rate per trick (Fig. 6), the C x iterations heatmap, void inference,
and the paper's 63 human games recomputed from the author's logs. The rows come from the
tasks in ``belote_ismcts``; nothing here is in the results key.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from infosets import plots, stats
from infosets.claims import Claim, by_containment, by_interval, not_run
from infosets.claims import save as save_claims
from infosets.experiments.config import repo_root
from infosets.games.belote2p import log as human_log
from infosets.games.belote2p.rules import NUM_TRICKS, TOTAL_POINTS
from infosets.papers import belote_human_games
from infosets.papers.belote_ismcts import TRICK_COLUMNS
from infosets.stats import mean_ci, wilson_interval

# The paper's stated numbers for its 63 human games (Section VI, Figs 5-6). The figures and
# claims recompute them, with intervals, from the author's raw logs (``belote_human_games``).
PAPER_HUMAN_GAMES = 63
PAPER_HUMAN_ABOVE_81 = 43
PAPER_HUMAN_MEAN = 92.1
PAPER_HUMAN_MEAN_AI_FIRST = 97.3
PAPER_HUMAN_MEAN_HUMAN_FIRST = 87.7
PAPER_HUMAN_TRICK_WIN_PCT = (40, 41, 49, 46, 57, 56, 54, 59, 49, 56, 48, 57, 60, 73, 78, 71)
HUMAN_PAPER = "human (paper logs)"
HALF = TOTAL_POINTS / 2  # 81: "more than 81" wins the deal


# ---- human games -------------------------------------------------------------------
def human_games(cfg) -> pd.DataFrame:
    """Every game in the human log (possibly none), as rows like the bot games."""
    games = human_log.read_games(repo_root() / cfg["human_log"])
    return games.assign(opponent="human (our log)")


def published_human_games() -> pd.DataFrame:
    """The paper's 63 games against humans, from the author's logs, as rows like the bot games."""
    return belote_human_games.published_games(repo_root()).assign(opponent=HUMAN_PAPER)


def _with_published_humans(results: pd.DataFrame) -> pd.DataFrame:
    columns = ["opponent", "ai_led_first", "ai_score", *TRICK_COLUMNS]
    return pd.concat([published_human_games()[columns], results[columns]], ignore_index=True)


# ---- analysis ----------------------------------------------------------------------
def score_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per opponent: games, mean score (95% CI), fraction above 81 (Wilson 95% CI); the
    paper's human games (recomputed from the author's logs) first."""
    rows = []
    for opp, sub in _with_published_humans(results).groupby("opponent", sort=False):
        if sub.empty:
            continue
        m = mean_ci(sub["ai_score"])
        w = wilson_interval(float((sub["ai_score"] > HALF).sum()), len(sub))
        rows.append({"opponent": opp, "games": len(sub), "mean_score": m.value,
                     "mean_lo": m.lo, "mean_hi": m.hi, "above_81": w.value,
                     "above_81_lo": w.lo, "above_81_hi": w.hi})
    return pd.DataFrame(rows)


def by_first_leader(results: pd.DataFrame) -> pd.DataFrame:
    """Mean AI score (95% CI) by who led first, per opponent, the paper's human games first."""
    rows = []
    frame = _with_published_humans(results)
    for (opp, first), sub in frame.groupby(["opponent", "ai_led_first"], sort=False):
        m = mean_ci(sub["ai_score"])
        rows.append({"opponent": opp, "first": "AI" if first else "opponent",
                     "games": len(sub), "mean_score": m.value, "lo": m.lo, "hi": m.hi})
    return pd.DataFrame(rows)


def trick_win_rates(results: pd.DataFrame) -> pd.DataFrame:
    """AI trick-win % per trick 1..16 (Wilson 95% CI) per opponent, the paper's human games
    (recomputed from the author's logs) first."""
    rows = []
    for opp, sub in _with_published_humans(results).groupby("opponent", sort=False):
        for t in range(1, NUM_TRICKS + 1):
            w = wilson_interval(float(sub[f"trick_{t}"].sum()), len(sub))
            rows.append({"opponent": opp, "trick": t, "win_pct": 100 * w.value,
                         "lo": 100 * w.lo, "hi": 100 * w.hi, "games": len(sub)})
    return pd.DataFrame(rows)


def duplicate_mean(results: pd.DataFrame, confidence: float = 0.95) -> dict:
    """Mean AI score over duplicate pairs (each deal's two seats averaged), with a CI. One
    deal gives no interval (NaN bounds, so no verdict rests on it), where ``mean_ci`` would
    give a zero-width one."""
    per_deal = results.groupby("deal")["ai_score"].mean()
    m = mean_ci(per_deal.to_numpy(), confidence)
    lo, hi = (m.lo, m.hi) if m.n >= 2 else (np.nan, np.nan)
    return {"mean": m.value, "lo": lo, "hi": hi, "deals": m.n}


def heatmap_frame(heat: pd.DataFrame) -> pd.DataFrame:
    return heat.pivot_table(index="exploration", columns="iterations", values="ai_score",
                            aggfunc="mean")


# ---- figures -----------------------------------------------------------------------
SCORE_LABEL = "ISMCTS score (card points, of 162)"
OPPONENT_LABEL = "opponent (bot)"


def plot_scores(results: pd.DataFrame, session):
    """Score per game per opponent (box plots) and the share of games won with a Wilson 95%
    interval; the paper's human games (mean 92.1; 43 of 63 won) as paper lines."""
    import matplotlib.pyplot as plt

    summary = score_summary(results)
    opponents = list(dict.fromkeys(results["opponent"]))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.0))
    ax = axes[0]
    data = [results.loc[results["opponent"] == o, "ai_score"].to_numpy() for o in opponents]
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(opponents) + 1),
                  [f"{o}\n(n={len(d)})" for o, d in zip(opponents, data)], fontsize=8)
    ax.axhline(HALF, color="red", lw=1, label="81 points")
    plots.paper_level(ax, PAPER_HUMAN_MEAN, label=f"paper: mean {PAPER_HUMAN_MEAN} vs humans")
    plots.label_axes(ax, OPPONENT_LABEL, SCORE_LABEL)
    ax.set_title("Score per game (box: quartiles; triangle: mean)", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    ax = axes[1]
    x = np.arange(len(summary))
    err = np.array([summary["above_81"] - summary["above_81_lo"],
                    summary["above_81_hi"] - summary["above_81"]])
    ax.bar(x, 100 * summary["above_81"], yerr=100 * err, capsize=3,
           color=["0.6"] + ["C0"] * (len(summary) - 1))
    ax.set_xticks(x, [f"{o.replace(' (', chr(10) + '(')}\n(n={n})"  # wrap "human (paper logs)"
                      for o, n in zip(summary["opponent"], summary["games"])], fontsize=7)
    ax.axhline(50, color="red", lw=1)
    plots.paper_level(ax, 100 * PAPER_HUMAN_ABOVE_81 / PAPER_HUMAN_GAMES,
                      label=f"paper: {PAPER_HUMAN_ABOVE_81} of {PAPER_HUMAN_GAMES} human games")
    plots.label_axes(ax, "opponent (bot, or the paper's human players)",
                     "games with > 81 points (% of games)")
    ax.set_title("Games won (error bars: Wilson 95% CI)", fontsize=10)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    session.save_figure(fig, "score_by_opponent", paper_ref="Section VI (43 of 63, mean 92.1)")
    return fig


def plot_first_leader(results: pd.DataFrame, session):
    """Mean score by who leads trick 1, per opponent, with t 95% intervals; the paper's
    values for its human games (97.3 when the AI leads, 87.7 when the human leads) as paper
    markers on the human games recomputed from its logs (or in a group of their own)."""
    import matplotlib.pyplot as plt

    table = by_first_leader(results)
    opponents = list(dict.fromkeys(table["opponent"]))
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    width = 0.38
    paper_x = opponents.index(HUMAN_PAPER) if HUMAN_PAPER in opponents else len(opponents)
    ticks = opponents if HUMAN_PAPER in opponents else opponents + ["humans\n(paper)"]
    for j, (first, paper_mean) in enumerate((("AI", PAPER_HUMAN_MEAN_AI_FIRST),
                                             ("opponent", PAPER_HUMAN_MEAN_HUMAN_FIRST))):
        sub = table[table["first"] == first].set_index("opponent").reindex(opponents)
        x = np.arange(len(opponents)) + (j - 0.5) * width
        means = sub["mean_score"].to_numpy(dtype=float)
        err = np.array([means - sub["lo"].to_numpy(dtype=float),
                        sub["hi"].to_numpy(dtype=float) - means])
        bars = ax.bar(x, means, width, label=f"{first} leads trick 1")
        ok = np.isfinite(err).all(axis=0)
        ax.errorbar(x[ok], means[ok], yerr=err[:, ok], fmt="none", ecolor="k", capsize=3)
        plots.paper_overlay(ax, paper_x + (j - 0.5) * width, paper_mean,
                            color=bars.patches[0].get_facecolor(),
                            label="paper: its human games (Fig. 5)")
    ax.set_ylim(0, TOTAL_POINTS)
    ax.axhline(HALF, color="red", lw=1)
    ax.set_xticks(np.arange(len(ticks)), ticks, fontsize=8)
    plots.label_axes(ax, "opponent (bot, or the paper's human players)", "mean " + SCORE_LABEL)
    ax.set_title("Score by first leader (error bars: t 95% CI)", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    session.save_figure(fig, "score_by_first_leader", paper_ref="Fig. 5")
    return fig


def plot_trick_wins(results: pd.DataFrame, session):
    """Share of each trick won by ISMCTS per opponent (Wilson 95% bands), the recomputed human
    games, and the paper's Fig. 6 values as paper markers."""
    import matplotlib.pyplot as plt

    table = trick_win_rates(results)
    fig, ax = plt.subplots(figsize=(8, 3.8))
    bots = table[table["opponent"] != HUMAN_PAPER]
    plots.lines_ci(ax, bots, "trick", "win_pct", "lo", "hi", hue="opponent",
                   xlabel="trick (1 to 16)", ylabel="tricks won by ISMCTS (% of deals)",
                   ci_label="shaded: Wilson 95% CI", legend=False)
    human = table[table["opponent"] == HUMAN_PAPER]
    ax.errorbar(human["trick"], human["win_pct"], yerr=[human["win_pct"] - human["lo"],
                human["hi"] - human["win_pct"]], fmt="k--", marker="s", ms=3, capsize=2,
                label=f"{HUMAN_PAPER}, n={int(human['games'].iloc[0])}")
    plots.paper_overlay(ax, range(1, NUM_TRICKS + 1), PAPER_HUMAN_TRICK_WIN_PCT,
                        label="paper: Fig. 6 values")
    ax.axhline(50, color="red", lw=1)
    ax.set_xticks(range(1, NUM_TRICKS + 1))
    ax.legend(fontsize=7, title="opponent", title_fontsize=7)
    ax.set_title("Trick-win rate per trick", fontsize=10)
    fig.tight_layout()
    session.save_figure(fig, "trick_win_rate", paper_ref="Fig. 6")
    return fig


def heatmap_cells(heat: pd.DataFrame) -> pd.DataFrame:
    """Per (exploration, iterations) cell: mean AI score over duplicate deals with its t 95%
    interval (``duplicate_mean``), and whether the interval contains 81."""
    rows = []
    for (c, it), sub in heat.groupby(["exploration", "iterations"]):
        d = duplicate_mean(sub)
        rows.append({"exploration": c, "iterations": it, **d, "games": len(sub),
                     "contains_half": not (d["lo"] > HALF or d["hi"] < HALF) or d["deals"] < 2})
    return pd.DataFrame(rows)


def plot_heatmap(heat: pd.DataFrame, session, cfg):
    """Mean score per (exploration C, iterations) against the paper's ISMCTS, on a diverging
    scale centred on 81. Each cell prints its mean and the half-width of its t 95% interval
    over duplicate deals; cells whose interval contains 81 (no detectable difference from
    an even game) are hatched. The paper's own setting is marked with the paper marker."""
    import matplotlib.pyplot as plt

    cells = heatmap_cells(heat)
    frame = cells.pivot(index="exploration", columns="iterations", values="mean")
    half = (cells["hi"] - cells["mean"]).where(cells["deals"] >= 2)
    text = [f"{m:.1f}\n±{h:.1f}" if np.isfinite(h) else f"{m:.1f}\n(1 deal)"
            for m, h in zip(cells["mean"], half)]
    labels = cells.assign(text=text).pivot(index="exploration", columns="iterations",
                                           values="text")
    hatch = cells.pivot(index="exploration", columns="iterations", values="contains_half")
    fig, ax = plt.subplots(figsize=(7.0, 4.6))
    n_games, n_deals = int(cells["games"].min()), int(cells["deals"].min())
    plots.heatmap(ax, frame, fmt=".1f", cmap="RdBu", center=HALF, labels=labels, hatch=hatch,
                  hatch_label="95% CI contains 81 (no detectable difference from an even game)",
                  title=f"Mean score vs the paper's ISMCTS ({cfg['iterations']} it, "
                        f"C={cfg['exploration']:g})\n{n_games} games = {n_deals} duplicate "
                        "deals per cell; ± = half-width of the t 95% CI",
                  xlabel="iterations per move (count)", ylabel="exploration C (points)",
                  cbar_label="mean " + SCORE_LABEL)
    ax.title.set_fontsize(9)
    rows, cols = list(frame.index), list(frame.columns)
    if cfg["exploration"] in rows and cfg["iterations"] in cols:
        plots.paper_overlay(ax, cols.index(cfg["iterations"]) + 0.85,
                            rows.index(cfg["exploration"]) + 0.2,
                            label=f"the paper's setting (C = {cfg['exploration']:g}, "
                                  f"{cfg['iterations']} it; the mirror match)")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0.0, -0.22), frameon=False)
    fig.tight_layout()
    session.save_figure(fig, "heatmap_exploration_iterations", paper_ref="Section V (C = 82)")
    return fig


# ---- claims ------------------------------------------------------------------------
def leading_first_gap(sub: pd.DataFrame) -> tuple[stats.Estimate, float] | None:
    """Per duplicate deal, the AI's score when it led first minus its score when the
    opponent led first (the deal is played once each way), with the paired t interval and
    the two-sided p-value of a zero gap."""
    led = sub[sub["ai_led_first"]].set_index("deal")["ai_score"]
    other = sub[~sub["ai_led_first"]].set_index("deal")["ai_score"]
    joint = led.to_frame("led").join(other.to_frame("other"), how="inner")
    if len(joint) < 2:
        return None
    return stats.paired_t_test((joint["led"] - joint["other"]).to_numpy(),
                               bounds=(-TOTAL_POINTS, TOTAL_POINTS))


def _vs_half(d: dict, *, expect_below: bool) -> str:
    if d["hi"] < HALF:
        return "match" if expect_below else "mismatch"
    if d["lo"] > HALF:
        return "mismatch" if expect_below else "match"
    return "inconclusive"


def claims(results: pd.DataFrame, heat: pd.DataFrame, inference: pd.DataFrame,
           humans: pd.DataFrame, cfg, session=None) -> pd.DataFrame:
    """The paper's claims as ``Claim`` records (saved as ``claims`` when ``session`` is given).

    The paper's Section VI numbers (43 of 63 games above 81, mean 92.1, 97.3 vs 87.7 by
    first leader, Fig. 6's rise of the trick-win rate) were measured against human
    volunteers; our AI plays bots, whose strength differs from the humans', so the size of
    an effect against a bot cannot confirm or refute the size against humans. Each
    per-opponent row therefore tests the direction the paper's statement implies, against
    any opponent: the AI wins most games (Wilson 95% interval of the fraction above 81 against
    1/2), scores more than half the points (t 95% interval of the mean against 81), gains
    from leading first (paired t interval of the per-deal gap against 0) and wins more
    tricks at the end (t interval of tricks 14-16 minus 1-3 against 0); ``by_interval``
    gives match / mismatch / inconclusive. The human number stays in the ``paper`` column as
    a reference only; no per-opponent verdict depends on it."""
    rows: list[Claim] = []
    human_rate = PAPER_HUMAN_ABOVE_81 / PAPER_HUMAN_GAMES
    paper_diff = PAPER_HUMAN_MEAN_AI_FIRST - PAPER_HUMAN_MEAN_HUMAN_FIRST
    paper_gap = (np.mean(PAPER_HUMAN_TRICK_WIN_PCT[-3:]) - np.mean(PAPER_HUMAN_TRICK_WIN_PCT[:3])) / 100
    rows += _published_human_claims(paper_diff)
    for opp, sub in results.groupby("opponent", sort=False):
        w = wilson_interval(float((sub["ai_score"] > HALF).sum()), len(sub))
        rows.append(Claim(f"the AI wins most games (> 81 points), vs {opp}",
                          f"{human_rate:.3f} (43/63, vs humans; reference)", w.value,
                          by_interval(w.lo - 0.5, w.hi - 0.5, expect="positive"),
                          interval=(w.lo, w.hi), n=len(sub),
                          test=f"Wilson 95% interval of the fraction against 1/2; the paper's "
                               f"{human_rate:.3f} was against humans and is a reference, not a "
                               f"target"))
        m = mean_ci(sub["ai_score"])
        rows.append(Claim(f"the AI scores more than half the points, vs {opp}",
                          f"{PAPER_HUMAN_MEAN} (vs humans; reference)", m.value,
                          by_interval(m.lo - HALF, m.hi - HALF, expect="positive"),
                          interval=(m.lo, m.hi), n=m.n,
                          test=f"t 95% interval of the mean score against 81; the paper's "
                               f"{PAPER_HUMAN_MEAN} was against humans and is a reference, not a "
                               f"target"))
        gap = leading_first_gap(sub)
        if gap is not None:
            est, p = gap
            rows.append(Claim(f"leading first helps, vs {opp}",
                              f"{paper_diff:.1f} (97.3 - 87.7, vs humans; reference)", est.value,
                              by_interval(est.lo, est.hi, expect="positive"),
                              interval=(est.lo, est.hi), n=est.n,
                              test=f"paired t 95% interval of the per-deal score gap (AI led first "
                                   f"- opponent led first; each deal led once by each side) "
                                   f"against 0; the paper's {paper_diff:.1f} was against humans "
                                   f"and is a reference, not a target",
                              note=f"p of a zero gap {p:.3g}"))
        d = sub[TRICK_COLUMNS[-3:]].to_numpy().mean(axis=1) - sub[TRICK_COLUMNS[:3]].to_numpy().mean(axis=1)
        m = mean_ci(d)
        rows.append(Claim(f"trick-win rate rises at the end (tricks 14-16 minus 1-3), vs {opp}",
                          f"{paper_gap:.3f} (Fig. 6, vs humans; reference)", m.value,
                          by_interval(m.lo, m.hi, expect="positive"),
                          interval=(m.lo, m.hi), n=m.n,
                          test=f"t 95% interval over games against 0; the paper's {paper_gap:.3f} "
                               f"was against humans and is a reference, not a target"))
    if not heat.empty:
        rows += _heatmap_claims(heat, cfg)
    if not inference.empty:
        d = duplicate_mean(inference)
        rows.append(Claim("void inference vs plain determinization (mean score, duplicate deals)",
                          "not measured (footnote 5)", d["mean"], "inconclusive",
                          interval=(d["lo"], d["hi"]), n=d["deals"], test="t over duplicate deals",
                          note="not a claim of the paper; "
                               + ("a gain" if d["lo"] > HALF else "a loss" if d["hi"] < HALF
                                  else "no significant difference") + " against 81"))
    if len(humans):
        w = wilson_interval(float((humans["ai_score"] > HALF).sum()), len(humans))
        rows.append(Claim("fraction > 81 in our human log", f"{human_rate:.3f} (43/63)", w.value,
                          by_containment(w.lo, w.hi, human_rate), interval=(w.lo, w.hi),
                          n=len(humans), test="Wilson 95% interval contains the paper's value"))
    else:
        rows.append(not_run("fraction > 81 in our human log", "43/63", "no human games logged yet"))
    rows.append(not_run("Fig. 4: determinization fuses strategies (picks a_1 for a +1 it cannot "
                        "secure)", "strategy fusion example (Fig. 4)",
                        "needs Fig. 4's tree as a small pyspiel game and PIMC / ISMCTS run on it "
                        "(the caption leaves the payoffs after b_2 in y and z to the figure, lost "
                        "in our text copy)"))
    if session is not None:
        return save_claims(rows, session, paper_ref="Sections V-VI")
    from infosets.claims import frame  # noqa: PLC0415
    return frame(rows)


def _heatmap_claims(heat: pd.DataFrame, cfg) -> list[Claim]:
    """What fewer iterations cost, and whether any C beats 82, against the paper's ISMCTS."""
    rows = []
    fewest = min(heat["iterations"])
    if fewest < cfg["iterations"]:
        # The paper's C only (issue 53): pooling the six C values tested the grid's average C,
        # not "500 iterations stay performant" at the paper's setting.
        c = cfg["exploration"]
        cell = heat[(heat["iterations"] == fewest) & np.isclose(heat["exploration"], c)]
        claim = f"{fewest} iterations (C = {c:g}) lose to the paper's {cfg['iterations']}"
        paper = "500 iterations 'stay performant' (no number)"
        if cell.empty:
            rows.append(not_run(claim, paper, f"no heatmap cell at {fewest} iterations and C = {c:g}"))
        else:
            d = duplicate_mean(cell)
            rows.append(Claim(claim, paper, d["mean"], _vs_half(d, expect_below=True),
                              interval=(d["lo"], d["hi"]), n=d["deals"],
                              test="t over duplicate deals against 81 (half the points)",
                              note=f"the paper's C = {c:g} only; fewer iterations losing is our "
                                   "reading of 'stay performant'"))
    at_budget = heat[heat["iterations"] == cfg["iterations"]]
    if not at_budget.empty:
        groups = dict(list(at_budget.groupby("exploration")))
        family = 1 - 0.05 / len(groups)  # Bonferroni: the best of k values of C is selected
        means = {c: duplicate_mean(sub, family) for c, sub in groups.items()}
        best = max(means, key=lambda c: means[c]["mean"])
        d = means[best]
        rows.append(Claim(f"no C beats C = {cfg['exploration']:g} at {cfg['iterations']} iterations",
                          "C = 82 balances exploration (no number)", d["mean"],
                          "mismatch" if d["lo"] > HALF else "inconclusive",
                          interval=(d["lo"], d["hi"]), n=d["deals"],
                          test=f"best of {len(groups)} C, interval Bonferroni-corrected over C",
                          note=f"ours: C = {best:g}; not beaten is not equivalence"))
    return rows


def _published_human_claims(paper_diff: float) -> list[Claim]:
    """The paper's human-game numbers recomputed from the author's logs (Section VI)."""
    games = published_human_games()
    table = belote_human_games.summary(games, HUMAN_PAPER).set_index("statistic")
    tricks = belote_human_games.trick_win_rates(games, HUMAN_PAPER)
    above = int(round(table.loc["above_81", "value"] * len(games)))
    exact = (len(games) == PAPER_HUMAN_GAMES and above == PAPER_HUMAN_ABOVE_81
             and round(table.loc["mean_score", "value"], 1) == PAPER_HUMAN_MEAN
             and round(table.loc["mean_score_ai_first", "value"], 1) == PAPER_HUMAN_MEAN_AI_FIRST
             and round(table.loc["mean_score_opponent_first", "value"], 1)
             == PAPER_HUMAN_MEAN_HUMAN_FIRST
             and [round(100 * r) for r in tricks["win_rate"]] == list(PAPER_HUMAN_TRICK_WIN_PCT))
    gap = table.loc["first_leader_gap"]
    return [
        Claim("the 63 human games' statistics recompute from the author's logs",
              f"{PAPER_HUMAN_ABOVE_81}/{PAPER_HUMAN_GAMES} above 81, mean {PAPER_HUMAN_MEAN}, "
              f"by first leader {PAPER_HUMAN_MEAN_AI_FIRST}/{PAPER_HUMAN_MEAN_HUMAN_FIRST}, Fig. 6",
              table.loc["mean_score", "value"], "match" if exact else "mismatch",
              interval=(table.loc["mean_score", "lo"], table.loc["mean_score", "hi"]),
              n=len(games), test="exact recomputation (rounded as the paper rounds)",
              note=f"{above}/{len(games)} above 81; every Fig. 6 percentage equal"
              if exact else "the logs disagree with the paper's numbers"),
        Claim("leading first helps against humans (the paper's own 63 games)",
              f"{paper_diff:.1f} (97.3 - 87.7)", gap["value"],
              "match" if gap["lo"] > 0 else "mismatch" if gap["hi"] < 0 else "inconclusive",
              interval=(gap["lo"], gap["hi"]), n=int(gap["n"]),
              test="Welch t interval of the difference in mean score (29 vs 34 games)",
              note="significant on the paper's own data" if gap["lo"] > 0 else
              "the opposite is significant on the paper's own data" if gap["hi"] < 0 else
              "the paper's gap is not significant at 95% on its own data"),
    ]


def human_summary(humans: pd.DataFrame) -> pd.DataFrame:
    """Our logged human games next to the paper's 63 (recomputed from the author's logs)."""
    frames = [belote_human_games.summary(published_human_games(), HUMAN_PAPER)]
    if len(humans):
        frames.append(belote_human_games.summary(humans, "our log"))
    return pd.concat(frames, ignore_index=True)
