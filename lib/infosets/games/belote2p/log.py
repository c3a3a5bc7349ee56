"""Game logs of two-player Belote in the record format of the paper's human games.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), section VI, analyses each game against a human by who led
first, who won each of the 16 tricks, and the AI's score (Figs 5 and 6). The author's published logs
(``data/belote_human_logs/``) hold one game per line::

    RUN;POINTS

``RUN`` is 17 letters: the first trick's leader, then the winners of tricks 1..16 (``A``
the AI, ``B`` the human; a trick's winner leads the next). ``POINTS`` is the AI's final score
out of 162 (card points plus 10 for the last trick). Our own games (``make play-belote``, the
``play_belote`` notebook) are appended in the same format, so they can be read and compared
with the published ones by the same code. Lines starting with ``#`` are comments; CRLF line
ends (four of the published files have them) are accepted.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from infosets.core.files import atomic_write_bytes

from .rules import NUM_TRICKS, TOTAL_POINTS

HEADER = (
    "# Two-player Belote games against the ISMCTS AI, one per line: RUN;POINTS\n"
    "# RUN = first leader + winners of tricks 1..16 (A = AI, B = human); POINTS = AI score\n"
)
AI, HUMAN = "A", "B"
TRICK_COLUMNS = [f"trick_{i}" for i in range(1, NUM_TRICKS + 1)]
COLUMNS = ["ai_led_first", "ai_score"] + TRICK_COLUMNS


def format_game(ai_led_first: bool, ai_won_tricks, ai_score: int) -> str:
    """One log line (no newline). Raises ValueError on a malformed record."""
    winners = list(ai_won_tricks)
    if len(winners) != NUM_TRICKS:
        raise ValueError(f"ai_won_tricks must hold {NUM_TRICKS} entries, got {len(winners)}")
    if not 0 <= int(ai_score) <= TOTAL_POINTS:
        raise ValueError(f"ai_score must be in 0..{TOTAL_POINTS}, got {ai_score!r}")
    run = (AI if ai_led_first else HUMAN) + "".join(AI if w else HUMAN for w in winners)
    return f"{run};{int(ai_score)}"


def append_game(path, ai_led_first: bool, ai_won_tricks, ai_score: int) -> str:
    """Append one finished game to the log at ``path`` (created with its header).

    The file is rewritten atomically, so a reader (or a crash mid-write) sees the log with or
    without the new game, never half a line; a last line that lacks its newline (a file
    edited by hand) is ended first, so the new game is never glued onto it. The file keeps
    its permissions."""
    line = format_game(ai_led_first, ai_won_tricks, ai_score)
    path = Path(path)
    old = path.read_bytes() if path.exists() else b""
    end = b"\r\n" if b"\r\n" in old else b"\n"  # the file's own line ends (CRLF or LF)
    if not old:
        old = HEADER.encode()
    elif not old.endswith(b"\n"):
        old += end
    mode = path.stat().st_mode & 0o777 if path.exists() else None
    atomic_write_bytes(path, old + line.encode() + end, mode)
    return line


def parse_line(line: str) -> dict:
    """Parse one ``RUN;POINTS`` line; ValueError with the reason when malformed."""
    fields = line.strip().split(";")
    if len(fields) != 2:
        raise ValueError(f"expected RUN;POINTS, got {line.strip()!r}")
    run, score = fields
    if len(run) != NUM_TRICKS + 1 or set(run) - {AI, HUMAN}:
        raise ValueError(f"RUN must be {NUM_TRICKS + 1} letters A/B, got {run!r}")
    if not score.isdigit() or not 0 <= int(score) <= TOTAL_POINTS:
        raise ValueError(f"POINTS must be an int in 0..{TOTAL_POINTS}, got {score!r}")
    row = {"ai_led_first": run[0] == AI, "ai_score": int(score)}
    for i, ch in enumerate(run[1:], start=1):
        row[f"trick_{i}"] = int(ch == AI)
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
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.attrs["skipped"] = skipped
    return frame


def read_folder(folder) -> pd.DataFrame:
    """Every game of every ``*.txt`` log in ``folder`` (sorted by file name), with a ``source``
    column; ValueError naming the file and line of any malformed record."""
    frames = []
    for path in sorted(Path(folder).glob("*.txt")):
        games = read_games(path)
        if games.attrs["skipped"]:
            raise ValueError(f"{path}: {games.attrs['skipped']} malformed line(s)")
        frames.append(games.assign(source=path.name))
    if not frames:
        raise FileNotFoundError(f"no *.txt game logs in {folder}")
    return pd.concat(frames, ignore_index=True)
