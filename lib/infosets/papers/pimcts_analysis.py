"""Tables, figures and claims of the PI-MCTS aggregation paper (Ravichandran, Goodman and
Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in Imperfect-Information
Games"; docs/papers/pimcts_aggregation.md), built from the rows of its tasks
(``pimcts_aggregation``).

Figures: win rate vs D per aggregation with the IS-MCTS band (Fig. 1; Fig. 2 at the higher
budget), budget fragmentation, the disambiguation curves, and PI-MCTS gain vs
hidden-information persistence. Tables: game parameters, MCTS settings, win rates, the
games beyond the paper, claims (tested in ``pimcts_claims``), the CPU-hours of every
preset (``pimcts_costs``) and the ablation of TAG's settings (issue 56: the win-rate differences
against OL-MCTS and the IS-MCTS verdict with each setting switched off, ``ablation_table``).

Nothing here runs a task, and the tasks' module does not import this one, so editing a
figure, a table or a claim leaves every committed run's results key unchanged.
"""

from __future__ import annotations

import inspect
import math

import numpy as np
import pandas as pd
import pyspiel
from matplotlib.ticker import MaxNLocator

from infosets import plots, stats
from infosets.claims import save as save_claims
from infosets.experiments.config import ConfigError
from infosets.experiments.legends import figure_legend
from infosets.experiments.reports import NO_FIGURE
from infosets.games.determinizers import AOH_GAMES, determinizer_label
from infosets.papers import pimcts_claims, pimcts_looks
from infosets.papers.pimcts_ablation import ALL_ON
from infosets.papers.pimcts_aggregation import (
    deals_per_cell,
    engine_for,
    game_budgets,
    game_key,
    games_per_cell,
    high_pairs,
    is_paper_game,
    load_settings,
    settings_key,
    slice_of,
)
from infosets.papers.pimcts_cells import cell_label
from infosets.search.mcts import OLMCTSBot
from infosets.search.pimcts import AGGREGATIONS

# -- disambiguation -------------------------------------------------------------------------

def persistence(dis: pd.DataFrame) -> pd.DataFrame:
    """Hidden-information persistence per game, along each random-play trajectory:
    the mean over its decisions of log2 #worlds divided by the trajectory's peak (1 = the
    peak uncertainty lasts the whole game, 0 = nothing is ever hidden at a decision), and
    the fraction of the game after the peak at which log2 #worlds first falls to half of it."""
    out = []
    for game, sub in dis.groupby("game", sort=False):
        per_traj, half = [], []
        for _, traj in sub.groupby("trajectory"):
            traj = traj.sort_values("decision")
            bits = traj["log2_worlds"].to_numpy()
            peak = bits.max()
            if peak <= 0:
                per_traj.append(0.0)
                half.append(0.0)
                continue
            per_traj.append(float(np.mean(bits / peak)))
            after = np.arange(len(bits)) >= int(np.argmax(bits))
            below = np.flatnonzero(after & (bits <= peak / 2))
            half.append(float(traj["fraction"].iloc[below[0]]) if len(below) else 1.0)
        est = stats.mean_ci(per_traj)
        out.append({"game": game, "persistence": est.value, "persistence_lo": est.lo,
                    "persistence_hi": est.hi, "half_life_fraction": float(np.mean(half)),
                    "peak_bits": float(sub.groupby("trajectory")["log2_worlds"].max().mean()),
                    "censored_share": float(sub["censored"].mean()), "trajectories": len(per_traj)})
    return pd.DataFrame(out)


# -- tables and figures ---------------------------------------------------------------------

def win_rates(results: pd.DataFrame) -> pd.DataFrame:
    """Win rate with a Wilson 95% interval per (game, budget, agent, D, aggregation), whether
    the game is one of the paper's, and the focus agent's search records (per-game means of
    its decisions, with t 95% intervals over games)."""
    rows = []
    keys = ["game", "budget", "agent", "D", "aggregation"]
    paper = {g: is_paper_game(g) for g in set(results["game"])}
    for key, sub in results.groupby(keys, sort=False):
        est = stats.win_rate(sub["score"].to_numpy())
        row = {**dict(zip(keys, key)), "paper_game": paper[key[0]], "win_rate": est.value,
               "lo": est.lo, "hi": est.hi, "n": est.n,
               "baseline": 1.0 / int(sub["players"].iloc[0]),
               "cpu_s_per_game": float(sub["cpu_seconds"].mean())}
        for col, lo, hi in (("mean_depth", "depth_lo", "depth_hi"),
                            ("visit_share", "share_lo", "share_hi")):
            vals = sub[col].dropna().to_numpy() if col in sub else np.array([])
            m = stats.mean_ci(vals) if len(vals) else None
            row.update({col: m.value if m else np.nan, lo: m.lo if m else np.nan,
                        hi: m.hi if m else np.nan})
        agree = sub["tree_agreement"].dropna() if "tree_agreement" in sub else pd.Series([], dtype=float)
        row["tree_agreement"] = float(agree.mean()) if len(agree) else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


D_LABEL = "determinizations D (trees; D = 1: OL-MCTS)"
WIN_LABEL = "focus win rate (fraction of games)"
# One marker and dash per aggregation rule, so that two rules with equal values stay visible
# (the later line would otherwise hide the earlier one: Hearts at B = 150 in the default run).
RULE_STYLES = {"TotalVisits": ("o", "-", 5.5), "AverageValue": ("s", (0, (5, 2)), 4.5),
               "SingleVote": ("^", (0, (1, 1.5)), 4.5)}


def style_rules(ax) -> None:
    """Give each aggregation rule's line its own marker and dash (``RULE_STYLES``)."""
    for line in ax.get_lines():
        if line.get_label() in RULE_STYLES:
            marker, dash, size = RULE_STYLES[line.get_label()]
            line.set_marker(marker)
            line.set_linestyle(dash)
            line.set_markersize(size)
            line.set_markerfacecolor("none" if marker == "o" else line.get_color())


