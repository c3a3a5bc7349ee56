"""Claims as data: one typed record per claim of a paper and one renderer for every paper.

Each paper module (belief_mixtures, pimcts_aggregation, belote_ismcts, progressive_hiding,
history_filtering, and the quickstart / play_belote notebooks) builds a list of ``Claim``
records and saves them with ``save``, which writes ``claims.csv`` and ``claims.md``. Every
verdict comes from one vocabulary (``VERDICTS``); nuance goes in ``note``.

One rule for every numeric claim (issue 53): where the paper states a size, the record carries
two verdicts, ``direction`` (a one-sided test, printed with its one-sided 95% ``bound``) and
``size`` (``by_size``: equivalence to the paper's number ``paper_value`` within ``margin``; an
interval that excludes that number while the power at it is >= 0.8 is a mismatch of size), and
``verdict`` is their combination (``overall``). Where the paper gives no number, ``size`` reads
"direction only". A claim read from win-rate cells within 5 points of 0 or 1 (``rates``) says
so in its note (``FLOOR_NOTE``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from infosets import stats

VERDICTS = ("match", "mismatch", "inconclusive", "not run")
DIRECTION_ONLY = "direction only"
SIZE_VERDICTS = (*VERDICTS, DIRECTION_ONLY)
COLUMNS = ("claim", "paper", "ours", "ci95", "n", "test", "margin", "power", "n_for_80_power",
           "verdict", "note", "paper_value", "bound", "direction", "size", "rates")
# The power at the paper's number above which an interval excluding it refutes the size.
SIZE_POWER = 0.8
# Win rates this close to 0 or 1 make a floor / ceiling cell: a claim read from one says so.
FLOOR = 0.05
FLOOR_NOTE = "win rates within 5 points of 0 or 1"


@dataclass(frozen=True)
class Claim:
    """One claim of a paper against our measurement.

    claim: the paper's statement, as tested; paper: the paper's value (text); ours: our value
    (number or text); interval: (lo, hi) of ``ours`` (95% unless ``test`` says otherwise);
    n: games / runs behind ``ours``; test: the test, fixed before the data; margin: the
    equivalence margin of a TOST, in the units of ``ours``; power: the power at the paper's
    effect size; n_for_80_power: games per cell that 80% power needs; verdict: one of
    ``VERDICTS``; note: nuance. For a claim of a stated size: paper_value: the paper's number
    in the units of ``ours``; bound: the one-sided 95% bound of the direction test, on the
    side ``alternative`` ("greater": a lower bound); direction and size: the two verdicts
    (``verdict`` must then be ``overall(direction, size)``); rates: the win rates of the
    cells the claim reads (a note is added when one is within ``FLOOR`` of 0 or 1).
    """

    claim: str
    paper: str
    ours: float | str | None
    verdict: str
    interval: tuple[float, float] | None = None
    n: int | None = None
    test: str = ""
    margin: float | None = None
    power: float | None = None
    n_for_80_power: int | None = None
    note: str = ""
    paper_value: float | None = None
    bound: float | None = None
    alternative: str = "greater"
    direction: str = ""
    size: str = ""
    rates: tuple[float, ...] | None = None

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict: expected one of {list(VERDICTS)}, got {self.verdict!r}")
        if self.interval is not None and len(self.interval) != 2:
            raise ValueError(f"interval: expected (lo, hi), got {self.interval!r}")
        if self.direction not in ("", *VERDICTS):
            raise ValueError(f"direction: expected one of {list(VERDICTS)} or '', got {self.direction!r}")
        if self.size not in ("", *SIZE_VERDICTS):
            raise ValueError(f"size: expected one of {list(SIZE_VERDICTS)} or '', got {self.size!r}")
        if self.alternative not in ("greater", "less"):
            raise ValueError(f"alternative: expected greater or less, got {self.alternative!r}")
        if self.direction and self.size and self.verdict != overall(self.direction, self.size):
            raise ValueError(f"verdict: {self.verdict!r} is not the combination of direction "
                             f"{self.direction!r} and size {self.size!r}")

    def full_note(self) -> str:
        """``note``, with ``FLOOR_NOTE`` added when a rate read is within ``FLOOR`` of 0 or 1."""
        near = [r for r in (self.rates or ()) if min(r, 1 - r) < FLOOR]
        if not near or FLOOR_NOTE in self.note:
            return self.note
        said = f"{FLOOR_NOTE} ({', '.join(f'{r:.3f}' for r in near)}): a floor or ceiling cell"
        return f"{self.note}; {said}" if self.note else said

    def row(self) -> dict:
        """The record as one row of the claims table (numbers formatted to 3 decimals)."""
        return {"claim": self.claim, "paper": self.paper, "ours": _fmt(self.ours),
                "ci95": "" if self.interval is None else
                f"[{_fmt(self.interval[0])}, {_fmt(self.interval[1])}]",
                "n": "" if self.n is None else int(self.n), "test": self.test,
                "margin": "" if self.margin is None else _fmt(self.margin),
                "power": "" if self.power is None or _nan(self.power) else f"{self.power:.2f}",
                "n_for_80_power": "" if self.n_for_80_power is None else
                ("> 10^7" if self.n_for_80_power < 0 else int(self.n_for_80_power)),
                "verdict": self.verdict, "note": self.full_note(),
                "paper_value": "" if self.paper_value is None else _fmt(float(self.paper_value)),
                "bound": "" if self.bound is None else
                f"{'>=' if self.alternative == 'greater' else '<='} {_fmt(float(self.bound))}",
                "direction": self.direction, "size": self.size,
                "rates": "" if not self.rates else "; ".join(f"{float(r):.3f}" for r in self.rates)}


def not_run(claim: str, paper: str, reason: str, **kw) -> Claim:
    """A claim we did not test (the reason goes in the note)."""
    return Claim(claim, paper, None, "not run", note=reason, **kw)


def by_interval(lo: float, hi: float, *, expect: str) -> str:
    """Verdict of an interval against the sign the paper implies.

    ``expect``: "positive" (the paper says above 0), "negative" (below 0). An interval
    excluding 0 on the paper's side matches, on the other side mismatches, else inconclusive."""
    if expect not in ("positive", "negative"):
        raise ValueError(f"expect: expected positive or negative, got {expect!r}")
    if _nan(lo) or _nan(hi):
        return "inconclusive"
    sign = 1 if expect == "positive" else -1
    if (lo > 0 and sign > 0) or (hi < 0 and sign < 0):
        return "match"
    if (lo > 0 and sign < 0) or (hi < 0 and sign > 0):
        return "mismatch"
    return "inconclusive"


