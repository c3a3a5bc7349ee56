"""Play two-player Belote against the paper's ISMCTS in a terminal.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote" (NOTES.md slug
``belote_ismcts``). ``python -m infosets.games.belote2p play [--seat 0|1|random] [--seed N]
[--iterations 500] [--exploration 82] [--log PATH]``. Type a card (``10H``, ``TH``, ``jc``),
``help`` for the playable cards, or ``quit``. Invalid input is answered with one line and
the prompt comes back; end of input quits cleanly. A finished game is appended to the log
(default ``data/belote_ismcts/human_games.log``).
"""

from __future__ import annotations

import argparse
import sys
import time

from infosets.experiments.config import repo_root

from .deal import DealConstraint
from .play import Match, parse_seat
from .rules import card_name

DEFAULT_LOG = "data/belote_ismcts/human_games.log"


def _show(match: Match, out) -> None:
    print("", file=out)
    for line in match.history_lines():
        print(line, file=out)
    for line in match.board_lines():
        print(line, file=out)


def play(match: Match, read=input, out=sys.stdout) -> int:
    """The prompt loop. Returns 0 when the game ends, 1 when the player quits."""
    print(f"You are {match.name(match.human)} in seat {match.human}; "
          f"{match.name(match.state.first_leader)} leads first. Type a card, help or quit.",
          file=out)
    while not match.is_over():
        if not match.human_to_move():
            card = match.ai_step()
            print(f"AI plays {card_name(card)}", file=out)
            continue
        _show(match, out)
        try:
            text = read("Your card: ")
        except (EOFError, KeyboardInterrupt):
            print("\nbye (game abandoned, not logged)", file=out)
            return 1
        command = text.strip().lower()
        if command in ("q", "quit", "exit"):
            print("bye (game abandoned, not logged)", file=out)
            return 1
        if command in ("h", "help", "?", ""):
            print("playable: " + " ".join(card_name(c) for c in match.legal_cards()), file=out)
            continue
        error = match.submit(text)
        if error:
            print(f"invalid: {error}", file=out)
    _show(match, out)
    print(match.result_line(), file=out)
    if match.logged_line:
        print(f"logged to {match.log_path}: {match.logged_line}", file=out)
    return 0


def main(argv=None, read=input, out=sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog="python -m infosets.games.belote2p",
                                     description="Two-player Belote against the ISMCTS.")
    parser.add_argument("command", choices=["play"])
    parser.add_argument("--seat", default="random", help="0, 1 or random")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: clock)")
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--exploration", type=float, default=82.0)
    parser.add_argument("--min-trumps", type=int, default=2)
    parser.add_argument("--log", default=DEFAULT_LOG, help="log file ('' for none)")
    args = parser.parse_args(argv)
    try:
        seat = parse_seat(args.seat)
        seed = args.seed if args.seed is not None else time.time_ns() % 2**32
        log = (repo_root() / args.log) if args.log else None
        match = Match(seed, "random" if seat is None else seat, args.iterations,
                      args.exploration, log, DealConstraint(min_trumps=args.min_trumps))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"deal seed {seed}", file=out)
    return play(match, read, out)


if __name__ == "__main__":
    sys.exit(main())
