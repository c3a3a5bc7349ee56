"""Play two-player Belote against the paper's ISMCTS in a terminal.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md). ``python -m infosets.play.belote [--seat 0|1|random]
[--seed N] [--iterations 500] [--exploration 82] [--log PATH]``, or ``make play-belote
SEED=N SEAT=0``. Type a card (``10H``, ``TH``, ``jc``), ``help`` for the playable cards and
the legend, or ``quit``. Invalid input is answered with one line and the prompt comes back.

Leaving is never an error: ``quit``, end of input and Ctrl-C (at the prompt, while the AI
thinks, or during start-up) print one line and exit 0. Under ``make`` the game takes the
terminal's foreground for its own process group, so Ctrl-C reaches the game and not make,
and make does not report an interrupted recipe. A finished game is appended to the user log
(default ``data/belote_ismcts/human_games.log``, ignored by git); an abandoned one is not.

Only the standard library is imported at module level, so that Ctrl-C while numpy, pyspiel
and the search load is caught like any other.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time

from infosets.play.belote_settings import MAX_ITERATIONS, check_settings, parse_seat

DEFAULT_LOG = "data/belote_ismcts/human_games.log"
BYE = "bye (game abandoned, not logged)"


class GameAbandoned(BaseException):
    """Ctrl-C during a game. Deliberately not a KeyboardInterrupt: CPython 3.11 remembers a
    KeyboardInterrupt that crossed an embedded ``PyRun_*`` call (as happens when Ctrl-C lands
    while a compiled module loads) as *unhandled* even after we catch it, and at exit kills
    itself with SIGINT; ``make`` then reports "Interrupt" although the game said bye."""


_CTRL_C = {"seen": False}  # set by the handler: code that swallowed the exception can't hide it


def _abandon(signum, frame):
    _CTRL_C["seen"] = True
    raise GameAbandoned


def _raise_if_ctrl_c_was_swallowed() -> None:
    """Ctrl-C while an optional compiled module loads becomes an ImportError caused by
    ``GameAbandoned`` (pybind11, CPython), and a library's ``except ImportError`` around that
    import swallows it: the game would start as if no key had been pressed."""
    if _CTRL_C["seen"]:
        raise GameAbandoned


@contextlib.contextmanager
def ctrl_c_abandons():
    """Within the block, Ctrl-C raises ``GameAbandoned`` (main thread only; else unchanged)."""
    try:
        previous = signal.signal(signal.SIGINT, _abandon)
    except ValueError:  # not the main thread: signals cannot be handled here
        yield
        return
    _CTRL_C["seen"] = False
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _while_listening(step):
    """``step()`` run in a worker thread while this thread waits in short slices, so Ctrl-C is
    handled at once even while the AI thinks: the compiled search releases the GIL
    (``search.compiled``, ``nogil``), and a signal handler runs only in the main thread between
    bytecodes. The worker is a daemon: a game abandoned mid-search does not wait for it."""
    box: dict = {}

    def run():
        try:
            box["value"] = step()
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=run, name="belote-ai", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _show(match, out) -> None:
    print("", file=out)
    for line in match.history_lines():
        print(line, file=out)
    for line in match.board_lines():
        print(line, file=out)


def _help(match, out) -> None:
    from infosets.games.belote2p.rules import card_name
    from infosets.play.belote_match import LEGEND_LINES, TRUMP_LINE

    print("playable: " + " ".join(card_name(c) for c in match.legal_cards()), file=out)
    for line in (TRUMP_LINE, *LEGEND_LINES):
        print(line, file=out)


def play(match, read=input, out=sys.stdout) -> int:
    """The prompt loop. Returns 0 whether the game ends or the player leaves (quit, end of
    input, Ctrl-C at the prompt or while the AI thinks)."""
    from infosets.games.belote2p.rules import card_name
    from infosets.play.belote_match import LEGEND_LINES, TRUMP_LINE

    print(f"You are {match.name(match.human)} in seat {match.human}; "
          f"{match.name(match.state.first_leader)} leads first. Type a card, help or quit.",
          file=out)
    for line in (TRUMP_LINE, *LEGEND_LINES):
        print(line, file=out)
    try:
        while not match.is_over():
            if not match.human_to_move():
                card = _while_listening(match.ai_step)
                print(f"AI plays {card_name(card)}", file=out)
                continue
            _show(match, out)
            try:
                text = read("Your card: ")
            except EOFError:
                print(f"\n{BYE}", file=out)
                return 0
            except UnicodeDecodeError:  # bytes the terminal's encoding cannot read
                print("invalid: unreadable characters; type a card such as 10H", file=out)
                continue
            command = text.strip().lower()
            if command in ("q", "quit", "exit"):
                print(BYE, file=out)
                return 0
            if command in ("h", "help", "?", ""):
                _help(match, out)
                continue
            error = match.submit(text)
            if error:
                print(f"invalid: {error}", file=out)
    except (KeyboardInterrupt, GameAbandoned):
        print(f"\n{BYE}", file=out)
        return 0
    _show(match, out)
    print(match.result_line(), file=out)
    if match.logged_line:
        print(f"logged to {match.log_path}: {match.logged_line}", file=out)
    if match.log_error:
        print(match.log_error, file=out)
    return 0


@contextlib.contextmanager
def terminal_foreground(stream=None):
    """Make this process's group the terminal's foreground group while the game runs.

    Under ``make`` (or any parent in the same process group), Ctrl-C is sent to the whole
    foreground group: make would report "Interrupt" and die by SIGINT whatever the game
    does. In its own foreground group only the game gets Ctrl-C. Nothing is changed when
    ``stream`` is not a terminal, when this process already leads its group (a shell with
    job control started it), or when its group is not in the foreground. Ctrl-Z is ignored
    meanwhile: it would stop the game alone, with make waiting on it and the terminal held.
    The previous foreground group is restored on the way out.
    """
    stream = sys.stdin if stream is None else stream
    try:
        fd = stream.fileno()
        if not os.isatty(fd) or os.getpgrp() == os.getpid() or os.tcgetpgrp(fd) != os.getpgrp():
            fd = None
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is None:
        yield False
        return
    previous = os.getpgrp()
    os.setpgid(0, 0)
    _set_foreground(fd, os.getpgrp())
    # Ctrl-Z would stop only this group, and the parent (make) waits for it for ever with
    # the terminal held: ignored while the game holds the terminal (Ctrl-C or quit leave)
    old_tstp = signal.signal(signal.SIGTSTP, signal.SIG_IGN)
    try:
        yield True
    finally:
        signal.signal(signal.SIGTSTP, old_tstp)
        with contextlib.suppress(OSError):
            _set_foreground(fd, previous)


def _set_foreground(fd: int, group: int) -> None:
    # tcsetpgrp from a background group raises SIGTTOU, which would stop us: ignore it.
    old = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    try:
        os.tcsetpgrp(fd, group)
    finally:
        signal.signal(signal.SIGTTOU, old)


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        """One line naming the bad option (argparse's default prints the usage block first)."""
        self.exit(2, f"error: {message} (--help lists the options)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m infosets.play.belote",
                     description="Two-player Belote against the ISMCTS.")
    parser.add_argument("--seat", default="random", help="0, 1 or random")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: clock)")
    parser.add_argument("--iterations", type=int, default=500,
                        help=f"the AI's ISMCTS iterations per move, 1..{MAX_ITERATIONS} (paper: 500)")
    parser.add_argument("--exploration", type=float, default=82.0,
                        help="the AI's UCB constant, >= 0 (paper: 82)")
    parser.add_argument("--min-trumps", type=int, default=2)
    parser.add_argument("--log", default=DEFAULT_LOG,
                        help="log of finished games, relative to the repository root ('' for none)")
    return parser


