"""The looks of the ``tag`` rerun's staged design (issue 56): the games a cell holds at each
look, each claim's one-sided z and the O'Brien-Fleming-type boundary it is read against.

Ravichandran, Goodman and Lucas, "Evaluation of Perfect-Information Monte Carlo Tree Search in
Imperfect-Information Games" (docs/papers/pimcts_aggregation.md) report one sample size per
game; the staged design is ours (docs/tag_agents.md section 10): each game's cells grow from
``FIRST_STAGE`` games a cell to the caps the open claims need, and a claim is decided at a look
only if its z crosses that look's boundary (``infosets.sequential``); a claim still open at its
last look is read against the last boundary. ``pimcts_stages`` plans the stages from these
looks; ``last_looks`` reads a finished run's claims against them, for the claims table. The
looks taken after stage 1 are recorded, per game and cell, in ``pimcts_tag_looks.csv``
(``recorded_looks``): each look's caps as the preset set them.

Reconstruction: a claim carries its estimate and 95% interval, not its statistic; z is rebuilt
as (estimate - null) / se with se = interval width / (2 t_{0.975, n-1}), the null 0 (the
non-inferiority claims': -margin), its sign by the claim's side. An equivalence claim (its
interval a 90% one) reads z = (margin - |estimate|) / se. A claim with no interval has no look.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from scipy import stats as sps

from infosets.claims import Claim
from infosets.papers import pimcts_claims
from infosets.sequential import boundaries

FIRST_STAGE = 60      # games a cell at stage 1 (notebooks/params/pimcts_aggregation.tag.yaml)
GROWTH = 2            # each stage doubles the games of the last
ALPHA = 0.05
CEILING_HOURS = 80.0  # issue 56: the whole rerun on this machine, in CPU-hours
LAST_LOOK = 3         # the design's last look (docs/tag_agents.md, "A third look")
IS_VS_BEST = "IS-MCTS matches or beats the best PI-MCTS"  # the claim's text ends so
LOOKS_PATH = Path(__file__).with_name("pimcts_tag_looks.csv")


def stage_sizes(cap: int, first: int = FIRST_STAGE, growth: int = GROWTH) -> list[int]:
    """The games a cell holds at each look up to ``cap``: first, first x growth, ..., cap."""
    if cap < first:
        raise ValueError(f"cap: expected at least {first} games a cell, got {cap}")
    sizes = [first]
    while sizes[-1] * growth < cap:
        sizes.append(sizes[-1] * growth)
    if sizes[-1] != cap:
        sizes.append(cap)
    return sizes


def recorded_looks(path: Path = LOOKS_PATH) -> pd.DataFrame:
    """The looks taken after stage 1 (columns look, game, cell, games): at each look, the games
    each cell that grew was to hold, as the preset's ``games_per_cell_by_cell`` set them."""
    return pd.read_csv(path, comment="#")


def latest_look(record: pd.DataFrame) -> int:
    """The number of the last look taken in ``record`` (``recorded_looks``): 1 when only stage
    1 has been read; ``LAST_LOOK`` or more means the design has no look left."""
    return int(record["look"].max()) if len(record) else 1


def taken_sizes(game: str, cells, record: pd.DataFrame | None, first: int = FIRST_STAGE) -> list[int]:
    """The games a claim reading ``cells`` of ``game`` held at each look of ``record``
    (``recorded_looks``; None: no look after stage 1): ``first``, then at each recorded look the
    fewest games of its cells (a cell the look does not list keeps what it held). A look that
    grew none of the claim's cells is no look of the claim's."""
    held = {cell: first for cell in cells}
    sizes = [first]
    if record is None:
        return sizes
    mine = record[record["game"] == game]
    for _, look in mine.groupby("look", sort=True):
        for cell, games in zip(look["cell"], look["games"]):
            if cell in held:
                held[cell] = max(held[cell], int(games))
        if min(held.values()) > sizes[-1]:
            sizes.append(min(held.values()))
    return sizes


def look_sizes(n_now: int, cap: int, chosen_on: int = 0, first: int = FIRST_STAGE,
               taken: list[int] | None = None) -> list[int]:
    """The games a cell holds at each look of a claim whose cells hold ``n_now``: the looks
    taken (``taken``, from ``taken_sizes``; by default stage 1's ``first`` alone), those whose
    games are in, then ``n_now`` if it is past them (a stage being played, or one no record
    names), then the looks to come up to ``cap``: ``stage_sizes``' doublings from stage 1, as
    the design was fixed; after stage 1 the cap itself, since every later stage went straight
    to its caps. Only the looks past ``chosen_on`` count, as a look needs games its claim tests
    on: the IS-MCTS claim's best cell is chosen on the even deals every cell played, which are
    more than stage 1 held once every cell of its game grew."""
    done = [x for x in (taken or [first]) if x <= n_now] or [n_now]
    if n_now > done[-1]:
        done.append(n_now)
    if n_now <= first:
        to_come = [x for x in stage_sizes(max(cap, n_now, first), first) if x > n_now]
    else:
        to_come = [cap] if cap > n_now else []
    return [x for x in done + to_come if x > chosen_on]