def paper_gain(game: str, high_budget: bool) -> tuple[float, float] | None:
    """The gain of PI-MCTS over OL-MCTS the paper states for ``game`` (Sec. VI), as a
    (low, high) range in win-rate points: Hearts and Stratego 5%, and 10% at the higher
    budget of Fig. 2 (``high_budget``: the game's high-budget slice, whatever its B in this
    preset, as the claims read it); Virus and Colt Express 2-5%; None where it gives no
    number."""
    name = game.split("(")[0]
    if name in ("hearts", "stratego"):
        g = pimcts_claims.HIGH_BUDGET_GAIN if high_budget else pimcts_claims.DEFAULT_EFFECT
        return (g, g)
    if name in ("virus", "colt_express"):
        return (0.02, 0.05)
    return None


def d_ticks(ax, values) -> None:
    """Ticks at the D values run (``plots.ticks_at``), slanted when two neighbours are less
    than a factor 3 apart on the log axis (D = 100, 200, 300, 500 would print as one word)."""
    plots.ticks_at(ax, values)
    ticks = sorted({float(v) for v in values if np.isfinite(v) and v > 0})
    if any(b / a < 3 for a, b in zip(ticks, ticks[1:])):
        ax.tick_params(axis="x", labelrotation=45)


def games_per_cell_label(n: pd.Series) -> str:
    """A panel's games per cell: "n=60/cell" when its cells hold the same number, else the
    range, "n=60-3504/cell" (a staged preset grows only the cells its claims read)."""
    low, high = int(n.min()), int(n.max())
    return f"n={low}/cell" if low == high else f"n={low}\u2013{high}/cell"


def plot_win_rate_vs_d(rates: pd.DataFrame, session, budget: int, name: str, paper_ref: str,
                       title: str = "the paper's games"):
    """One panel per game: win rate vs D per aggregation, IS-MCTS band, 1/players line; one
    legend for all panels."""
    import matplotlib.pyplot as plt

    sub_all = rates[rates["budget"] == budget]
    games = list(dict.fromkeys(sub_all["game"]))
    high = set(high_pairs(session.cfg))  # (game, budget) of Fig. 2
    cols = min(4, len(games))
    rows_n = math.ceil(len(games) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.6 * cols, 2.8 * rows_n + 1.0),
                             squeeze=False, sharey=True, layout="constrained")
    for ax, game in zip(axes.flat, games):
        sub = sub_all[sub_all["game"] == game]
        control = sub[sub["agent"] == "olmcts"]
        lines = []
        for agg in [a for a in AGGREGATIONS if a in set(sub["aggregation"])]:
            part = pd.concat([control.assign(aggregation=agg), sub[sub["aggregation"] == agg]])
            lines.append(part)
        if lines:
            plots.lines_ci(ax, pd.concat(lines), "D", "win_rate", "lo", "hi", hue="aggregation",
                           logx=True, xlabel=D_LABEL, ylabel=WIN_LABEL,
                           ci_label="shaded: Wilson 95% CI", legend=False,
                           ci_note=False)  # the figure's legend title says it for all panels
            style_rules(ax)
        elif len(control):
            ax.errorbar(control["D"], control["win_rate"],
                        yerr=[control["win_rate"] - control["lo"], control["hi"] - control["win_rate"]],
                        fmt="o", label="OL-MCTS (D=1)")
        ism = sub[sub["agent"] == "ismcts"]
        if len(ism):
            r = ism.iloc[0]
            ax.axhspan(r["lo"], r["hi"], color="0.5", alpha=0.2, lw=0)
            ax.axhline(r["win_rate"], color="0.3", ls="-.", lw=1,
                       label="IS-MCTS (grey band: Wilson 95% CI)")
        ax.axhline(sub["baseline"].iloc[0], color="k", ls=":", lw=1, label="1/players")
        stated = paper_gain(game, (game, budget) in high)
        if stated is not None and len(control):
            base = float(control["win_rate"].iloc[0])
            plots.paper_level(ax, tuple(base + g for g in stated) if stated[0] != stated[1]
                              else base + stated[0], label="paper: OL-MCTS + its stated gain")
        ax.set_title(f"{game} ({games_per_cell_label(sub['n'])})", fontsize=9)
        d_ticks(ax, sub["D"])
        ax.set_xlabel("")
        ax.set_ylabel("")
        ax.set_ylim(0, 1)
    for ax in list(axes.flat)[len(games):]:
        ax.axis("off")
    fig.supxlabel(D_LABEL, fontsize=9)
    fig.supylabel(WIN_LABEL, fontsize=9)
    figure_legend(fig, axes, f"Win rate vs OL-MCTS opponents, {title}, B={budget} "
                             "(bands: 95% Wilson intervals)")
    session.save_figure(fig, name, paper_ref=paper_ref)
    return fig


NO_DISAMBIGUATION = ("This preset runs no disambiguation sweep (disambiguation_trajectories is 0): "
                     "random-play trajectories do not depend on the agents, so the paper "
                     f"preset's figure holds; {NO_FIGURE}.")
NO_PERSISTENCE = ("No persistence to set the gains against (this preset runs no disambiguation "
                  f"sweep): no gain table, {NO_FIGURE}.")


def disambiguation_bins(dis: pd.DataFrame, bins: int = 10) -> pd.DataFrame:
    """Per game and tenth of the game played: mean log2 #worlds with its t 95% interval and
    the share of censored estimates (no collision: the value sits at the cap, so a bin with
    any censored value has a mean that is only a lower bound)."""
    frame = dis.assign(bin=np.minimum((dis["fraction"] * bins).astype(int), bins - 1) / bins
                       + 0.5 / bins)
    rows = []
    for (game, b), sub in frame.groupby(["game", "bin"], sort=False):
        est = stats.mean_ci(sub["log2_worlds"].to_numpy())
        rows.append({"game": game, "fraction": b, "log2_worlds": est.value, "lo": est.lo,
                     "hi": est.hi, "n": est.n, "censored_share": float(sub["censored"].mean())})
    return pd.DataFrame(rows).sort_values(["game", "fraction"], kind="stable")


