"""TSSR, best-responder utility of a tabulated bot, and seeded win rates.

Follows Arjonilla, Saffidine and Cazenave, "Mixture of public and private beliefs"
(2024, arXiv 2405.14346; docs/papers/belief_mixtures.md), §4.2: the True State Sampling
Ratio of Solinas et al. (2019), the expected utility of an exact best responder to the
policy our bot plays at every infostate of its seat, and win rates against PIMC (played
through ``infosets.arena``; a seat wins with at least half of the points, §4.3).
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyspiel

from infosets import arena, stats

PolicyTable = dict[str, dict[int, float]]


def infostates_of(game: pyspiel.Game, player: int) -> dict[str, pyspiel.State]:
    """Every information state of `player` (string -> one representative state)."""
    if not 0 <= player < game.num_players():
        raise ValueError(f"player must be in [0, {game.num_players() - 1}], got {player}")
    out: dict[str, pyspiel.State] = {}

    def rec(state):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, _ in state.chance_outcomes():
                rec(state.child(a))
            return
        if state.current_player() == player:
            out.setdefault(state.information_state_string(player), state)
        for a in state.legal_actions():
            rec(state.child(a))

    rec(game.new_initial_state())
    return out


def tabulate_policy(game: pyspiel.Game, player: int,
                    policy_fn: Callable[[pyspiel.State], dict[int, float]]) -> PolicyTable:
    """The policy of a bot at EVERY infostate of `player` (policy_fn(state) -> probs)."""
    table = {}
    for key, state in sorted(infostates_of(game, player).items()):
        pol = policy_fn(state)
        total = sum(pol.values())
        if total <= 0:
            raise ValueError(f"policy_fn returned no mass at infostate {key!r}")
        table[key] = {int(a): float(p) / total for a, p in pol.items()}
    return table


def policy_rows(table: PolicyTable) -> list[dict]:
    """A policy table as tidy rows (infostate, action, prob)."""
    return [{"infostate": k, "action": a, "prob": p}
            for k, pol in table.items() for a, p in sorted(pol.items())]


def table_from_rows(rows) -> PolicyTable:
    """Inverse of `policy_rows` (rows: iterable of dicts or a DataFrame)."""
    if hasattr(rows, "to_dict"):
        rows = rows.to_dict("records")
    table: PolicyTable = {}
    for r in rows:
        table.setdefault(r["infostate"], {})[int(r["action"])] = float(r["prob"])
    return table


def best_response_value(game: pyspiel.Game, player: int, table: PolicyTable) -> float:
    """Expected utility of the exact best responder to `player` playing `table`.

    Lower is better for us. Uses OpenSpiel's pyspiel.TabularBestResponse.
    """
    if game.num_players() != 2:
        raise ValueError(f"game must have 2 players, got {game.num_players()}")
    responder = 1 - player
    full = {k: list(v.items()) for k, v in table.items()}
    # The responder's own entries are ignored by the best response; fill them uniformly.
    for key, state in infostates_of(game, responder).items():
        la = state.legal_actions()
        full.setdefault(key, [(a, 1.0 / len(la)) for a in la])
    br = pyspiel.TabularBestResponse(game, responder, full)
    return float(br.value(game.new_initial_state().history_str()))


def tssr(game: pyspiel.Game, player: int, table: PolicyTable) -> float:
    """Reach-weighted average True State Sampling Ratio at the opponent's decisions.

    The opponent j knows our policy; eta(w | s_j) is the posterior of the true world w
    given j's infostate (chance x our reach; j's own actions cancel). TSSR(w) =
    eta(w | s_j) x |worlds consistent with s_j|, so 1 means nothing revealed. Averaged
    over j's decision nodes weighted by their reach under our policy, a uniform opponent
    and chance.
    """
    opp = 1 - player
    groups: dict[str, list[tuple[float, float]]] = {}

    def rec(state, chance_ours, opp_reach):
        if state.is_terminal():
            return
        if state.is_chance_node():
            for a, p in state.chance_outcomes():
                rec(state.child(a), chance_ours * p, opp_reach)
            return
        mover = state.current_player()
        legal = state.legal_actions()
        if mover == opp:
            groups.setdefault(state.information_state_string(opp), []).append(
                (chance_ours, opp_reach))
            for a in legal:
                rec(state.child(a), chance_ours, opp_reach / len(legal))
        else:
            pol = table[state.information_state_string(player)]
            for a in legal:
                rec(state.child(a), chance_ours * pol.get(a, 0.0), opp_reach)

    rec(game.new_initial_state(), 1.0, 1.0)
    num = den = 0.0
    for members in groups.values():
        co = np.array([m[0] for m in members])
        reach = co * np.array([m[1] for m in members])
        if co.sum() <= 0:
            continue
        ratio = co / co.sum() * len(members)
        num += float((reach * ratio).sum())
        den += float(reach.sum())
    return num / den


def seat_outcome(returns, seat: int) -> dict:
    """One two-player game from ``seat``'s side, as the paper scores it: a win when the seat
    has at least half of the points (its return >= the opponent's, so a tie is a win for
    both seats), a draw when the returns are equal (reported in its own column)."""
    mine, theirs = returns[seat], returns[1 - seat]
    return {"win": float(mine >= theirs), "draw": float(mine == theirs), "return": float(mine)}


def outcomes(game: pyspiel.Game, make_bots: Callable[[np.random.SeedSequence], list],
             seat: int, deals, *, entropy: int, label: str) -> list[dict]:
    """Per-game outcomes (``seat_outcome``) of the bot at ``seat`` on duplicate deals.

    Deal i draws its chance outcomes from ``arena.deal_seed(entropy, label, i)``, so every
    λ cell of a (game, seat) replays the same deals and can be compared game by game;
    make_bots(seed_sequence) -> [bot for seat 0, bot for seat 1], built afresh per game.
    """
    if game.num_players() != 2:
        raise ValueError(f"game must have 2 players, got {game.num_players()}")
    rows = []
    for deal in deals:
        chance_seed, _, bots_seed = arena.deal_seed(entropy, label, deal).spawn(3)
        out = arena.play_game(game, make_bots(bots_seed), np.random.default_rng(chance_seed))
        rows.append({"deal": int(deal), **seat_outcome(out["returns"], seat)})
    return rows


def win_rate(game: pyspiel.Game, make_bots: Callable[[np.random.SeedSequence], list],
             seat: int, num_games: int, seed: np.random.SeedSequence) -> dict:
    """Win rate of the bot at `seat` over `num_games` seeded games (the paper's definition:
    at least half of the points; ties win, and are also counted in ``draws``).

    make_bots(seed_sequence) -> [bot for seat 0, bot for seat 1], built afresh per game.
    Returns {"win_rate", "ci_low", "ci_high", "n", "draws"} with a 95% Wilson interval.
    """
    if int(num_games) < 1:
        raise ValueError(f"num_games must be >= 1, got {num_games}")
    rows = outcomes(game, make_bots, seat, range(int(num_games)), entropy=seed.entropy,
                    label=f"win_rate/{game}/{tuple(seed.spawn_key)}")
    est = stats.wilson_interval(sum(r["win"] for r in rows), len(rows))
    return {"win_rate": est.value, "ci_low": est.lo, "ci_high": est.hi, "n": est.n,
            "draws": int(sum(r["draw"] for r in rows))}


def rerun_until_stable(run_fn: Callable[[pyspiel.State], dict[int, float]], state,
                       *, batch: int, tol: float, max_runs: int) -> tuple[dict[int, float], int]:
    """Average an online bot's per-run policy over re-runs until it is stable.

    Runs `batch` more runs at a time and stops when no action's averaged probability moved
    by `tol` or more since the previous batch (the paper: "less than 1% of variation"), or
    after `max_runs` runs. Returns (policy, runs).
    """
    if int(batch) < 1 or int(max_runs) < int(batch):
        raise ValueError(f"batch must be >= 1 and max_runs >= batch, got {batch}, {max_runs}")
    if not 0.0 < float(tol) < 1.0:
        raise ValueError(f"tol must be in (0, 1), got {tol}")
    legal = state.legal_actions()
    total = np.zeros(len(legal))
    runs, prev = 0, None
    while True:
        for _ in range(batch):
            pol = run_fn(state)
            total += [pol.get(a, 0.0) for a in legal]
        runs += batch
        avg = total / total.sum()
        if (prev is not None and np.abs(avg - prev).max() < tol) or runs >= max_runs:
            return dict(zip(legal, avg.tolist())), runs
        prev = avg
