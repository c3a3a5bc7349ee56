"""Interactive explorers that end each paper notebook (JupyterLab, ipywidgets).

Each notebook's last cell calls one ``explore_<slug>`` with the tables the notebook already
computed, and gets a small widget: moving a control redraws one figure and one readout table
from those tables. Nothing is recomputed, nothing is written.

- belief_mixtures: λ sliders over the best-responder heatmaps (λ for the first action × λ for
  the later actions), with the row and column through the chosen cell;
- pimcts_aggregation: a game, a budget and the aggregation rules: win rate vs D with 95%
  intervals, the IS-MCTS band and the 1/players line;
- belote_ismcts (and play_belote): step through a logged game trick by trick (who led, who won),
  beside that opponent's per-trick win rate;
- history_filtering: a public state and the estimators: value error vs samples, 95% intervals;
- progressive_hiding: an experiment and a method: its learning curve, the others in grey;
- quickstart: a game: exploitability vs iterations per solver.

Every explorer has a plain-function core, ``<slug>_view(tables..., <widget values>) -> View``
(a matplotlib ``Figure`` built without pyplot, and a readout ``DataFrame``), so the views are
unit-tested without a browser (``tests/test_explore.py``). The widget shows the figure as a
PNG in an ``Image`` widget and the readout as HTML: it needs no kernel to be built, so a
headless papermill run displays it without failing (the committed reports drop widget views).
"""

from __future__ import annotations

import io
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from infosets import stats

CI_NOTE = "bars and bands: 95% intervals"
AI_COLOUR, OPPONENT_COLOUR, FUTURE_COLOUR = "#0173b2", "#de8f05", "#e6e6e6"
PUBLISHED_HUMANS = "humans (the paper's 63 games)"
OUR_HUMANS = "human (our log)"


@dataclass
class View:
    """What one setting of an explorer's controls shows: a figure and a readout table."""

    figure: Figure
    table: pd.DataFrame


def png(fig: Figure, dpi: int = 90) -> bytes:
    """The figure as PNG bytes (no pyplot, so nothing is shown twice in a notebook)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    return buf.getvalue()


def _html(table: pd.DataFrame) -> str:
    def fmt(x):
        return f"{x:.4g}" if isinstance(x, (float, np.floating)) else str(x)
    return table.to_html(index=False, border=0, float_format=fmt, na_rep="")


def _widget(controls: dict, render: Callable[..., View], note: str,
            links: tuple[tuple[str, str, Callable], ...] = ()):
    """A VBox of the controls, the figure (``Image``) and the readout (``HTML``).

    ``links``: (source control, target control, options_of(source value)): when the source
    changes, the target's options are replaced (and its value kept when still offered)
    before the view is redrawn. The box's ``refresh()`` redraws by hand (tests use it).
    """
    import ipywidgets as widgets  # noqa: PLC0415 (a notebook dependency, not a library one)

    image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
    readout = widgets.HTML()
    state = {"busy": False}

    def refresh(_change=None):
        if state["busy"]:
            return
        view = render(**{name: c.value for name, c in controls.items()})
        image.value = png(view.figure)
        readout.value = _html(view.table)

    def relink(source, target, options_of):
        def update(change):
            state["busy"] = True
            try:
                kept = controls[target].value
                options = list(options_of(change["new"]))
                controls[target].options = options  # ipywidgets resets the value to the first
                if kept in options:
                    controls[target].value = kept
            finally:
                state["busy"] = False
            refresh()
        controls[source].observe(update, names="value")

    for source, target, options_of in links:
        relink(source, target, options_of)
    for name, control in controls.items():
        if not any(name == source for source, _, _ in links):
            control.observe(refresh, names="value")
    refresh()
    box = widgets.VBox([widgets.HTML(f"<i>{note}</i>"),
                        widgets.HBox(list(controls.values()),
                                     layout=widgets.Layout(flex_flow="row wrap")),
                        image, readout])
    box.controls, box.image, box.readout, box.refresh = controls, image, readout, refresh
    return box


def _nothing(what: str):
    """The widget shown when a run computed nothing to explore (e.g. a preset without it)."""
    import ipywidgets as widgets  # noqa: PLC0415

    return widgets.HTML(f"<i>No {what} in this run: nothing to explore.</i>")


def _yerr(value, lo, hi) -> np.ndarray:
    """Error-bar lengths below and above ``value`` (rounding can put a bound a hair inside)."""
    value, lo, hi = (np.asarray(a, dtype=float) for a in (value, lo, hi))
    return np.clip(np.vstack([value - lo, hi - value]), 0.0, None)


def _log_ticks(ax, values) -> None:
    """A log x axis labelled at the data's own values (1, 3, 10, ... rather than 10^k)."""
    from matplotlib.ticker import NullFormatter  # noqa: PLC0415

    ticks = sorted({int(v) for v in values if v > 0})
    ax.set_xscale("log")
    ax.set_xticks(ticks, [f"{t:,}" for t in ticks], fontsize=8)
    ax.xaxis.set_minor_formatter(NullFormatter())


