"""The notebooks' interactive explorers (lib/infosets/explore.py): the plain-function views
show the numbers of the tables they are given, and the widgets redraw when a control moves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from infosets import explore, stats
from infosets.games.belote2p import log as game_log

PNG = b"\x89PNG"


# ------------------------------------------------------------------ belief_mixtures
def _heat():
    rows = []
    for seat, offset in ((0, 0.0), (1, 1.0)):
        for lf in (0.0, 0.5, 1.0):
            for ll in (0.0, 0.5, 1.0):
                rows.append({"game": "leduc_poker", "label": "LP", "algo": "PIMC", "seat": seat,
                             "lam_first": lf, "lam_later": ll, "br": offset + lf + 10 * ll})
    for lf in (0.0, 0.5, 1.0):
        for ll in (0.0, 0.5, 1.0):
            rows.append({"game": "liars_dice", "label": "LD 2D", "algo": "PIMC", "seat": 0,
                         "lam_first": lf, "lam_later": ll, "br": -0.5})
    return pd.DataFrame(rows)


def _util():
    return pd.DataFrame([{"algo": "PIMC", "label": "LP", "seat": 0, "lam": lam, "br": 11 * lam,
                          "paper_br": 0.6 + lam} for lam in (0.0, 0.5, 1.0)])


def test_belief_mixtures_view_frames_the_chosen_cell_and_reads_it_out():
    view = explore.belief_mixtures_view(_heat(), _util(), ("PIMC", "LP", 0), 0.5, 1.0)
    heat_ax, cut_ax = view.figure.axes[:2]
    grid = heat_ax.images[0].get_array()
    assert grid[1, 2] == pytest.approx(0.5 + 10.0)          # row = λ first, column = λ later
    table = view.table.set_index("what")["best-responder utility"]
    assert table["chosen cell"] == pytest.approx(10.5)
    assert table["one λ throughout, λ = λ first"] == pytest.approx(5.5)
    assert table["best cell of the panel"] == pytest.approx(0.0)
    row = cut_ax.get_lines()[0]                              # λ first fixed at 0.5
    assert list(row.get_ydata()) == pytest.approx([0.5, 5.5, 10.5])
    paper = [ln for ln in cut_ax.get_lines() if ln.get_label().startswith("paper")]
    assert list(paper[0].get_ydata()) == pytest.approx([0.6, 1.1, 1.6])


def test_belief_mixtures_panels_of_a_game_share_one_colour_scale():
    heat = _heat()
    a = explore.belief_mixtures_view(heat, _util(), ("PIMC", "LP", 0), 0.0, 0.0)
    b = explore.belief_mixtures_view(heat, _util(), ("PIMC", "LP", 1), 0.0, 0.0)
    assert a.figure.axes[0].images[0].get_clim() == b.figure.axes[0].images[0].get_clim() == (0.0, 12.0)
    constant = explore.belief_mixtures_view(heat, _util(), ("PIMC", "LD 2D", 0), 0.4, 0.9)
    assert constant.figure.axes[0].images[0].get_clim() == pytest.approx((-0.55, -0.45))
    chosen = constant.table.set_index("what").loc["chosen cell"]
    assert (chosen["λ first"], chosen["λ later"]) == (0.5, 1.0)  # snapped to the grid


def test_belief_mixtures_unknown_panel_is_rejected():
    with pytest.raises(ValueError, match="panel"):
        explore.belief_mixtures_view(_heat(), _util(), ("IS-MCTS", "LP", 0), 0.0, 0.0)


def test_belief_mixtures_widget_redraws_when_a_slider_moves():
    box = explore.explore_belief_mixtures(_heat(), _util())
    before = bytes(box.image.value)
    assert before.startswith(PNG)
    box.controls["lam_first"].value = 0.5
    assert bytes(box.image.value) != before
    assert "10.5" in box.readout.value


# ------------------------------------------------------------------ pimcts_aggregation
def _rates():
    rows = [{"game": "hearts", "budget": 100, "agent": "olmcts", "D": 1, "aggregation": "none",
             "win_rate": 0.25, "lo": 0.2, "hi": 0.3, "n": 200, "baseline": 0.25, "paper_game": True},
            {"game": "hearts", "budget": 100, "agent": "ismcts", "D": 1, "aggregation": "none",
             "win_rate": 0.4, "lo": 0.35, "hi": 0.45, "n": 200, "baseline": 0.25, "paper_game": True}]
    for agg, gain in (("TotalVisits", 0.1), ("AverageValue", 0.0)):
        for d in (3, 10):
            rows.append({"game": "hearts", "budget": 100, "agent": "pimcts", "D": d,
                         "aggregation": agg, "win_rate": 0.25 + gain, "lo": 0.2 + gain,
                         "hi": 0.3 + gain, "n": 200, "baseline": 0.25, "paper_game": True})
    rows.append({"game": "leduc_poker", "budget": 50, "agent": "olmcts", "D": 1, "aggregation": "none",
                 "win_rate": 0.0, "lo": 1e-17, "hi": 0.1, "n": 30, "baseline": 0.5, "paper_game": False})
    return pd.DataFrame(rows)


def test_pimcts_view_draws_each_rule_from_the_control_with_the_ismcts_band():
    view = explore.pimcts_aggregation_view(_rates(), "hearts", 100, ("TotalVisits", "AverageValue"))
    ax = view.figure.axes[0]
    lines = [c for c in ax.containers]                       # one errorbar per rule
    assert len(lines) == 2
    ys = lines[0].lines[0].get_ydata()
    assert list(ys) == pytest.approx([25.0, 35.0, 35.0])     # D = 1 control, then D = 3, 10
    table = view.table.set_index("agent")
    assert table.loc["IS-MCTS", "win rate %"] == pytest.approx(40.0)
    assert set(table.index) == {"OL-MCTS (D = 1)", "PI-MCTS, TotalVisits", "PI-MCTS, AverageValue",
                                "IS-MCTS"}
    one = explore.pimcts_aggregation_view(_rates(), "hearts", 100, ("AverageValue",))
    assert len(one.figure.axes[0].containers) == 1


def test_pimcts_view_draws_the_control_alone_when_no_rule_is_chosen():
    # The table lists "OL-MCTS (D = 1)" whatever is ticked, so the plot must show it too.
    view = explore.pimcts_aggregation_view(_rates(), "hearts", 100, ())
    (bars,) = view.figure.axes[0].containers
    assert list(bars.lines[0].get_xdata()) == [1]
    assert list(bars.lines[0].get_ydata()) == pytest.approx([25.0])
    assert set(view.table["agent"]) == {"OL-MCTS (D = 1)", "IS-MCTS"}


def test_pimcts_view_rejects_a_missing_cell_and_tolerates_rounded_bounds():
    with pytest.raises(ValueError, match="game"):
        explore.pimcts_aggregation_view(_rates(), "hearts", 4000, ("TotalVisits",))
    # A Wilson lower bound a hair above a 0% rate must not break the error bars (matplotlib
    # refuses a negative error-bar length). Leduc has only the D = 1 control here: one rule is
    # chosen so that the control's error bar is drawn.
    view = explore.pimcts_aggregation_view(_rates(), "leduc_poker", 50, ("TotalVisits",))
    (bars,) = view.figure.axes[0].containers
    assert list(bars.lines[0].get_ydata()) == [0.0]
    assert list(explore._yerr([0.0], [1e-17], [0.1]).ravel()) == [0.0, 0.1]


def test_pimcts_widget_offers_each_game_its_own_budgets():
    box = explore.explore_pimcts_aggregation(_rates())
    assert box.controls["game"].value == "hearts"            # the paper's games first
    assert list(box.controls["budget"].options) == [100]
    box.controls["game"].value = "leduc_poker"
    assert list(box.controls["budget"].options) == [50]
    assert "OL-MCTS" in box.readout.value


def test_switching_game_keeps_a_budget_both_games_offer():
    """ipywidgets resets a Dropdown to its first option when its options change; the linked
    control puts the user's budget back when the new game offers it too."""
    rates = _rates()
    extra = rates.copy()
    extra["budget"] = 4000
    box = explore.explore_pimcts_aggregation(pd.concat([rates, extra], ignore_index=True))
    box.controls["budget"].value = 4000
    box.controls["game"].value = "leduc_poker"
    assert list(box.controls["budget"].options) == [50, 4000]
    assert box.controls["budget"].value == 4000
    box.controls["budget"].value = 50
    box.controls["game"].value = "hearts"                      # hearts has no B = 50
    assert box.controls["budget"].value == 100