def by_size(lo: float, hi: float, target: float | None, *, margin: float,
            power: float | None, equivalence: tuple[float, float] | None = None) -> str:
    """Size verdict of our interval [lo, hi] (95%) against the paper's number ``target``.

    "direction only" when the paper states no number (``target`` None or NaN); mismatch when
    the interval excludes ``target`` while ``power`` (the test's power at ``target``) is at
    least ``SIZE_POWER``, or when it lies wholly beyond ``target`` +- ``margin``; match when
    the equivalence interval (``equivalence``, the 90% interval a TOST at 5% inspects; by
    default [lo, hi]) lies within ``target`` +- ``margin``; else inconclusive."""
    if not margin > 0:
        raise ValueError(f"margin: expected > 0, got {margin!r}")
    if target is None or _nan(target):
        return DIRECTION_ONLY
    if _nan(lo) or _nan(hi):
        return "inconclusive"
    powered = power is not None and not _nan(power) and power >= SIZE_POWER
    if (powered and not lo <= target <= hi) or lo > target + margin or hi < target - margin:
        return "mismatch"
    eq_lo, eq_hi = equivalence if equivalence is not None else (lo, hi)
    if target - margin < eq_lo and eq_hi < target + margin:
        return "match"
    return "inconclusive"


def overall(direction: str, size: str) -> str:
    """The overall verdict of a claim of a stated size from its two verdicts: the direction's
    when the paper gives no number; mismatch when either is; match when both are; else
    inconclusive (a direction that matches with an undecided size is not yet the paper's)."""
    if direction not in VERDICTS:
        raise ValueError(f"direction: expected one of {list(VERDICTS)}, got {direction!r}")
    if size not in SIZE_VERDICTS:
        raise ValueError(f"size: expected one of {list(SIZE_VERDICTS)}, got {size!r}")
    if size == DIRECTION_ONLY:
        return direction
    if "not run" in (direction, size):
        return "not run"
    if "mismatch" in (direction, size):
        return "mismatch"
    return "match" if direction == size == "match" else "inconclusive"