def crossing(z: float, bound: float) -> tuple[bool, bool]:
    """(decided, against) of a look: z at or above its boundary, or at or below minus it (the
    non-binding futility stop); neither for a NaN z or boundary."""
    return bool(z >= bound), bool(z <= -bound)


def claim_z(claim: Claim) -> float:
    """The claim's one-sided z (module docstring), NaN without an interval or a number."""
    if claim.interval is None or not isinstance(claim.ours, (int, float)) or not claim.n or claim.n < 2:
        return float("nan")
    lo, hi = claim.interval
    equivalence = "TOST" in claim.test
    quantile = sps.t.ppf(0.95 if equivalence else 0.975, claim.n - 1)
    se = (hi - lo) / (2 * quantile)
    if se <= 0:
        return float("nan")
    if equivalence:
        return (claim.margin - abs(claim.ours)) / se
    null = -claim.margin if "matches or beats" in claim.claim and claim.margin else 0.0
    sign = -1.0 if claim.alternative == "less" else 1.0
    return sign * (claim.ours - null) / se


def claim_cells(claim: Claim, table: pd.DataFrame) -> tuple[str, ...]:
    """The cells of its game's ``table`` (``pimcts_claims.paired_scores``) whose games decide
    ``claim``: IS-MCTS and the best PI-MCTS cell for "IS-MCTS matches or beats the best
    PI-MCTS" (``pimcts_claims.best_pi_cell``); for the others every cell, IS-MCTS only where the
    claim names it: they test over all D > 1 cells and the control (Holm, or their mean) or, for
    Poker's D-range readings, over several of them (counted here at every cell: an overestimate
    of their cost)."""
    if claim.claim.endswith(IS_VS_BEST):
        return ("IS-MCTS", pimcts_claims.best_pi_cell(table))
    return tuple(c for c in table.columns if c != "IS-MCTS" or "IS-MCTS" in claim.claim)


def per_game_claims(claims: list[Claim], results: pd.DataFrame):
    """(claim, (game, budget), its ``pimcts_claims.paired_scores`` table) for each per-game
    claim ("<game>, B=<budget>: ...") whose game has rows at that budget; the cross-game
    claims have no look."""
    tables = {}
    for claim in claims:
        per_game = re.match(r"(.+), B=(\d+):", claim.claim)
        if per_game is None:
            continue
        key = (per_game[1], int(per_game[2]))
        if key not in tables:
            tables[key] = pimcts_claims.paired_scores(results, *key)
        if not tables[key].empty:
            yield claim, key, tables[key]


def last_looks(claims: list[Claim], results: pd.DataFrame, staged: dict[str, int],
               record: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each per-game claim of a staged run read at its last look: one row per claim at a
    staged (game, budget) (``staged``: game -> the budget its stages grew, its Fig. 1 budget;
    the other budgets were played at one size, one look), with the games its cells hold
    (the fewest of ``claim_cells``), the games its best PI-MCTS cell was chosen on (IS-MCTS
    claim), the looks taken (``look_sizes`` at that size: 60, then each look of ``record``
    that grew its cells, ``taken_sizes``, and the size now if past them; those past the
    selection), the rebuilt z (``claim_z``), the boundary of the last
    look, whether z reaches it, and whether it falls to minus it (``against``: decided against,
    the planner's non-binding futility stop). A "match" whose z falls short is open under the design: the
    fixed-sample test behind the verdict spends its whole 5% at the last look, the design some
    of it at the first. A row with no interval (no z), or no game past its selection yet (no
    boundary), says so by a NaN."""
    rows = []
    for claim, (game, budget), table in per_game_claims(claims, results):
        cells = claim_cells(claim, table)
        n_now = min(int(table[c].notna().sum()) for c in cells)
        chosen_on = (len(pimcts_claims.selection_deals(table))
                     if claim.claim.endswith(IS_VS_BEST) else 0)
        if staged.get(game) == budget and n_now >= FIRST_STAGE:
            sizes = look_sizes(n_now, n_now, chosen_on, taken=taken_sizes(game, cells, record))
        else:
            sizes = [n_now] if n_now > chosen_on else []
        bound = float("nan")  # no look: no game past the selection yet (a run in progress)
        if sizes:
            fractions = [(x - chosen_on) / (sizes[-1] - chosen_on) for x in sizes]
            bound = float(boundaries(fractions, ALPHA)[-1])
        z = claim_z(claim)
        reaches, against = crossing(z, bound) if z == z and bound == bound else (None, None)
        rows.append({"claim": claim.claim, "verdict": claim.verdict, "games_per_cell": n_now,
                     "chosen_on": chosen_on, "looks": ", ".join(map(str, sizes)),
                     "z": round(z, 2), "last_boundary": round(bound, 3),
                     "reaches_it": reaches, "against": against})
    return pd.DataFrame(rows, columns=["claim", "verdict", "games_per_cell", "chosen_on", "looks",
                                       "z", "last_boundary", "reaches_it", "against"])