# ------------------------------------------------------------------ belote_ismcts
def _log_games(tmp_path):
    path = tmp_path / "games.log"
    game_log.append_game(path, True, [1, 0, 0, 1] + [1] * 12, 120)
    game_log.append_game(path, False, [0] * 16, 20)
    return path


def test_trick_leaders_follow_the_winners(tmp_path):
    games = explore.belote_games(humans=game_log.read_games(_log_games(tmp_path)))
    first = games.iloc[0]
    assert explore.trick_leaders(first)[:5] == [True, True, False, False, True]
    assert list(games["index"]) == [1, 2] and set(games["opponent"]) == {explore.OUR_HUMANS}


def test_belote_view_steps_through_a_game_beside_the_pool_rates(tmp_path):
    games = explore.belote_games(humans=game_log.read_games(_log_games(tmp_path)))
    view = explore.belote_view(games, explore.OUR_HUMANS, 1, 4)
    facts = dict(zip(view.table.iloc[:, 0], view.table["value"]))
    assert facts["tricks won by the AI after 4"] == "2 of 4"
    assert facts["trick 4 led by"] == "opponent" and facts["trick 4 won by"] == "AI"
    est = stats.wilson_interval(1.0, 2)                      # trick 4: one AI win in two games
    assert facts["AI wins trick 4 in this pool"] == \
        f"{100 * est.value:.1f}% [{100 * est.lo:.1f}, {100 * est.hi:.1f}]"
    with pytest.raises(ValueError, match="trick"):
        explore.belote_view(games, explore.OUR_HUMANS, 1, 17)
    with pytest.raises(ValueError, match="opponent"):
        explore.belote_view(games, "nobody", 1, 1)