def _nearest(options, value):
    options = list(options)
    if value in options:
        return value
    return min(options, key=lambda o: abs(float(o) - float(value)))


# --------------------------------------------------------------------- belief_mixtures
def belief_mixtures_panels(heat: pd.DataFrame) -> list[tuple[str, str, int]]:
    """The heatmap panels, as (algorithm, game label, seat)."""
    names = heat["label"] if "label" in heat else heat["game"]
    keys = zip(heat["algo"], names, heat["seat"])
    return [(a, g, int(s)) for a, g, s in dict.fromkeys(keys)]


def _panel(frame: pd.DataFrame, panel) -> pd.DataFrame:
    algo, game, seat = panel
    names = frame["label"] if "label" in frame else frame["game"]
    return frame[(frame["algo"] == algo) & (names == game) & (frame["seat"] == seat)]


def belief_mixtures_view(heat: pd.DataFrame, util: pd.DataFrame, panel, lam_first: float,
                         lam_later: float) -> View:
    """One heatmap panel (belief_mixtures, Figs 3 and 6) with the chosen (λ first, λ later)
    cell framed, the row and column through it, and the constant-λ values (ours and, where
    the paper tabulates them, the paper's Tables 1 and 3).

    The colour scale is shared by every panel of the same game, so panels compare."""
    sub = _panel(heat, panel)
    if sub.empty:
        raise ValueError(f"panel: {panel!r} is not in the heatmap table")
    grid = sub.pivot_table(index="lam_first", columns="lam_later", values="br")
    lam_first = _nearest(grid.index, lam_first)
    lam_later = _nearest(grid.columns, lam_later)
    names = heat["label"] if "label" in heat else heat["game"]
    scale = heat.loc[names == panel[1], "br"]
    vmin, vmax = float(scale.min()), float(scale.max())
    if vmax - vmin < 1e-9:  # a constant game: a small symmetric range, not a spurious bar
        vmin, vmax = vmin - 0.05, vmax + 0.05
    fig = Figure(figsize=(10.5, 4.2))
    ax_heat, ax_cut = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.1, 1]})
    xs, ys = list(grid.columns), list(grid.index)
    im = ax_heat.imshow(grid.to_numpy(), origin="lower", cmap="viridis", vmin=vmin, vmax=vmax,
                        aspect="auto")
    ax_heat.set_xticks(range(len(xs)), [f"{x:g}" for x in xs], fontsize=7)
    ax_heat.set_yticks(range(len(ys)), [f"{y:g}" for y in ys], fontsize=7)
    i, j = ys.index(lam_first), xs.index(lam_later)
    ax_heat.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, ec="red", lw=2))
    ax_heat.axhline(i, color="white", lw=0.6, alpha=0.7)
    ax_heat.axvline(j, color="white", lw=0.6, alpha=0.7)
    ax_heat.set_xlabel("λ for the later actions")
    ax_heat.set_ylabel("λ for the first action")
    ax_heat.set_title(f"{panel[0]} {panel[1]}, our seat {panel[2]}", fontsize=10)
    fig.colorbar(im, ax=ax_heat, label="best-responder utility (lower is better for us)")

    row, col = grid.loc[lam_first], grid[lam_later]
    diagonal = pd.Series({lam: grid.loc[lam, lam] for lam in ys if lam in grid.columns})
    ax_cut.plot(row.index, row.to_numpy(), "o-", label=f"λ first = {lam_first:g}, λ later varies")
    ax_cut.plot(col.index, col.to_numpy(), "s-", label=f"λ later = {lam_later:g}, λ first varies")
    ax_cut.plot(diagonal.index, diagonal.to_numpy(), "--", color="0.4", label="one λ throughout")
    constant = _panel(util, panel) if len(util) else util
    if len(constant) and "paper_br" in constant and constant["paper_br"].notna().any():
        paper = constant.dropna(subset=["paper_br"]).sort_values("lam")
        ax_cut.plot(paper["lam"], paper["paper_br"], "x", color="k", ms=6,
                    label="paper, one λ throughout (Tables 1, 3)")
    ax_cut.axvline(lam_later, color=ax_cut.get_lines()[0].get_color(), lw=0.8, ls=":")
    ax_cut.axvline(lam_first, color=ax_cut.get_lines()[1].get_color(), lw=0.8, ls=":")
    ax_cut.set_xlabel("λ (0 = private belief, 1 = public belief)")
    ax_cut.set_ylabel("best-responder utility")
    ax_cut.set_title("exact given the tabulated policy (no interval)", fontsize=9)
    ax_cut.legend(fontsize=7)
    fig.tight_layout()

    best = sub.loc[sub["br"].idxmin()]
    best_diag = diagonal.idxmin()
    rows = [("chosen cell", lam_first, lam_later, grid.loc[lam_first, lam_later]),
            ("one λ throughout, λ = λ first", lam_first, lam_first, diagonal.get(lam_first, np.nan)),
            ("one λ throughout, λ = λ later", lam_later, lam_later, diagonal.get(lam_later, np.nan)),
            ("best cell of the panel", best["lam_first"], best["lam_later"], best["br"]),
            ("best single λ", best_diag, best_diag, diagonal[best_diag])]
    table = pd.DataFrame(rows, columns=["what", "λ first", "λ later", "best-responder utility"])
    return View(fig, table)