def plot_disambiguation(dis: pd.DataFrame, session):
    """log2 #worlds consistent with the mover's infostate vs fraction of the game played, one
    panel per game on a shared y axis (not in the paper). Filled points carry a t 95%
    interval over decisions; open triangles are bins where some estimates are censored at
    the cap (no collision among the samples): their mean is a lower bound, not data. A preset
    without the sweep (the ``tag`` rerun): one printed line and None."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    if dis.empty:
        print(NO_DISAMBIGUATION)
        return None
    table = disambiguation_bins(dis)
    games = list(dict.fromkeys(dis["game"]))
    samples = int(session.cfg["disambiguation_samples"])
    cap = math.log2(samples * (samples - 1) / 2)
    cols = min(3, len(games))
    rows_n = math.ceil(len(games) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(3.4 * cols, 2.6 * rows_n + 0.9), squeeze=False,
                             sharex=True, sharey=True, layout="constrained")
    for ax, game in zip(axes.flat, games):
        sub = table[table["game"] == game]
        clean, cens = sub[sub["censored_share"] == 0], sub[sub["censored_share"] > 0]
        ax.plot(sub["fraction"], sub["log2_worlds"], color="0.6", lw=1, zorder=1)
        ax.errorbar(clean["fraction"], clean["log2_worlds"],
                    yerr=[clean["log2_worlds"] - clean["lo"], clean["hi"] - clean["log2_worlds"]],
                    fmt="o", color="C0", ms=4, capsize=2, zorder=3)
        ax.plot(cens["fraction"], cens["log2_worlds"], "^", mfc="white", mec="C3", ms=6, zorder=3)
        ax.axhline(cap, color="C3", ls=":", lw=1)
        share = float(dis.loc[dis["game"] == game, "censored"].mean())
        games_n = int(dis.loc[dis["game"] == game, "trajectory"].nunique())
        ax.set_title(f"{game} (n={games_n} games)\n{share:.0%} of estimates censored", fontsize=8)
        ax.set_xlim(0, 1)
    for ax in list(axes.flat)[len(games):]:
        ax.axis("off")
    fig.supxlabel("fraction of the game played (share of decisions)", fontsize=9)
    fig.supylabel("log2 #worlds consistent with the\nmover's infostate (bits)", fontsize=9)
    handles = [Line2D([], [], marker="o", color="C0", ls="none", label="mean, t 95% CI"),
               Line2D([], [], marker="^", mfc="white", mec="C3", ls="none",
                      label="≥ lower bound (some estimates censored at the cap)"),
               Line2D([], [], color="C3", ls=":", label=f"cap: log2 of the {samples} samples' pairs")]
    fig.legend(handles=handles, loc="outside upper center", ncols=3, fontsize=7, frameon=False,
               title="Disambiguation under random play (collision estimator; not in the paper)",
               title_fontsize=9)
    session.save_figure(fig, "disambiguation_by_fraction_played", paper_ref="(not in paper)")
    return fig


def main_budget(cfg, game_string: str) -> int:
    """The budget a game's claims and gain use: the first of its slice's budgets."""
    return slice_of(cfg, game_string)["budgets"][0]


def main_rates(rates: pd.DataFrame, cfg) -> pd.DataFrame:
    """The rows of ``rates`` at each game's main budget (ports may use a smaller one)."""
    keep = [b == main_budget(cfg, g) for g, b in zip(rates["game"], rates["budget"])]
    return rates[np.asarray(keep, dtype=bool)]


def gains(rates: pd.DataFrame, budget: int | None = None) -> pd.DataFrame:
    """Per game: the best PI-MCTS cell and IS-MCTS minus the OL-MCTS control (D = 1).
    ``budget`` None: ``rates`` already holds one budget per game (see ``main_rates``)."""
    out = []
    part = rates if budget is None else rates[rates["budget"] == budget]
    for game, sub in part.groupby("game", sort=False):
        if not (sub["agent"] == "olmcts").any():  # no control rows yet (a run in progress)
            continue
        control = sub[sub["agent"] == "olmcts"].iloc[0]
        pi = sub[sub["agent"] == "pimcts"]
        row = {"game": game, "budget": int(control["budget"]), "control": control["win_rate"],
               "baseline": control["baseline"]}
        if len(pi):
            best = pi.loc[pi["win_rate"].idxmax()]
            row.update({"best_D": int(best["D"]), "best_aggregation": best["aggregation"],
                        "pimcts_best": best["win_rate"], "pimcts_best_lo": best["lo"],
                        "pimcts_best_hi": best["hi"],
                        "pimcts_mean": float(pi["win_rate"].mean()),
                        "gain": best["win_rate"] - control["win_rate"],
                        "gain_mean": float(pi["win_rate"].mean()) - control["win_rate"]})
        ism = sub[sub["agent"] == "ismcts"]
        if len(ism):
            row.update({"ismcts": ism.iloc[0]["win_rate"], "ismcts_lo": ism.iloc[0]["lo"],
                        "ismcts_hi": ism.iloc[0]["hi"]})
        out.append(row)
    return pd.DataFrame(out)


def pooled_paired_gain(results: pd.DataFrame, game: str, budget: int) -> dict | None:
    """Mean over the D > 1 cells of a game, per duplicate (deal, rotation), minus the control
    on the same deal, with a t 95% interval over the deals (descriptive: it pools D)."""
    table = pimcts_claims.paired_scores(results, game, budget)
    cells = pimcts_claims.pi_cells(table)
    if "control" not in table or not cells:
        return None
    d = (table[cells].mean(axis=1) - table["control"]).dropna().to_numpy()
    if not len(d):
        return None
    est = stats.mean_ci(d)
    return {"gain": est.value, "lo": est.lo, "hi": est.hi, "n": est.n}


def rank_correlation(x, y) -> dict:
    """Spearman's rank correlation of ``x`` and ``y`` with a 95% interval by Fisher's z
    (standard error sqrt(1.06 / (n - 3)), Fieller, Hartley and Pearson 1957); NaN bounds
    below four pairs."""
    from scipy.stats import spearmanr

    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    n = int(keep.sum())
    if n < 3:
        return {"rho": np.nan, "lo": np.nan, "hi": np.nan, "n": n}
    rho = float(spearmanr(x[keep], y[keep]).statistic)
    if n < 4 or not np.isfinite(rho) or abs(rho) > 1 - 1e-12:  # a perfect order: no z
        return {"rho": rho, "lo": np.nan, "hi": np.nan, "n": n}
    half = 1.959964 * math.sqrt(1.06 / (n - 3))
    z = math.atanh(rho)
    return {"rho": rho, "lo": math.tanh(z - half), "hi": math.tanh(z + half), "n": n}


