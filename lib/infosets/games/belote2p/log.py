"""The human-game log of two-player Belote, in the record the paper analyses.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), section VI, analyses each human game by who led first, who won each of
the 16 tricks, and the AI's score (Figs 5 and 6). One line per finished game::

    <first leader: AI|HUMAN> <16 trick winners, A = AI, H = human> <AI score 0..162>

Lines starting with ``#`` are comments; the header documents the format.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from .rules import NUM_TRICKS, TOTAL_POINTS

HEADER = (
    "# Two-player Belote: human games against the ISMCTS (infosets, paper belote_ismcts).\n"
    "# One game per line: <first leader AI|HUMAN> <16 trick winners, A = AI, H = human> "
    "<AI score 0..162>\n"
)


def format_game(ai_led_first: bool, ai_won_tricks, ai_score: int) -> str:
    """One log line (no newline). Raises ValueError on a malformed record."""
    winners = list(ai_won_tricks)
    if len(winners) != NUM_TRICKS:
        raise ValueError(f"ai_won_tricks must hold {NUM_TRICKS} entries, got {len(winners)}")
    if not 0 <= int(ai_score) <= TOTAL_POINTS:
        raise ValueError(f"ai_score must be in 0..{TOTAL_POINTS}, got {ai_score!r}")
    trail = "".join("A" if w else "H" for w in winners)
    return f"{'AI' if ai_led_first else 'HUMAN'} {trail} {int(ai_score)}"


def append_game(path, ai_led_first: bool, ai_won_tricks, ai_score: int) -> str:
    """Append one finished game to the log at ``path`` (created with its header)."""
    line = format_game(ai_led_first, ai_won_tricks, ai_score)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists() or path.stat().st_size == 0
    with open(path, "a") as fh:
        if new:
            fh.write(HEADER)
        fh.write(line + "\n")
    return line


def parse_line(line: str) -> dict:
    """Parse one game line; ValueError with the reason when malformed."""
    parts = line.split()
    if len(parts) != 3:
        raise ValueError(f"expected 3 fields (leader, tricks, score), got {len(parts)}")
    leader, trail, score = parts
    if leader not in ("AI", "HUMAN"):
        raise ValueError(f"first leader must be AI or HUMAN, got {leader!r}")
    if len(trail) != NUM_TRICKS or set(trail) - {"A", "H"}:
        raise ValueError(f"trick winners must be {NUM_TRICKS} letters A/H, got {trail!r}")
    if not score.isdigit() or not 0 <= int(score) <= TOTAL_POINTS:
        raise ValueError(f"AI score must be an int in 0..{TOTAL_POINTS}, got {score!r}")
    row = {"ai_led_first": leader == "AI", "ai_score": int(score)}
    for i, ch in enumerate(trail, start=1):
        row[f"trick_{i}"] = int(ch == "A")
    return row


def read_games(path) -> pd.DataFrame:
    """Every well-formed game in the log (an empty frame if the file is missing).

    Malformed lines are skipped and counted in ``frame.attrs['skipped']``.
    """
    path = Path(path)
    rows, skipped = [], 0
    if path.exists():
        for line in path.read_text().splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                rows.append(parse_line(line))
            except ValueError:
                skipped += 1
    columns = ["ai_led_first", "ai_score"] + [f"trick_{i}" for i in range(1, NUM_TRICKS + 1)]
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs["skipped"] = skipped
    return frame