def explore_belief_mixtures(heat: pd.DataFrame, util: pd.DataFrame):
    """λ sliders over the best-responder heatmaps (belief_mixtures, Figs 3 and 6)."""
    import ipywidgets as widgets  # noqa: PLC0415

    if heat.empty:
        return _nothing("heatmaps")
    panels = belief_mixtures_panels(heat)
    lambdas = sorted(set(heat["lam_first"]) | set(heat["lam_later"]))
    controls = {
        "panel": widgets.Dropdown(options=[(f"{a} {g}, seat {s}", (a, g, s)) for a, g, s in panels],
                                  description="panel"),
        "lam_first": widgets.SelectionSlider(options=[(f"{x:g}", x) for x in lambdas],
                                             value=lambdas[0], description="λ first"),
        "lam_later": widgets.SelectionSlider(options=[(f"{x:g}", x) for x in lambdas],
                                             value=lambdas[-1], description="λ later"),
    }
    return _widget(controls, lambda **v: belief_mixtures_view(heat, util, **v),
                   "Best-responder utility of our bot when it uses λ first for its first action "
                   "and λ later afterwards (lower is better for us).")


# --------------------------------------------------------------------- pimcts_aggregation
def pimcts_games(rates: pd.DataFrame) -> list[str]:
    """The games of the win-rate table, the paper's first."""
    games = list(dict.fromkeys(rates["game"]))
    if "paper_game" in rates:
        paper = set(rates.loc[rates["paper_game"].astype(bool), "game"])
        games = [g for g in games if g in paper] + [g for g in games if g not in paper]
    return games


def pimcts_budgets(rates: pd.DataFrame, game: str) -> list[int]:
    return sorted(int(b) for b in set(rates.loc[rates["game"] == game, "budget"]))


def pimcts_aggregations(rates: pd.DataFrame) -> list[str]:
    pi = rates[rates["agent"] == "pimcts"]
    return list(dict.fromkeys(pi["aggregation"]))