def plot_gain_vs_persistence(results: pd.DataFrame, rates: pd.DataFrame, dis: pd.DataFrame, session):
    """PI-MCTS gain over OL-MCTS (its D > 1 cells pooled per deal, minus the control on the
    same deal) beside hidden-information persistence, each game at its main budget, games
    sorted by persistence (descriptive, not in the paper). Two panels that share the game
    axis: persistence (left) and gain (right, the paper's stated gains as crosses); the
    title gives Spearman's rank correlation over the games with its 95% interval. Returns
    the figure and the table it draws; (None, None) and one printed line at a preset without
    the disambiguation sweep (the ``tag`` rerun)."""
    import matplotlib.pyplot as plt

    if dis.empty:
        print(NO_PERSISTENCE)
        return None, None
    at_main = main_rates(rates, session.cfg)
    high = set(high_pairs(session.cfg))  # (game, budget) of Fig. 2
    table = gains(at_main).merge(persistence(dis), on="game")
    pooled = {g: pooled_paired_gain(results, g, main_budget(session.cfg, g)) for g in table["game"]}
    for col in ("gain", "lo", "hi"):
        table[f"gain_pooled_{col}"] = [pooled[g][col] if pooled[g] else np.nan for g in table["game"]]
    table = table.sort_values("persistence", kind="stable").reset_index(drop=True)
    corr = rank_correlation(table["persistence"], table["gain_pooled_gain"])
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 0.38 * len(table) + 2.2), sharey=True,
                                      layout="constrained")
    y = np.arange(len(table))
    paper = np.array([is_paper_game(g) for g in table["game"]], dtype=bool)
    for mask, marker, label in ((paper, "o", "the paper's games"), (~paper, "s", "beyond the paper")):
        part, at = table[mask], y[mask]
        if not len(part):
            continue
        left.errorbar(part["persistence"], at, xerr=[part["persistence"] - part["persistence_lo"],
                                                     part["persistence_hi"] - part["persistence"]],
                      fmt=marker, ms=4, capsize=2, color="C0" if marker == "o" else "C1",
                      label=label)
        right.errorbar(part["gain_pooled_gain"], at,
                       xerr=[part["gain_pooled_gain"] - part["gain_pooled_lo"],
                             part["gain_pooled_hi"] - part["gain_pooled_gain"]],
                       fmt=marker, ms=4, capsize=2, color="C0" if marker == "o" else "C1",
                       label=label)
        # most of a game's #worlds estimates hit the sampler's cap: its persistence is a bound
        bound = (part["censored_share"] >= 0.5).to_numpy()
        if bound.any():
            left.plot(part["persistence"][bound], at[bound], marker, ls="none", ms=7, mfc="white",
                      mec="C0" if marker == "o" else "C1", zorder=4,
                      label="hollow: half or more of its estimates censored (a bound)")
    for i, r in table.iterrows():
        stated = paper_gain(r["game"], (r["game"], int(r["budget"])) in high)
        if stated is not None:
            mid, half = (stated[0] + stated[1]) / 2, (stated[1] - stated[0]) / 2
            plots.paper_overlay(right, mid, i, xerr=half or None,
                                label="paper: stated gain (Sec. VI, at its best D)")
    right.axvline(0, color="k", ls=":", lw=1)
    # at most six ticks at round steps: signed labels 0.05 apart crowd into each other
    right.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    left.set_yticks(y, [f"{g} (B={b})" for g, b in zip(table["game"], table["budget"])],
                    fontsize=7)
    left.set_xlim(-0.05, max(1.05, float(table["persistence_hi"].max()) + 0.03))
    left.set_xlabel("hidden-information persistence (fraction of the peak)\n"
                    "(mean log2 #worlds / its peak, random play; t 95% CI)", fontsize=8)
    right.set_xlabel("PI-MCTS gain over OL-MCTS (win-rate difference, fraction of games)\n"
                     "(D>1 cells pooled per deal − control; t 95% CI)", fontsize=8)
    fig.supylabel("game (its main budget B, iterations)", fontsize=8)
    rho = ("n/a" if not np.isfinite(corr["rho"]) else
           f"{corr['rho']:+.2f}" + ("" if not np.isfinite(corr["lo"])
                                     else f" [{corr['lo']:+.2f}, {corr['hi']:+.2f}]"))
    figure_legend(fig, [left, right], "PI-MCTS gain beside persistence, games sorted by persistence; "
                  f"Spearman rank correlation {rho} (95% CI, {corr['n']} games)")
    session.save_figure(fig, "pimcts_gain_vs_persistence",
                        paper_ref="(discussion, not measured in paper)")
    return fig, table


def game_table(cfg) -> pd.DataFrame:
    """Each game's parameters, players, size, how worlds are sampled, and the budgets run;
    with per-cell caps in the preset (``games_per_cell_by_cell``), a column "own_caps" lists
    the cells that hold another number of games than the game's, "IS-MCTS 240; ..."."""
    rows = []
    for part in ("main", "tabletop", "high"):
        sl = cfg["slices"].get(part, {"games": []})
        for name in sl["games"]:
            budgets = ([b for g, b in high_pairs(cfg) if g == name] if part == "high"
                       else sl["budgets"])
            own = sl.get("games_per_cell_by_cell", {}).get(name, {})
            rows.append({**_game_row(cfg, name), "slice": part,
                         "budgets": ", ".join(map(str, budgets)),
                         "games_per_cell": games_per_cell(cfg, name, part),
                         "own_caps": "; ".join(f"{c} {n}" for c, n in own.items())})
    frame = pd.DataFrame(rows)
    if not frame.empty and not frame["own_caps"].any():
        frame = frame.drop(columns="own_caps")
    return frame


def _game_row(cfg, name: str) -> dict:
    game = pyspiel.load_game(name)
    return {"game": name, "parameters": str(game.get_parameters()),
            "players": game.num_players(), "max_length": game.max_game_length(),
            "actions": game.num_distinct_actions(),
            "utility": f"[{game.min_utility():g}, {game.max_utility():g}]",
            "determinizer": determinizer_label(game),
            "infostate_key": "action-observation history" if game.get_type().short_name in AOH_GAMES
            else "information_state_string",
            "tree_engine": engine_for(game, cfg["engine"]) + " (configured; rows record engine_used)"}


