"""Claims as data: one typed record per claim of a paper and one renderer for every paper.

Each paper module (belief_mixtures, pimcts_aggregation, belote_ismcts, progressive_hiding,
history_filtering, and the quickstart / play_belote notebooks) builds a list of ``Claim``
records and saves them with ``save``, which writes ``claims.csv`` and ``claims.md``. Every
verdict comes from one vocabulary (``VERDICTS``); nuance goes in ``note``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

VERDICTS = ("match", "mismatch", "inconclusive", "not run")
COLUMNS = ("claim", "paper", "ours", "ci95", "n", "test", "margin", "power", "n_for_80_power",
           "verdict", "note")


@dataclass(frozen=True)
class Claim:
    """One claim of a paper against our measurement.

    claim: the paper's statement, as tested; paper: the paper's value (text); ours: our value
    (number or text); interval: (lo, hi) of ``ours`` (95% unless ``test`` says otherwise);
    n: games / runs behind ``ours``; test: the test, fixed before the data; margin: the
    equivalence margin of a TOST, in the units of ``ours``; power: the power at the paper's
    effect size; n_for_80_power: games per cell that 80% power needs; verdict: one of
    ``VERDICTS``; note: nuance.
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

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict: expected one of {list(VERDICTS)}, got {self.verdict!r}")
        if self.interval is not None and len(self.interval) != 2:
            raise ValueError(f"interval: expected (lo, hi), got {self.interval!r}")

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
                "verdict": self.verdict, "note": self.note}


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