def pimcts_aggregation_view(rates: pd.DataFrame, game: str, budget: int,
                            aggregations: tuple[str, ...]) -> View:
    """Win rate of the focus agent vs D for one game and budget (pimcts_aggregation, Figs 1
    and 2): one line per chosen aggregation rule (D = 1 is the OL-MCTS control, shared by
    every rule), Wilson 95% error bars, IS-MCTS as a band, 1/players as the even-skill line."""
    sub = rates[(rates["game"] == game) & (rates["budget"] == budget)]
    if sub.empty:
        raise ValueError(f"game: no win rates for {game!r} at budget {budget}")
    control = sub[sub["agent"] == "olmcts"]
    ismcts = sub[sub["agent"] == "ismcts"]
    fig = Figure(figsize=(7.5, 4.2))
    ax = fig.subplots()
    chosen = [a for a in pimcts_aggregations(rates) if a in set(aggregations)]
    shown = [control.assign(aggregation="OL-MCTS (D = 1)")] if len(control) else []
    for k, agg in enumerate(chosen):
        part = pd.concat([control, sub[(sub["agent"] == "pimcts") & (sub["aggregation"] == agg)]])
        part = part.sort_values("D")
        if part.empty:
            continue
        shift = 1.0 + 0.03 * (k - (len(chosen) - 1) / 2)  # side by side on the log axis
        ax.errorbar(part["D"] * shift, 100 * part["win_rate"],
                    yerr=100 * _yerr(part["win_rate"], part["lo"], part["hi"]),
                    marker="o", ms=4, capsize=3, label=f"PI-MCTS, {agg}")
        shown.append(part[part["agent"] == "pimcts"].assign(aggregation=f"PI-MCTS, {agg}"))
    if not chosen and len(control):  # no rule ticked: the D = 1 control still stands alone
        ax.errorbar(control["D"], 100 * control["win_rate"],
                    yerr=100 * _yerr(control["win_rate"], control["lo"], control["hi"]),
                    marker="o", ms=4, capsize=3, ls="none", label="OL-MCTS (D = 1)")
    if len(ismcts):
        row = ismcts.iloc[0]
        ax.axhspan(100 * row["lo"], 100 * row["hi"], color="0.5", alpha=0.2)
        ax.axhline(100 * row["win_rate"], color="0.3", ls="-.", label="IS-MCTS (band: 95%)")
        shown.append(ismcts.assign(aggregation="IS-MCTS"))
    if "baseline" in sub and sub["baseline"].notna().any():
        ax.axhline(100 * float(sub["baseline"].iloc[0]), color="red", lw=1,
                   label=f"1/players = {100 * float(sub['baseline'].iloc[0]):.0f}%")
    _log_ticks(ax, sub.loc[sub["agent"] != "ismcts", "D"])
    ax.set_xlabel("determinizations D (log scale; D = 1 is OL-MCTS)")
    ax.set_ylabel("win rate of the focus agent (%)")
    n = int(sub["n"].min()) if "n" in sub else 0
    ax.set_title(f"{game}, B = {budget} iterations, n ≥ {n} games per cell; {CI_NOTE}", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    table = pd.concat(shown, ignore_index=True) if shown else sub.iloc[:0]
    d = table["D"].astype(int).astype(str).where(table["aggregation"] != "IS-MCTS", "")  # no D
    table = pd.DataFrame({"agent": table["aggregation"], "D": d,
                          "win rate %": 100 * table["win_rate"], "95% low": 100 * table["lo"],
                          "95% high": 100 * table["hi"], "games": table["n"]})
    return View(fig, table.reset_index(drop=True))


def explore_pimcts_aggregation(rates: pd.DataFrame):
    """A game, a budget and the aggregation rules: win rate vs D (pimcts_aggregation)."""
    import ipywidgets as widgets  # noqa: PLC0415

    if rates.empty:
        return _nothing("win rates")
    missing = sorted({"game", "budget", "agent", "D", "aggregation", "win_rate", "lo", "hi"}
                     - set(rates.columns))
    if missing:
        raise ValueError(f"rates: the win-rate table lacks columns {missing}")
    games = pimcts_games(rates)
    paper = (set(rates.loc[rates["paper_game"].astype(bool), "game"])
             if "paper_game" in rates else set(games))
    aggs = pimcts_aggregations(rates)
    controls = {
        "game": widgets.Dropdown(options=[(g if g in paper else f"{g} (beyond the paper)", g)
                                          for g in games], description="game"),
        "budget": widgets.Dropdown(options=pimcts_budgets(rates, games[0]), description="budget B"),
        "aggregations": widgets.SelectMultiple(options=aggs, value=tuple(aggs), rows=len(aggs),
                                               description="aggregation"),
    }
    return _widget(controls, lambda **v: pimcts_aggregation_view(rates, **v),
                   "Win rate of PI-MCTS (one rule per line) and IS-MCTS against OL-MCTS opponents; "
                   "ctrl-click to choose several aggregation rules.",
                   links=(("game", "budget", lambda g: pimcts_budgets(rates, g)),))


# --------------------------------------------------------------------- belote_ismcts
TRICKS = 16


def belote_games(results: pd.DataFrame | None = None, humans: pd.DataFrame | None = None,
                 published: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every logged game as one row: ``opponent``, ``index`` (1.. per opponent),
    ``ai_led_first``, ``ai_score``, ``trick_1..16`` (1 when the AI won it), and ``deal`` /
    ``ai_seat`` where the game came from the bot sweep (duplicate deals)."""
    frames = []
    if published is not None and len(published):
        frames.append(published.assign(opponent=PUBLISHED_HUMANS))
    if humans is not None and len(humans):
        frames.append(humans.assign(opponent=OUR_HUMANS))
    if results is not None and len(results):
        frames.append(results)
    columns = ["opponent", "ai_led_first", "ai_score", *(f"trick_{t}" for t in range(1, TRICKS + 1))]
    extra = [c for c in ("deal", "ai_seat") if any(c in f for f in frames)]
    if not frames:
        return pd.DataFrame(columns=["opponent", "index", *columns[1:], *extra])
    games = pd.concat([f.reindex(columns=columns + extra) for f in frames], ignore_index=True)
    games["ai_led_first"] = games["ai_led_first"].astype(bool)
    games.insert(1, "index", games.groupby("opponent", sort=False).cumcount() + 1)
    return games


def trick_leaders(game: pd.Series) -> list[bool]:
    """For each trick, whether the AI led it: the first leader, then each trick's winner."""
    won = [bool(game[f"trick_{t}"]) for t in range(1, TRICKS + 1)]
    return [bool(game["ai_led_first"])] + won[:-1]


def belote_view(games: pd.DataFrame, opponent: str, index: int, trick: int) -> View:
    """Step through one logged game (belote_ismcts): who led and who won each trick up to
    ``trick`` (the logs hold trick winners, not cards), beside the AI's win rate at each
    trick over all games against the same opponent (Fig. 6, Wilson 95% intervals)."""
    pool = games[games["opponent"] == opponent]
    if pool.empty:
        raise ValueError(f"opponent: no logged games against {opponent!r}")
    if isinstance(trick, bool) or not isinstance(trick, numbers.Integral) or not 1 <= trick <= TRICKS:
        raise ValueError(f"trick: expected an int in 1..{TRICKS}, got {trick!r}")
    index = min(max(int(index), 1), len(pool))
    game = pool.iloc[index - 1]
    won = [bool(game[f"trick_{t}"]) for t in range(1, TRICKS + 1)]
    led = trick_leaders(game)

    fig = Figure(figsize=(9.5, 5.2))
    ax_strip, ax_rate = fig.subplots(2, 1, gridspec_kw={"height_ratios": [1, 2.2]})
    for t in range(1, TRICKS + 1):
        for y, ai in ((1, won[t - 1]), (0, led[t - 1])):
            colour = (AI_COLOUR if ai else OPPONENT_COLOUR) if t <= trick else FUTURE_COLOUR
            ax_strip.add_patch(Rectangle((t - 0.45, y - 0.4), 0.9, 0.8, color=colour))
    ax_strip.add_patch(Rectangle((trick - 0.5, -0.5), 1, 2, fill=False, ec="red", lw=2))
    ax_strip.set_xlim(0.4, TRICKS + 0.6)
    ax_strip.set_ylim(-0.6, 1.6)
    ax_strip.set_yticks([0, 1], ["led by", "won by"])
    ax_strip.set_xticks(range(1, TRICKS + 1))
    ax_strip.set_xlabel("trick")
    ax_strip.grid(False)
    ax_strip.legend(handles=[Rectangle((0, 0), 1, 1, color=AI_COLOUR, label="AI (ISMCTS)"),
                             Rectangle((0, 0), 1, 1, color=OPPONENT_COLOUR, label=opponent)],
                    fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax_strip.set_title(f"{opponent}, game {index} of {len(pool)}: final AI score "
                       f"{int(game['ai_score'])} / 162", fontsize=10)

    rates = []
    for t in range(1, TRICKS + 1):
        est = stats.wilson_interval(float(pool[f"trick_{t}"].sum()), len(pool))
        rates.append((t, 100 * est.value, 100 * est.lo, 100 * est.hi))
    rate = pd.DataFrame(rates, columns=["trick", "pct", "lo", "hi"])
    ax_rate.errorbar(rate["trick"], rate["pct"], yerr=_yerr(rate["pct"], rate["lo"], rate["hi"]),
                     marker="o", ms=4, capsize=2, color=AI_COLOUR,
                     label=f"AI's trick-win rate vs {opponent} (n = {len(pool)} games; 95% Wilson)")
    ax_rate.plot(range(1, trick + 1), [100 * w for w in won[:trick]], "x", color="k", ms=7,
                 label="this game: AI won (100) or lost (0)")
    ax_rate.axvspan(trick - 0.5, trick + 0.5, color="red", alpha=0.08)
    ax_rate.axhline(50, color="red", lw=1)
    ax_rate.set_xlim(0.4, TRICKS + 0.6)
    ax_rate.set_ylim(-5, 105)
    ax_rate.set_xticks(range(1, TRICKS + 1))
    ax_rate.set_xlabel("trick")
    ax_rate.set_ylabel("tricks won by the AI (%)")
    ax_rate.legend(fontsize=7, loc="upper left")
    fig.tight_layout()

    now = rate.iloc[trick - 1]
    rows = [("opponent", opponent), ("game", f"{index} of {len(pool)}")]
    if "deal" in game and pd.notna(game.get("deal")):
        rows.append(("duplicate deal (AI seat)", f"{int(game['deal'])} (seat {int(game['ai_seat'])})"))
    rows += [("first leader", "AI" if game["ai_led_first"] else "opponent"),
             (f"trick {trick} led by", "AI" if led[trick - 1] else "opponent"),
             (f"trick {trick} won by", "AI" if won[trick - 1] else "opponent"),
             (f"tricks won by the AI after {trick}", f"{sum(won[:trick])} of {trick}"),
             (f"AI wins trick {trick} in this pool", f"{now['pct']:.1f}% [{now['lo']:.1f}, {now['hi']:.1f}]"),
             ("final AI score (> 81 wins)", f"{int(game['ai_score'])}")]
    return View(fig, pd.DataFrame(rows, columns=["", "value"]))


def _belote_widget(games: pd.DataFrame, note: str):
    import ipywidgets as widgets  # noqa: PLC0415

    if games.empty:
        return _nothing("logged games")
    opponents = list(dict.fromkeys(games["opponent"]))
    sizes = games.groupby("opponent", sort=False).size().to_dict()
    controls = {
        "opponent": widgets.Dropdown(options=[(f"{o} ({sizes[o]} games)", o) for o in opponents],
                                     description="games"),
        "index": widgets.BoundedIntText(value=1, min=1, max=sizes[opponents[0]], description="game"),
        "trick": widgets.IntSlider(value=1, min=1, max=TRICKS, description="trick"),
    }

    def resize(change):
        controls["index"].max = sizes[change["new"]]
        controls["index"].value = min(controls["index"].value, sizes[change["new"]])

    controls["opponent"].observe(resize, names="value")
    return _widget(controls, lambda **v: belote_view(games, **v), note)


def explore_belote_ismcts(results: pd.DataFrame, humans: pd.DataFrame | None = None,
                          published: pd.DataFrame | None = None):
    """Step through a logged game trick by trick: the paper's human games (``published``),
    our own human log (``humans``) or the bot sweep (``results``) (belote_ismcts)."""
    games = belote_games(results, humans, published)
    return _belote_widget(games, "The logs keep who led and who won each trick (not the cards): "
                                 "step through a game with the trick slider.")


def explore_play_belote(log_path, published: pd.DataFrame | None = None):
    """Step through the games in your own log (``log_path``, relative to the repository when
    not absolute) and the paper's 63 human games (``published``; by default read from the
    author's logs in ``data/belote_human_logs/``) (belote_ismcts, played through
    ``play_belote``). Reads the logs, computes nothing."""
    from pathlib import Path  # noqa: PLC0415

    from infosets.experiments.config import repo_root  # noqa: PLC0415
    from infosets.games.belote2p import log as game_log  # noqa: PLC0415

    if published is None:
        from infosets.papers.belote_human_games import published_games  # noqa: PLC0415
        published = published_games(repo_root())
    path = Path(log_path)
    games = belote_games(None, game_log.read_games(path if path.is_absolute() else repo_root() / path),
                         published)
    return _belote_widget(games, "Your games appear here once finished (the board appends them "
                                 "to your log); the paper's 63 games are shown for comparison.")


# --------------------------------------------------------------------- history_filtering
def estimator_label(row) -> str:
    """'MCMC b=<burn-in>' for the chain, else the method's name (True, Importance)."""
    return f"MCMC b={int(row['burn_in'])}" if row["method"] == "MCMC" else str(row["method"])


def _interval_ends(error: float, se: float, runs: int) -> tuple[float, float]:
    """The 95% t interval's ends, or NaN ends for a point of one run (no standard error)."""
    if runs < 2 or np.isnan(se):
        return np.nan, np.nan
    interval = stats.t_interval(error, se, runs)
    return interval.lo, interval.hi


def history_filtering_estimates(values: pd.DataFrame) -> pd.DataFrame:
    """Fig. 4 rows (history_filtering) with an ``estimator`` label and a 95% t interval from
    the mean error's standard error over ``runs`` runs (clipped at 0: errors are >= 0). A point
    of one run has no standard error (NaN): its interval is NaN, drawn as no band."""
    fig4 = values[values["kind"] == "fig4"].copy()
    fig4["estimator"] = [estimator_label(r) for _, r in fig4.iterrows()]
    ends = [_interval_ends(e, se, int(n)) for e, se, n in zip(fig4["error"], fig4["se"], fig4["runs"])]
    fig4["lo"] = np.maximum([lo for lo, _ in ends], 0.0)
    fig4["hi"] = [hi for _, hi in ends]
    return fig4


def history_filtering_view(values: pd.DataFrame, state: str, estimators: tuple[str, ...]) -> View:
    """Value error vs samples at one public state, one line per chosen estimator, 95%
    intervals over runs (history_filtering, Fig. 4)."""
    fig4 = history_filtering_estimates(values)
    sub = fig4[(fig4["state"] == state) & fig4["estimator"].isin(estimators)]
    if fig4[fig4["state"] == state].empty:
        raise ValueError(f"state: {state!r} is not in the value-error table")
    unknown = sorted(set(estimators) - set(fig4["estimator"]))
    if unknown:
        raise ValueError(f"estimators: {unknown} not in the value-error table; "
                         f"known: {sorted(set(fig4['estimator']))}")
    fig = Figure(figsize=(7.5, 4.2))
    ax = fig.subplots()
    for name, part in sub.groupby("estimator", sort=False):
        part = part.sort_values("samples")
        ax.errorbar(part["samples"], part["error"], yerr=_yerr(part["error"], part["lo"], part["hi"]),
                    marker="o", ms=4, capsize=3, label=name)
    _log_ticks(ax, fig4.loc[fig4["state"] == state, "samples"])
    ax.set_xlabel("samples (log scale)")
    ax.set_ylabel("|estimate − V(S)| (points of the game's return)")
    first = fig4[fig4["state"] == state].iloc[0]
    runs = int(first["runs"])
    ax.set_title(f"{state}: |H_S| = {int(first['histories']):,} histories; {runs} runs per point; "
                 f"{CI_NOTE}", fontsize=9)
    if len(sub):
        ax.legend(fontsize=8, title="estimator", title_fontsize=8)
    fig.tight_layout()
    last = sub[sub["samples"] == sub["samples"].max()] if len(sub) else sub
    table = pd.DataFrame({"estimator": last["estimator"], "samples": last["samples"].astype(int),
                          "error": last["error"], "95% low": last["lo"], "95% high": last["hi"],
                          "runs": last["runs"].astype(int)})
    return View(fig, table.reset_index(drop=True))


def explore_history_filtering(values: pd.DataFrame):
    """A public state and the estimators: value error vs samples (history_filtering)."""
    import ipywidgets as widgets  # noqa: PLC0415

    fig4 = history_filtering_estimates(values)
    if fig4.empty:
        return _nothing("value-error runs")
    states = list(dict.fromkeys(fig4["state"]))
    sizes = fig4.drop_duplicates("state").set_index("state")["histories"]
    names = list(dict.fromkeys(fig4["estimator"]))
    controls = {
        "state": widgets.Dropdown(options=[(f"{s} (|H_S| = {int(sizes[s]):,})", s) for s in states],
                                  description="state"),
        "estimators": widgets.SelectMultiple(options=names, value=tuple(names), rows=len(names),
                                             description="estimators"),
    }
    return _widget(controls, lambda **v: history_filtering_view(values, **v),
                   "Error of each estimator of the public state's value; the table gives the "
                   "largest sample size. Ctrl-click to choose several estimators.")


# --------------------------------------------------------------------- progressive_hiding
BRIDGE = "Tiny Bridge"


def progressive_hiding_curves(trade: pd.DataFrame, bridge: pd.DataFrame) -> pd.DataFrame:
    """Learning curves (progressive_hiding) as rows ``experiment, method, step, mean, lo, hi,
    q10, n, rho``: Trade Comm per game and map (mean over runs with a t 95% interval and the
    10% quantile, Fig. 1), Tiny Bridge per method (one deterministic run, Fig. 3)."""
    rows = []
    for (game, name, step), sub in trade.groupby(["game", "map", "iteration"], sort=False):
        est = stats.mean_ci(sub["payoff"].to_numpy())
        rows.append({"experiment": f"Trade Comm: {game}", "method": name, "step": int(step),
                     "mean": est.value, "lo": est.lo, "hi": est.hi,
                     "q10": float(sub["payoff"].quantile(0.1)), "n": est.n, "rho": np.nan})
    for name, sub in bridge.groupby("method", sort=False):
        for r in sub.itertuples():
            rows.append({"experiment": BRIDGE, "method": name, "step": int(r.episode),
                         "mean": r.payoff, "lo": r.payoff, "hi": r.payoff, "q10": np.nan, "n": 1,
                         "rho": getattr(r, "rho", np.nan)})
    return pd.DataFrame(rows, columns=["experiment", "method", "step", "mean", "lo", "hi", "q10",
                                       "n", "rho"])


def progressive_hiding_methods(curves: pd.DataFrame, experiment: str) -> list[str]:
    return list(dict.fromkeys(curves.loc[curves["experiment"] == experiment, "method"]))


def progressive_hiding_view(curves: pd.DataFrame, experiment: str, method: str) -> View:
    """One method's learning curve, the experiment's other methods in grey (progressive_hiding)."""
    from infosets.papers.progressive_hiding import CAPI_BRIDGE, PAPER_BRIDGE_PEAK  # noqa: PLC0415

    sub = curves[curves["experiment"] == experiment]
    if sub.empty:
        raise ValueError(f"experiment: {experiment!r} has no curves; "
                         f"known: {sorted(set(curves['experiment']))}")
    mine = sub[sub["method"] == method].sort_values("step")
    if mine.empty:
        raise ValueError(f"method: {method!r} has no curve in {experiment!r}")
    fig = Figure(figsize=(7.5, 4.2))
    ax = fig.subplots()
    for name, other in sub.groupby("method", sort=False):
        if name != method:
            ax.plot(other["step"], other["mean"], color="0.7", lw=1)
    runs = int(mine["n"].max())
    (line,) = ax.plot(mine["step"], mine["mean"], marker="o", ms=3,
                      label=f"{method} (mean)" if runs > 1 else method)
    if experiment != BRIDGE:  # Trade Comm: runs over seeds (one run has no interval to draw)
        if runs > 1:
            ax.fill_between(mine["step"], mine["lo"], mine["hi"], color=line.get_color(),
                            alpha=0.2, label="95% interval of the mean")
            ax.plot(mine["step"], mine["q10"], ls="--", color=line.get_color(),
                    label="10% quantile over runs")
        ax.set_xscale("log")
        ax.set_xlabel("iteration (one full traversal; log scale)")
        ax.set_ylabel("expected payoff of the projected policy")
    else:
        ax.axhline(PAPER_BRIDGE_PEAK, color="k", ls="--", lw=1, label=f"paper's peak {PAPER_BRIDGE_PEAK}")
        ax.axhline(CAPI_BRIDGE, color="0.5", ls=":", lw=1, label=f"CAPI ≈ {CAPI_BRIDGE:g}")
        ax.set_xlabel("episode (one full traversal)")
        ax.set_ylabel("expected team payoff (exact; one run)")
        if mine["rho"].notna().any():
            twin = ax.twinx()
            twin.plot(mine["step"], mine["rho"], color="C3", lw=1, ls="-.")
            twin.set_ylabel("penalty ρ (dash-dot)", color="C3")
            twin.grid(False)
    ax.plot([], [], color="0.7", label="the other methods")
    ax.set_title(f"{experiment}: {method}" + (f", {runs} runs" if runs > 1 else ""), fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    best = mine.loc[mine["mean"].idxmax()]
    final = mine.iloc[-1]
    table = pd.DataFrame([
        {"what": "final", "step": int(final["step"]), "payoff": final["mean"], "95% low": final["lo"],
         "95% high": final["hi"], "runs": int(final["n"])},
        {"what": "best", "step": int(best["step"]), "payoff": best["mean"], "95% low": best["lo"],
         "95% high": best["hi"], "runs": int(best["n"])}])
    return View(fig, table)


def explore_progressive_hiding(trade: pd.DataFrame, bridge: pd.DataFrame):
    """An experiment and a method: its learning curve (progressive_hiding)."""
    import ipywidgets as widgets  # noqa: PLC0415

    curves = progressive_hiding_curves(trade, bridge)
    if curves.empty:
        return _nothing("learning curves")
    experiments = list(dict.fromkeys(curves["experiment"]))
    controls = {
        "experiment": widgets.Dropdown(options=experiments, description="experiment"),
        "method": widgets.Dropdown(options=progressive_hiding_methods(curves, experiments[0]),
                                   description="method"),
    }
    return _widget(controls, lambda **v: progressive_hiding_view(curves, **v),
                   "Payoff of the policy the real players can implement, against learning time.",
                   links=(("experiment", "method",
                           lambda e: progressive_hiding_methods(curves, e)),))


# --------------------------------------------------------------------- quickstart
def quickstart_view(results: pd.DataFrame, game: str) -> View:
    """Exploitability vs iterations per solver for one game (quickstart; exact, no interval)."""
    sub = results[results["game"] == game]
    if sub.empty:
        raise ValueError(f"game: {game!r} is not in the results")
    fig = Figure(figsize=(6.5, 4))
    ax = fig.subplots()
    for solver, part in sub.groupby("solver", sort=False):
        part = part.sort_values("iterations")
        ax.plot(part["iterations"], part["exploitability"], marker="o", label=solver)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations (log scale)")
    ax.set_ylabel("exploitability (NashConv / 2, chips)")
    ax.set_title(f"{game} (exact, so no interval)", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    table = sub[["solver", "iterations", "exploitability"]].sort_values(["solver", "iterations"])
    return View(fig, table.reset_index(drop=True))


def explore_quickstart(results: pd.DataFrame):
    """A game: exploitability vs iterations per solver (quickstart)."""
    import ipywidgets as widgets  # noqa: PLC0415

    if results.empty:
        return _nothing("results")
    controls = {"game": widgets.Dropdown(options=list(dict.fromkeys(results["game"])),
                                         description="game")}
    return _widget(controls, lambda **v: quickstart_view(results, **v),
                   "Exploitability of the average policy after each number of iterations.")