def preset_config(preset: str):
    """The derived config of a preset of this notebook, including ``full`` (the cluster plan)
    before the config loader knows that preset name: its file is validated by the same
    SCHEMA, as overrides of every parameter."""
    import yaml

    from infosets.experiments import config as _config

    if preset in _config.PRESETS:
        return _config.load("pimcts_aggregation", preset)
    path = _config.params_dir() / f"pimcts_aggregation.{preset}.yaml"
    if not path.exists():
        raise ConfigError(f"preset: no file {path.name} in {path.parent}")
    with open(path) as fh:
        values = yaml.safe_load(fh) or {}
    return _config.load("pimcts_aggregation", "paper", overrides=values)


PLANNED_PRESETS = ("default", "paper", "full")


def cpu_hours(presets=PLANNED_PRESETS, costs: pd.DataFrame | None = None) -> pd.DataFrame:
    """CPU-hours of each preset from the measured per-game costs (``pimcts_costs.csv``:
    CPU-seconds per game per cell, compiled engine, per-game TAG settings); a TOTAL row per
    preset. Every game of every preset has a measured row (no blank rows)."""
    from infosets.papers import pimcts_costs

    costs = pimcts_costs.load_costs() if costs is None else costs
    frames = [pimcts_costs.plan(preset_config(p), costs).assign(preset=p) for p in presets]
    frame = pd.concat(frames, ignore_index=True)
    return frame[["preset"] + [c for c in frame.columns if c != "preset"]]


def claim_runs(results: pd.DataFrame, cfg) -> list[dict]:
    """One entry per row of the settings table (the paper's games): the game string that ran
    it, its budgets, or why it did not run (not yet registered: a port in progress, whose
    game string added to ``tabletop_games`` runs it; in this preset but without rows yet, as
    while a paper run is unfinished; or simply not in this preset)."""
    ran = {}
    for g in dict.fromkeys(results["game"]):
        ran.setdefault(game_key(g), g)
    registered = set(pyspiel.registered_names())
    planned = {}
    for g in [g for part in cfg["slices"].values() for g in part["games"]]:
        if g.split("(")[0] in registered:
            planned.setdefault(game_key(g), g)
    runs = []
    for _, row in load_settings().iterrows():
        key = settings_key(row)
        game = ran.get(key)
        if game is not None:
            runs.append({"row": row, "game": game, "budgets": game_budgets(cfg, game),
                         "reason": ""})
            continue
        if key[0] not in registered:
            reason = (f"{key[0]} is not registered yet (a port in progress); add "
                      f"'{row['game']}' to tabletop_games once it is")
        elif key in planned:  # a paper run stopped part-way (resumed from results/)
            reason = f"'{planned[key]}' is in this preset but has no rows yet (the run is unfinished)"
        else:
            reason = f"'{row['game']}' is not in this preset"
        runs.append({"row": row, "game": None, "budgets": [], "reason": reason})
    return runs


def claims(results: pd.DataFrame, rates: pd.DataFrame, session) -> pd.DataFrame:
    """The paper's claims on the paper's games only, each tested as stated
    (``pimcts_claims``), saved as ``claims``, with the check of their pairing unit
    (``claims_pairing_check``); the other games' gains go to ``beyond_paper_gains``."""
    records = pimcts_claims.build(results, rates, claim_runs(results, session.cfg))
    session.save_table(pimcts_claims.pairing_check(results).round(3), "claims_pairing_check",
                       paper_ref="ours: the claims' pairing unit checked")
    return save_claims(records, session, paper_ref="Sec. VI claims")


def gain_table(results: pd.DataFrame, cfg, games) -> pd.DataFrame:
    """Per game (at its main budget) and D > 1 cell: the paired gain over the OL-MCTS control
    on the same deals, its t 95% interval, and the two-sided p-value Holm-adjusted over the
    game's cells."""
    rows = []
    for game in games:
        budget = main_budget(cfg, game)
        table = pimcts_claims.paired_scores(results, game, budget)
        cells = pimcts_claims.pi_cells(table) + (["IS-MCTS"] if "IS-MCTS" in table else [])
        if "control" not in table or not cells:
            continue
        tests, tested = [], []
        for c in cells:
            d = pimcts_claims.paired_differences(table, c, "control")
            if len(d) == 0:  # no deal shared with the control yet (a run in progress)
                continue
            # the claims' test: all-equal differences (300 drawn games) are tested exactly
            tests.append(pimcts_claims.paired_test(d) if len(d) >= 2 else
                         (stats.Estimate(float(d[0]), np.nan, np.nan, 1), 1.0))
            tested.append(c)
        if not tests:
            continue
        adjusted = stats.holm([p for _, p in tests])
        for c, (est, _), p in zip(tested, tests, adjusted):
            rows.append({"game": game, "budget": budget, "cell": c, "gain": est.value,
                         "lo": est.lo, "hi": est.hi, "n": est.n, "p_holm": float(p)})
    return pd.DataFrame(rows, columns=["game", "budget", "cell", "gain", "lo", "hi", "n", "p_holm"])


def save_beyond_paper(results: pd.DataFrame, session) -> pd.DataFrame | None:
    """The games beyond the paper's twelve: their paired gains, in a table of their own; None,
    with a line saying so, for a preset that plays none of them (the ``tag`` rerun)."""
    games = [g for g in dict.fromkeys(results["game"]) if not is_paper_game(g)]
    if not games:
        print("This preset plays no game beyond the paper's twelve (Leduc and Kuhn run at the "
              "default and paper presets): no table at this preset.")
        return None
    frame = gain_table(results, session.cfg, games)
    session.save_table(frame, "beyond_paper_gains", paper_ref="(beyond the paper)")
    return frame


def plot_budgets(rates: pd.DataFrame, session) -> None:
    """Per budget: the paper's games only (Fig. 1 at a slice's first budget, Fig. 2 at the
    next, the paper's 10000 iterations), the search records beside the win rates, and the
    games beyond the paper in a figure of their own (never pooled with the paper's)."""
    # Fig. 1 budgets: the first of the main and tabletop slices (the high slice's budgets,
    # however small in a preset, are Fig. 2's)
    fig1 = {sl["budgets"][0] for name, sl in session.cfg["slices"].items()
            if name != "high" and sl["budgets"]}
    paper = rates[rates["paper_game"]]
    beyond = rates[~rates["paper_game"]]
    for budget in sorted(set(rates["budget"])):
        first = budget in fig1
        if (paper["budget"] == budget).any():
            plot_win_rate_vs_d(paper, session, budget, f"win_rate_vs_d_B{budget}",
                               paper_ref="Fig. 1" if first else "Fig. 2")
            plot_search_vs_d(paper, session, budget)
        if (beyond["budget"] == budget).any():
            plot_win_rate_vs_d(beyond, session, budget, f"beyond_paper_win_rate_vs_d_B{budget}",
                               paper_ref="(beyond the paper)", title="games beyond the paper")