def test_belote_games_keeps_the_bot_sweep_deals():
    row = {"opponent": "greedy", "deal": 7, "ai_seat": 1, "ai_led_first": False, "ai_score": 90,
           **{f"trick_{t}": t % 2 for t in range(1, 17)}}
    games = explore.belote_games(pd.DataFrame([row]))
    facts = dict(zip(*explore.belote_view(games, "greedy", 5, 16).table.T.values))
    assert facts["duplicate deal (AI seat)"] == "7 (seat 1)"    # index clamped to the one game
    assert facts["tricks won by the AI after 16"] == "8 of 16"


def test_play_belote_explorer_reads_the_log_and_resizes_the_game_box(tmp_path):
    published = game_log.read_games(_log_games(tmp_path)).iloc[:1]
    box = explore.explore_play_belote(_log_games(tmp_path / "mine"), published)
    assert box.controls["index"].max == 1                    # the paper's games come first
    box.controls["opponent"].value = explore.OUR_HUMANS
    assert box.controls["index"].max == 2
    before = bytes(box.image.value)
    box.controls["trick"].value = 16
    assert bytes(box.image.value) != before


# ------------------------------------------------------------------ history_filtering
def _values():
    rows = []
    for method, burn in (("True", -1.0), ("MCMC", 20.0)):
        for samples, err in ((10, 1.0), (100, 0.2)):
            rows.append({"state": "3-2-5-3-3-0", "histories": 90, "kind": "fig4", "method": method,
                         "burn_in": burn, "samples": samples, "error": err, "se": 0.3, "runs": 5.0})
    rows.append({"state": "3-2-5-3-3-0", "histories": 90, "kind": "cost", "method": "MCMC",
                 "burn_in": 20.0, "samples": 400, "error": np.nan, "se": np.nan, "runs": np.nan})
    return pd.DataFrame(rows)


def test_history_filtering_intervals_are_95_percent_t_intervals():
    est = explore.history_filtering_estimates(_values())
    assert set(est["estimator"]) == {"True", "MCMC b=20"}
    half = st.t.ppf(0.975, 4) * 0.3
    big = est[est["samples"] == 10].iloc[0]
    assert big["hi"] == pytest.approx(1.0 + half) and big["lo"] == pytest.approx(1.0 - half)
    small = est[est["samples"] == 100].iloc[0]
    assert small["lo"] == 0.0                                 # an error is never negative


def test_history_filtering_intervals_of_one_run_are_missing_not_an_error():
    """Regression (2026-11-28): a point of one run has a NaN standard error, and building the
    intervals raised (``stats.t_interval`` refuses a NaN se); its interval is now NaN (no
    band), and the others are unchanged."""
    values = _values()
    values.loc[values["samples"] == 10, ["se", "runs"]] = [np.nan, 1.0]
    est = explore.history_filtering_estimates(values)
    one = est[est["samples"] == 10]
    assert one["lo"].isna().all() and one["hi"].isna().all()
    many = est[est["samples"] == 100].iloc[0]
    assert many["hi"] == pytest.approx(0.2 + st.t.ppf(0.975, 4) * 0.3)


def test_history_filtering_view_shows_the_chosen_estimators():
    view = explore.history_filtering_view(_values(), "3-2-5-3-3-0", ("MCMC b=20",))
    assert list(view.table["estimator"]) == ["MCMC b=20"] and list(view.table["samples"]) == [100]
    assert len(view.figure.axes[0].containers) == 1
    with pytest.raises(ValueError, match="state"):
        explore.history_filtering_view(_values(), "nope", ("True",))
    box = explore.explore_history_filtering(_values())
    before = bytes(box.image.value)
    box.controls["estimators"].value = ("True",)
    assert bytes(box.image.value) != before