def _check_args(args) -> None:
    """ValueError naming the first bad argument, before the game and the AI load (the deal
    constraint's module imports the game package: about a second)."""
    from infosets.games.belote2p.deal import DealConstraint

    parse_seat(args.seat)
    check_settings(args.seed, args.iterations, args.exploration)
    DealConstraint(min_trumps=args.min_trumps)


def _start(args, out):
    """Loads the game and the AI (the slow part of start-up) and deals. ValueError on a bad
    argument."""
    from infosets.experiments.config import repo_root
    from infosets.games.belote2p.deal import DealConstraint
    from infosets.play.belote_match import Match

    seat = parse_seat(args.seat)
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    log = (repo_root() / args.log) if args.log else None
    match = Match(seed, "random" if seat is None else seat, args.iterations,
                  args.exploration, log, DealConstraint(min_trumps=args.min_trumps))
    print(f"deal seed {seed} (replay it with --seed {seed}, or make play-belote SEED={seed})",
          file=out)
    return match


def main(argv=None, read=input, out=sys.stdout) -> int:
    """Exit status: 0 when the game ends or the player leaves, 2 on a bad argument."""
    args = _parser().parse_args(argv)
    try:
        _check_args(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        with ctrl_c_abandons(), terminal_foreground():
            print("loading the game and the AI (Ctrl-C leaves) ...", file=out, flush=True)
            try:
                match = _start(args, out)
            except ValueError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            _raise_if_ctrl_c_was_swallowed()
            return play(match, read, out)
    except (KeyboardInterrupt, GameAbandoned):  # during start-up
        print(f"\n{BYE}", file=out)
        return 0
    except ImportError as exc:  # Ctrl-C inside a compiled module's init (pybind11 wraps it)
        if not _caused_by_ctrl_c(exc):
            raise
        print(f"\n{BYE}", file=out)
        return 0


def _caused_by_ctrl_c(exc: BaseException | None) -> bool:
    while exc is not None:
        if isinstance(exc, (KeyboardInterrupt, GameAbandoned)):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


if __name__ == "__main__":
    sys.exit(main())