def plot_search_vs_d(rates: pd.DataFrame, session, budget: int):
    """Budget fragmentation, one row per paper game: win rate (left), mean tree depth per
    decision (middle; blank where the engine records none) and the root visit share of the
    chosen move with the D trees' agreement (right), against D. Bands: 95% intervals over
    games; one legend for all panels. A row per game keeps the figure readable at the paper
    preset's dozen games."""
    import matplotlib.pyplot as plt

    sub_all = rates[(rates["budget"] == budget) & (rates["agent"] != "ismcts")]
    games = list(dict.fromkeys(sub_all["game"]))
    metrics = (("win_rate", "lo", "hi", "win rate (fraction of games)"),
               ("mean_depth", "depth_lo", "depth_hi", "mean tree depth (plies)"),
               ("visit_share", "share_lo", "share_hi",
                "root visit share of chosen move (lines)\nand tree agreement (×), fraction"))
    fig, axes = plt.subplots(len(games), 3, figsize=(11, 2.3 * len(games) + 1.2), squeeze=False,
                             sharex="row", layout="constrained")
    for row, game in enumerate(games):
        sub = sub_all[sub_all["game"] == game]
        control = sub[sub["agent"] == "olmcts"]
        aggs = [a for a in AGGREGATIONS if a in set(sub["aggregation"])]
        frame = pd.concat([control.assign(aggregation=a) for a in aggs] +
                          [sub[sub["aggregation"] == a] for a in aggs]) if aggs else control
        hue = "aggregation" if aggs else None
        for col, (y, lo, hi, label) in enumerate(metrics):
            ax = axes[row, col]
            if frame[y].notna().any():
                plots.lines_ci(ax, frame.dropna(subset=[y]), "D", y, lo, hi, hue=hue, logx=True,
                               xlabel=D_LABEL, ylabel=label, legend=False,
                               ci_note=False)  # the legend's title says it for all panels
                style_rules(ax)
            else:
                ax.text(0.5, 0.5, "not recorded by this engine", ha="center", fontsize=7,
                        transform=ax.transAxes)
            d_ticks(ax, frame["D"])
            ax.set_xlabel("")
            ax.set_ylabel(label, fontsize=7)
            ax.set_title(f"{game} ({games_per_cell_label(sub['n'])})", fontsize=8)
        agree = sub.dropna(subset=["tree_agreement"])
        if len(agree):
            ax = axes[row, 2]
            colours = {line.get_label(): line.get_color() for line in ax.get_lines()}
            for agg, part in agree.groupby("aggregation", sort=False):  # its rule's colour
                ax.plot(part["D"], part["tree_agreement"], "x", ms=5, mew=1.2, zorder=4,
                        color=colours.get(agg, "k"), label="_nolegend_")
            ax.plot([], [], "x", color="k", ms=5, mew=1.2,
                    label="tree agreement: share of the D trees whose best move was "
                          "played (its rule's colour)")
    fig.supxlabel(D_LABEL, fontsize=9)
    figure_legend(fig, axes, f"Budget fragmentation, B={budget} (bands: 95% intervals, "
                             "Wilson for win rates, t over games for the search records)",
                  ncols=4)
    session.save_figure(fig, f"search_vs_d_B{budget}", paper_ref="Sec. VI (budget fragmentation)")
    return fig


def save_game_table(session) -> pd.DataFrame:
    frame = game_table(session.cfg)
    session.save_table(frame, "game_parameters", paper_ref="Sec. V (games)")
    return frame


def save_win_rates(results: pd.DataFrame, session) -> pd.DataFrame:
    rates = win_rates(results)
    timing = ["game", "budget", "agent", "D", "aggregation", "cpu_s_per_game"]
    session.save_table(rates.drop(columns="cpu_s_per_game"), "win_rates", paper_ref="Fig. 1/2 data")
    session.save_timing_table(rates[timing], "cpu_per_game", paper_ref="(measured CPU time)")
    return rates


def save_cpu_hours(session) -> pd.DataFrame:
    """CPU-hours of the default, paper and full presets, from the committed measured costs."""
    frame = cpu_hours()
    session.save_timing_table(frame, "preset_cpu_hours", paper_ref="(budget plan)")
    return frame


TASK_COLUMNS = ["game", "budget", "agent", "D", "aggregation", "block"]  # one tournament task