# ------------------------------------------------------------------ progressive_hiding
def _trade():
    rng = np.random.default_rng(0)
    return pd.DataFrame([{"game": "trade_comm(num_items=2)", "map": m, "run": r, "iteration": t,
                          "payoff": float(rng.uniform())}
                         for m in ("team", "perfect_recall") for r in range(6) for t in (1, 10)])


def _bridge():
    return pd.DataFrame([{"method": m, "episode": e, "payoff": e * k, "relaxed_payoff": np.nan,
                          "rho": 1.0 if m == "hiding" else np.nan}
                         for m, k in (("hiding", 2.0), ("cfr_team", 1.0)) for e in (1, 2, 3)])


def test_progressive_hiding_curves_are_means_with_t_intervals():
    curves = explore.progressive_hiding_curves(_trade(), _bridge())
    trade = _trade()
    sub = trade[(trade["map"] == "team") & (trade["iteration"] == 10)]["payoff"]
    row = curves[(curves["method"] == "team") & (curves["step"] == 10)].iloc[0]
    est = stats.mean_ci(sub.to_numpy())
    assert (row["mean"], row["lo"], row["hi"], row["n"]) == pytest.approx((est.value, est.lo, est.hi, 6))
    assert row["q10"] == pytest.approx(sub.quantile(0.1))
    assert explore.progressive_hiding_methods(curves, explore.BRIDGE) == ["hiding", "cfr_team"]
    view = explore.progressive_hiding_view(curves, explore.BRIDGE, "hiding")
    best = view.table.set_index("what").loc["best"]
    assert (best["step"], best["payoff"]) == (3, 6.0)


def test_progressive_hiding_widget_switches_the_methods_with_the_experiment():
    box = explore.explore_progressive_hiding(_trade(), _bridge())
    assert list(box.controls["method"].options) == ["team", "perfect_recall"]
    box.controls["experiment"].value = explore.BRIDGE
    assert list(box.controls["method"].options) == ["hiding", "cfr_team"]
    assert "6" in box.readout.value
    with pytest.raises(ValueError, match="method"):
        explore.progressive_hiding_view(explore.progressive_hiding_curves(_trade(), _bridge()),
                                        explore.BRIDGE, "team")


def test_a_single_trade_comm_run_keeps_the_trade_comm_axes():
    """trade_runs = 1 is a valid config: its curve is still Trade Comm's (log iterations, no
    Tiny Bridge reference lines); only the interval band, which one run cannot give, goes."""
    one_run = _trade()[lambda t: t["run"] == 0]
    curves = explore.progressive_hiding_curves(one_run, _bridge())
    experiment = "Trade Comm: trade_comm(num_items=2)"
    ax = explore.progressive_hiding_view(curves, experiment, "team").figure.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert ax.get_xscale() == "log" and ax.get_xlabel().startswith("iteration")
    assert not any("peak" in s or "CAPI" in s or "interval" in s for s in labels), labels
    bridge = explore.progressive_hiding_view(curves, explore.BRIDGE, "hiding").figure.axes[0]
    assert any("peak" in t.get_text() for t in bridge.get_legend().get_texts())


# ------------------------------------------------------------------ quickstart
def test_quickstart_view_and_widget():
    results = pd.DataFrame([{"game": g, "solver": "cfr", "iterations": i, "exploitability": 1 / i}
                            for g in ("kuhn_poker", "leduc_poker") for i in (1, 10, 100)])
    view = explore.quickstart_view(results, "leduc_poker")
    assert list(view.table["exploitability"]) == pytest.approx([1, 0.1, 0.01])
    box = explore.explore_quickstart(results)
    before = bytes(box.image.value)
    box.controls["game"].value = "leduc_poker"
    assert bytes(box.image.value).startswith(PNG) and bytes(box.image.value) != before


def test_an_empty_run_gives_a_note_instead_of_an_explorer():
    import ipywidgets as widgets

    empty = pd.DataFrame()
    boxes = [explore.explore_belief_mixtures(empty, empty), explore.explore_pimcts_aggregation(empty),
             explore.explore_belote_ismcts(empty), explore.explore_quickstart(empty),
             explore.explore_history_filtering(pd.DataFrame(columns=_values().columns)),
             explore.explore_progressive_hiding(pd.DataFrame(columns=_trade().columns),
                                                pd.DataFrame(columns=_bridge().columns))]
    for box in boxes:
        assert isinstance(box, widgets.HTML) and "nothing to explore" in box.value


def test_pimcts_view_ticks_only_the_d_grid():
    rates = _rates()
    rates.loc[rates["agent"] == "ismcts", "D"] = 0          # IS-MCTS has no D
    view = explore.pimcts_aggregation_view(rates, "hearts", 100, ("TotalVisits",))
    assert list(view.figure.axes[0].get_xticks()) == [1, 3, 10]
    assert view.table.set_index("agent").loc["IS-MCTS", "D"] == ""