def by_pvalue(p: float, *, alpha: float = 0.05, contrary: bool = False) -> str:
    """Verdict of a test of the paper's claim: match when p <= alpha; mismatch when the
    opposite test (``contrary`` = True passed by the caller) is significant; else inconclusive."""
    if _nan(p):
        return "inconclusive"
    if p <= alpha:
        return "match"
    return "mismatch" if contrary else "inconclusive"


def by_containment(lo: float, hi: float, target: float) -> str:
    """Match when the paper's number lies inside our interval, else mismatch; inconclusive
    when an end of the interval or the paper's number is missing (NaN)."""
    if _nan(lo) or _nan(hi) or _nan(target):
        return "inconclusive"
    return "match" if lo <= target <= hi else "mismatch"


def one_sided_bound(differences: Sequence[float], alternative: str = "greater", *,
                    confidence: float = 0.95,
                    bounds: tuple[float, float] = (-math.inf, math.inf)) -> float:
    """The one-sided ``confidence`` bound of the mean paired difference that a one-sided
    paired t-test inspects, printed in a claim's ``bound`` column (issue 53: a one-sided
    test prints a one-sided bound): for "greater" the lower bound (the lower end of the
    two-sided 2 * confidence - 1 Student-t interval, ``stats.mean_ci``), for "less" the upper
    bound. Differences that are all equal use ``stats.tied_test``'s exact interval within
    ``bounds``. It lives here, beside the rule that prints it, because ``stats`` is in the
    paper tasks' results keys (``store.import_closure``) and this adds nothing a task uses."""
    if alternative not in ("greater", "less"):
        raise ValueError(f"alternative: expected greater or less, got {alternative!r}")
    if not 0.5 < confidence < 1:
        raise ValueError(f"confidence: expected in (0.5, 1) for a one-sided bound, got {confidence!r}")
    arr = np.asarray(differences, dtype=float)
    if arr.size < 2 or not np.all(np.isfinite(arr)):
        raise ValueError(f"differences: need at least 2 finite values, got {arr.size}")
    two_sided = 2 * confidence - 1
    if float(np.ptp(arr)) == 0.0:
        est = stats.tied_test(float(arr[0]), int(arr.size), confidence=two_sided, bounds=bounds)[0]
    else:
        est = stats.mean_ci(arr, confidence=two_sided)
    return est.lo if alternative == "greater" else est.hi


def frame(claims: Iterable[Claim]) -> pd.DataFrame:
    """The claims as a table with ``COLUMNS``."""
    rows = [c.row() for c in claims]
    return pd.DataFrame(rows, columns=list(COLUMNS))


def save(claims: Sequence[Claim], session, name: str = "claims", paper_ref: str = "") -> pd.DataFrame:
    """Write ``<name>.csv`` and ``<name>.md`` through the session and return the table."""
    table = frame(claims)
    session.save_table(table, name, paper_ref=paper_ref)
    return table


def summary(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Verdict counts per paper (for the README's agrees / disagrees table), from the
    claims tables keyed by paper slug."""
    rows = []
    for slug, table in tables.items():
        unknown = set(table["verdict"]) - set(VERDICTS)
        if unknown:
            raise ValueError(f"{slug}: verdicts outside the vocabulary: {sorted(unknown)}")
        counts = table["verdict"].value_counts()
        rows.append({"paper": slug, **{v: int(counts.get(v, 0)) for v in VERDICTS}})
    return pd.DataFrame(rows, columns=["paper", *VERDICTS])


def _nan(x) -> bool:
    """A real NaN: a Python float or a numpy float of any width (float32 included)."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isnan(x)


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return "nan" if math.isnan(x) else f"{x:.3f}"
    return str(x)