def staged_costs(results: pd.DataFrame, cfg, recorded_cpu_s: float) -> pd.DataFrame:
    """Per (game, budget) of a staged run (the ``tag`` rerun), its plan and what it spent: tasks
    and games played; ``planned_cpu_h``, every task of the preset priced at stage 1's costs,
    as the second look's planner priced them (``pimcts_costs.tag_task_plan`` on the rows of the
    first ``pimcts_looks.FIRST_STAGE`` games a cell at each game's Fig. 1 budget; Fig. 2's budget
    scaled from Fig. 1's, whatever it has played since; the third look priced from the cells of
    stage 2, so its growth here is at stage 1's prices, not its own);
    ``focus_cpu_h``, the focus seats' CPU the rows record; ``spent_cpu_h``, all seats, each
    game's OL-MCTS opponents at its control's focus CPU (the rows record the focus seat only),
    scaled so that the games add up to ``recorded_cpu_s``, the table's recorded total. A TOTAL
    row closes it."""
    from infosets.papers import pimcts_costs

    fig1 = results["budget"] == results["game"].map(lambda g: main_budget(cfg, g))
    stage1 = results[fig1 & (results["deal"] < pimcts_looks.FIRST_STAGE // results["players"])]
    plan = pimcts_costs.tag_task_plan(cfg, stage1).groupby(["game", "budget"], sort=False)[
        "planned_cpu_s"].sum()
    control = (results["cpu_seconds"].where(results["agent"] == "olmcts")
               .groupby([results["game"], results["budget"]]).transform("mean"))
    seats = results["cpu_seconds"] + ((results["players"] - 1) * control).fillna(0.0)
    scale = recorded_cpu_s / float(seats.sum()) if float(seats.sum()) > 0 else float("nan")
    by = results.assign(all_seats=seats * scale).groupby(["game", "budget"], sort=False)
    # A task is one block of one cell (``pimcts_aggregation.tournament_tasks``); the runner's
    # frame has no ``task_id`` column (only the committed parquet does), so count the blocks.
    tasks = results.drop_duplicates(TASK_COLUMNS).groupby(["game", "budget"], sort=False).size()
    played = pd.DataFrame({"tasks": tasks, "games": by.size(),
                           "focus_cpu_h": by["cpu_seconds"].sum() / 3600,
                           "spent_cpu_h": by["all_seats"].sum() / 3600})
    frame = (plan / 3600).rename("planned_cpu_h").to_frame().join(played)  # the preset's order
    frame = frame.fillna(0.0).astype({"tasks": int, "games": int})
    frame = frame.reset_index()[["game", "budget", "tasks", "games", "planned_cpu_h",
                                 "focus_cpu_h", "spent_cpu_h"]]
    total = {"game": "TOTAL", "budget": 0, "tasks": int(frame["tasks"].sum()),
             "games": int(frame["games"].sum()), **{c: float(frame[c].sum()) for c in
                                                     ("planned_cpu_h", "focus_cpu_h", "spent_cpu_h")}}
    return pd.concat([frame, pd.DataFrame([total])], ignore_index=True)


def save_staged_costs(results: pd.DataFrame, session) -> pd.DataFrame | None:
    """``staged_costs`` of a staged preset (per-cell caps, ``games_per_cell_by_cell``: the
    ``tag`` rerun), saved as ``staged_cpu_hours``; None for a preset that plays one size."""
    if not session.cfg.get("games_per_cell_by_cell") or session.committed is None:
        return None
    frame = staged_costs(results, session.cfg, session.committed.cpu_seconds("tournament")).round(2)
    session.save_table(frame, "staged_cpu_hours", paper_ref="ours: the tag rerun's plan and spending")
    return frame


def save_settings_table(session) -> pd.DataFrame:
    """The per-game MCTS settings of the paper's games, with their TAG source and the TAG
    settings we do not model, and whether this engine applies them (see ``tuned_kwargs``)."""
    frame = load_settings()
    accepted = inspect.signature(OLMCTSBot.__init__).parameters
    applied = bool(session.cfg["tuned_settings"]) and "rollout_length" in accepted
    frame = frame.assign(applied_here=applied)
    session.save_table(frame, "mcts_settings", paper_ref="Sec. V (parameters tuned per game)")
    return frame


# -- the ablation of TAG's settings (issue 56) ------------------------------------------------

ABLATION_COLUMNS = ["game", "budget", "condition", "switched", "pimcts_cell", "n", "deals",
                    "is_minus_ol", "is_minus_ol_lo", "is_minus_ol_hi", "is_vs_ol",
                    "pi_minus_ol", "pi_minus_ol_lo", "pi_minus_ol_hi", "pi_vs_ol",
                    "is_minus_pi", "is_minus_pi_lo", "is_minus_pi_hi", "verdict", "note"]
NO_ABLATION = f"This preset runs no ablation (ablation_games is empty): no ablation table, {NO_FIGURE}."


def interval_side(lo: float, hi: float) -> str:
    """Where a difference's 95% interval lies: "above" 0, "below" 0, else "inconclusive"."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "inconclusive"
    return "above" if lo > 0 else "below" if hi < 0 else "inconclusive"


def paired_gap(table: pd.DataFrame, a: str, b: str) -> tuple[dict, str]:
    """Cell ``a`` minus cell ``b`` on the pairs of ``table`` (``pimcts_claims.paired_scores``),
    with the claims' paired t 95% interval over the widest unit (``pimcts_claims._widest_unit``),
    the number of those units (``n``), and the unit."""
    d, unit = pimcts_claims._widest_unit(pimcts_claims._paired_series(table, a, b))
    if len(d) < 2:
        return {"value": float(np.mean(d)) if len(d) else np.nan, "lo": np.nan, "hi": np.nan,
                "n": len(d)}, unit
    est, _ = pimcts_claims.paired_test(d)
    return {"value": est.value, "lo": est.lo, "hi": est.hi, "n": len(d)}, unit


def ablation_condition(sub: pd.DataFrame, pi: str) -> dict:
    """One condition's row of the ablation table from its rows ``sub`` (the three cells on
    their deals): IS-MCTS - OL-MCTS and the PI-MCTS cell ``pi`` - OL-MCTS with their 95%
    intervals and sides, IS-MCTS - PI-MCTS and the verdict of "IS-MCTS matches or beats the
    PI-MCTS cell" (``pimcts_claims.noninferiority``), n (the games all three cells played)."""
    out = {c: np.nan for c in ABLATION_COLUMNS[5:]}
    table = pimcts_claims._cell_table(sub) if len(sub) else pd.DataFrame()
    cells = ["control", "IS-MCTS", pi]
    if not all(c in table.columns for c in cells):
        absent = [c for c in cells if c not in table.columns]
        return {**out, "n": 0, "deals": 0, "is_vs_ol": "", "pi_vs_ol": "", "verdict": "not run",
                "note": f"no rows yet for {', '.join(absent)}"}
    table = table[cells].dropna()
    units = []
    for name, (a, b) in (("is_minus_ol", ("IS-MCTS", "control")),
                         ("pi_minus_ol", (pi, "control")), ("is_minus_pi", ("IS-MCTS", pi))):
        est, unit = paired_gap(table, a, b)
        out.update({name: est["value"], f"{name}_lo": est["lo"], f"{name}_hi": est["hi"]})
        units.append(f"{name}: {unit}")
    out["is_vs_ol"] = interval_side(out["is_minus_ol_lo"], out["is_minus_ol_hi"])
    out["pi_vs_ol"] = interval_side(out["pi_minus_ol_lo"], out["pi_minus_ol_hi"])
    d, _ = pimcts_claims._widest_unit(pimcts_claims._paired_series(table, "IS-MCTS", pi))
    out["verdict"] = pimcts_claims.noninferiority(d)[1] if len(d) >= 2 else "inconclusive"
    out.update({"n": len(table), "deals": table.index.get_level_values("deal").nunique(),
                "note": "; ".join(units)})
    return out


def ablation_table(results: pd.DataFrame, ablation: pd.DataFrame, cfg) -> pd.DataFrame:
    """Per ablation game (``cfg["ablation"]``, issue 56): one row per condition, "all on" first
    (the tournament's own cells, ``results``, on the deals the ablation plays), then each TAG
    setting switched off (``ablation`` rows, by their ``ablate``), then the settings skipped
    because the game's row has them at TAG's default already ("not run"). Every difference is
    paired per (deal, seat rotation) on the games all three cells played (``ablation_condition``).
    The PI-MCTS cell is the one the preset names (``ablation_pimcts``), chosen from the stage
    results: the "all on" row's PI-MCTS numbers include the deals it was chosen on, so they lean
    its way. Empty (``ABLATION_COLUMNS``) for a preset without ablation."""
    spec = cfg.get("ablation") or {"games": []}
    rows = []
    for game in spec["games"]:
        budget, cell = spec["budgets"][game], spec["pimcts"][game]
        pi = cell_label("pimcts", cell["D"], cell["aggregation"])
        players = pyspiel.load_game(game).num_players()
        deals = deals_per_cell(cfg, game, players, "ablation")
        head = {"game": game, "budget": budget, "pimcts_cell": pi}
        agents = {("olmcts", 1, "none"), ("ismcts", 0, "none"), ("pimcts", cell["D"], cell["aggregation"])}

        def keep(frame, game=game, budget=budget, agents=agents, deals=deals):
            if not len(frame):
                return frame
            mine = [(a, int(d), g) in agents
                    for a, d, g in zip(frame["agent"], frame["D"], frame["aggregation"])]
            return frame[(frame["game"] == game) & (frame["budget"] == budget)
                         & (frame["deal"] < deals) & np.asarray(mine, dtype=bool)]

        rows.append({**head, "condition": ALL_ON, "switched": "",
                     **ablation_condition(keep(results), pi)})
        mine = keep(ablation)
        for g, setting in spec["conditions"]:
            if g == game:
                rows.append({**head, "condition": f"{setting} off",
                             "switched": spec["switches"][game][setting],
                             **ablation_condition(mine[mine["ablate"] == setting] if len(mine)
                                                  else mine, pi)})
        for g, setting in spec["skipped"]:
            if g == game:
                rows.append({**head, "condition": f"{setting} off", "switched": "",
                             **ablation_condition(mine.iloc[:0], pi), "verdict": "not run",
                             "note": f"{setting} is at TAG's default in this game's row: nothing "
                                     "to switch off"})
    return pd.DataFrame(rows, columns=ABLATION_COLUMNS)


def save_ablation(results: pd.DataFrame, ablation: pd.DataFrame, session) -> pd.DataFrame | None:
    """The ablation table (``ablation_table``), saved as ``ablation_tag_settings``; for a
    preset without ablation, one printed line and None (nothing saved, nothing for the
    notebook to display)."""
    table = ablation_table(results, ablation, session.cfg)
    if not len(table):
        print(NO_ABLATION)
        return None
    session.save_table(table, "ablation_tag_settings", paper_ref="(ours: TAG settings ablated)")
    return table


def plot_ablation(table: pd.DataFrame, session):
    """The ablation table as a figure: one panel per game, one row per condition played ("all
    on" at the top), IS-MCTS - OL-MCTS (circles) and PI-MCTS - OL-MCTS (squares) as win-rate
    differences with their paired 95% intervals, on one x scale for every panel so the games
    compare at a glance; each row's label gives n and the verdict of "IS-MCTS matches or beats
    the PI-MCTS cell". Nothing for an empty table or None."""
    import matplotlib.pyplot as plt

    if table is None or not len(table):
        return None
    played = table[table["verdict"] != "not run"]
    if not len(played):
        return None
    games = list(dict.fromkeys(played["game"]))
    most = max(int((played["game"] == g).sum()) for g in games)
    fig, axes = plt.subplots(len(games), 1, figsize=(8, (0.55 * most + 1.3) * len(games)),
                             layout="constrained", squeeze=False, sharex=True)
    axes = axes[:, 0]
    for ax, game in zip(axes, games):
        ax.tick_params(labelbottom=True)  # every panel keeps its scale, shared or not
        part = played[played["game"] == game].reset_index(drop=True)
        y = -np.arange(len(part), dtype=float)
        for col, marker, shift, label in (("is_minus_ol", "o", 0.12, "IS-MCTS − OL-MCTS"),
                                           ("pi_minus_ol", "s", -0.12, "PI-MCTS cell − OL-MCTS")):
            lo = (part[col] - part[f"{col}_lo"]).clip(lower=0).fillna(0)
            hi = (part[f"{col}_hi"] - part[col]).clip(lower=0).fillna(0)
            ax.errorbar(part[col], y + shift, xerr=[lo, hi], fmt=marker, ms=5, capsize=2,
                        color="C0" if marker == "o" else "C1", label=label)
        ax.axvline(0, color="k", ls=":", lw=1)
        ax.set_yticks(y, [f"{r.condition}" + (f" ({r.switched})" if r.switched else "")
                          + f"\nn={int(r.n)} games; IS ≥ PI: {r.verdict}"
                          for r in part.itertuples()], fontsize=7)
        ax.set_ylim(y.min() - 0.6, 0.6)
        ax.set_title(f"{game}, B={int(part['budget'].iloc[0])}, PI-MCTS cell "
                     f"{part['pimcts_cell'].iloc[0]}", fontsize=9)
        ax.xaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 5, 10]))
    fig.supylabel("condition (TAG setting switched off for every agent at the table)", fontsize=8)
    fig.supxlabel("win-rate difference against OL-MCTS (fraction of games; paired per deal and "
                  "seat rotation, t 95% CI)", fontsize=8)
    figure_legend(fig, list(axes), "TAG settings switched off one at a time, for every agent at "
                  "the table (all on: the tournament's cells on the same deals)")
    session.save_figure(fig, "ablation_tag_settings", paper_ref="(ours: TAG settings ablated)")
    return fig
