"""Quickstart: a tiny real sweep through the spine (CFR / CFR+ exploitability on poker).

Not one of the five papers: it is the example notebook that exercises the runner, the
store and the plot style end to end, and the workload of the runner benchmark. Zinkevich et
al. (2007) CFR and Tammelin (2014) CFR+, run with OpenSpiel's C++ solvers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyspiel

from infosets import arena, plots
from infosets.claims import Claim, not_run
from infosets.claims import save as save_claims
from infosets.experiments.config import Param, Schema
from infosets.experiments.tasks import Task

KUHN_VALUE = -1 / 18  # the first player's value of two-player Kuhn poker


def cfr_game(game_string: str) -> str | None:
    """Why CFR and exploitability cannot run on ``game_string`` (they need a two-player
    zero-sum sequential game), or None."""
    game = pyspiel.load_game(game_string)
    kind = game.get_type()
    if (game.num_players() != 2 or kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL
            or kind.utility not in (pyspiel.GameType.Utility.ZERO_SUM,
                                    pyspiel.GameType.Utility.CONSTANT_SUM)):
        return (f"{game_string!r} is not a two-player zero-sum sequential game "
                f"({game.num_players()} players, {kind.utility.name}, {kind.dynamics.name})")
    return None


def _derive(values: dict) -> dict:
    return {"n_tasks": len(values["games"]) * len(values["solvers"]) * len(values["iterations"])}


SCHEMA = Schema(
    params={
        "games": Param(list, item=str, game=True, min_len=1, accept=cfr_game,
                       doc="two-player zero-sum games"),
        "solvers": Param(list, item=str, choices=["cfr", "cfr_plus"], min_len=1),
        "iterations": Param(list, item=int, lo=1, hi=100_000, min_len=1),
        "eval_games": Param(int, lo=0, hi=1_000_000,
                            doc="seeded self-play games to estimate the value by sampling"),
    },
    derive=_derive,
)


def exploitability_task(cfg: dict, params: dict, seed) -> dict:
    """Exploitability and first-player value after ``iterations`` of a C++ CFR solver."""
    game = pyspiel.load_game(params["game"])
    solver = (pyspiel.CFRPlusSolver if params["solver"] == "cfr_plus" else pyspiel.CFRSolver)(game)
    for _ in range(params["iterations"]):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)[0]
    rng = np.random.default_rng(seed)
    sampled = [self_play_return(game, policy, rng) for _ in range(cfg["eval_games"])]
    return {"exploitability": pyspiel.exploitability(game, policy), "value_p0": value,
            "sampled_value_p0": float(np.mean(sampled)) if sampled else float("nan"),
            "eval_games": len(sampled)}


class PolicySampler(pyspiel.Bot):
    """Samples its move from a tabular policy (OpenSpiel ``get_state_policy``)."""

    def __init__(self, policy, rng: np.random.Generator):
        pyspiel.Bot.__init__(self)
        self.policy, self.rng = policy, rng

    def step(self, state):
        actions, probs = zip(*self.policy.get_state_policy(state))
        return int(self.rng.choice(actions, p=np.asarray(probs) / np.sum(probs)))

    def restart_at(self, state):
        pass


def self_play_return(game, policy, rng: np.random.Generator) -> float:
    """Player 0's return in one game where every seat samples from ``policy`` (played
    through ``infosets.arena``; chance and the seats draw from ``rng``)."""
    bots = [PolicySampler(policy, rng) for _ in range(game.num_players())]
    return arena.play_game(game, bots, rng)["returns"][0]


def tasks(cfg) -> list[Task]:
    return [Task(exploitability_task, {"game": g, "solver": s, "iterations": n})
            for g in cfg.games for s in cfg.solvers for n in cfg.iterations]


def plot(results: pd.DataFrame, session):
    import matplotlib.pyplot as plt

    games = list(dict.fromkeys(results["game"]))
    fig, axes = plt.subplots(1, len(games), figsize=(4.2 * len(games), 3.4), squeeze=False)
    for ax, game in zip(axes[0], games):
        sub = results[results["game"] == game]
        plots.lines_ci(ax, sub, "iterations", "exploitability", hue="solver", logx=True,
                       xlabel="solver iterations (count)",
                       ylabel="exploitability (utility units, exact)")
        ax.set_yscale("log")
        ax.set_title(game)
    fig.tight_layout()
    session.save_figure(fig, "exploitability_vs_iterations")
    return fig


def claims(results: pd.DataFrame, session) -> pd.DataFrame:
    """The solvers' textbook facts as ``Claim`` records, saved as ``claims``."""
    rows: list[Claim] = []
    kuhn = results[results["game"] == "kuhn_poker"]
    if len(kuhn):
        best = kuhn.sort_values("exploitability").iloc[0]
        # OpenSpiel's exploitability is NashConv / 2 here; the profile's value and the game's
        # both lie between the two best-response values, which are NashConv apart
        nash_conv = 2 * best.exploitability
        ok = abs(best.value_p0 - KUHN_VALUE) <= max(nash_conv, 1e-3)
        rows.append(Claim("Kuhn poker value for player 0", f"{KUHN_VALUE:.5f}", float(best.value_p0),
                          "match" if ok else "mismatch", test="deterministic",
                          note=f"NashConv {nash_conv:.2e} (twice the exploitability) bounds the "
                               "error"))
    for (game, solver), sub in results.groupby(["game", "solver"], sort=False):
        sub = sub.sort_values("iterations")
        claim = f"{solver} exploitability falls with iterations on {game}"
        if sub["iterations"].nunique() < 2:
            rows.append(not_run(claim, "monotone decrease (CFR+)", "one iteration count: no trend"))
            continue
        drop = bool(np.all(np.diff(sub["exploitability"].to_numpy()) <= 1e-12))
        rows.append(Claim(claim, "monotone decrease (CFR+)",
                          f"{sub.exploitability.iloc[0]:.3g} -> {sub.exploitability.iloc[-1]:.3g}",
                          "match" if drop else "mismatch", test="deterministic"))
    return save_claims(rows, session)
