"""Playing Belote against the AI: the terminal prompt, the widget, the log, bad input."""

import io
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from infosets.games.belote2p import log as game_log
from infosets.games.belote2p.rules import card_name
from infosets.play import belote as belote_cli
from infosets.play.belote import main, play
from infosets.play.belote_match import Match, parse_seat
from infosets.play.belote_widget import BeloteBoard

ROOT = Path(__file__).resolve().parents[2]


def _scripted(lines):
    """A fake ``input`` that answers from ``lines``, then from the match's first legal card."""
    queue = list(lines)
    state = {}

    def read(prompt=""):
        if queue:
            return queue.pop(0)
        match = state["match"]
        return card_name(match.legal_cards()[0])

    return read, state


def _illegal_but_known(match):
    """A card that exists but cannot be played now."""
    legal = set(match.legal_cards())
    return next(card_name(c) for c in range(32) if c not in legal)


def test_terminal_reprompts_on_bad_input_and_finishes(tmp_path):
    log = tmp_path / "games.log"
    match = Match(5, human_seat=0, iterations=20, log_path=log)
    match.run_ai()
    bad_card = _illegal_but_known(match)
    read, state = _scripted(["zz", "11H", "", "help", bad_card, "7 X", "  "])
    state["match"] = match
    out = io.StringIO()
    assert play(match, read, out) == 0
    text = out.getvalue()
    assert text.count("invalid:") == 4  # zz, 11H, the illegal card, 7 X
    assert "is unknown" in text and "cannot be played now" in text
    assert "playable:" in text and "game over" in text
    games = game_log.read_games(log)
    assert len(games) == 1
    assert games.loc[0, "ai_score"] == match.score()[1]
    assert games.loc[0, "ai_led_first"] == (match.state.first_leader == 1)
    assert games.loc[0, [f"trick_{i}" for i in range(1, 17)]].sum() == sum(
        1 for _, _, _, w in match.state.plays if w == 1)


def test_undecodable_input_reprompts(tmp_path):
    """Under a strict UTF-8 locale a stray byte raised UnicodeDecodeError out of input()."""
    match = Match(5, human_seat=0, iterations=20)
    match.run_ai()
    read, state = _scripted([])
    state["match"] = match
    calls = {"n": 0}

    def read_bad_once(prompt=""):
        calls["n"] += 1
        if calls["n"] == 1:
            raise UnicodeDecodeError("utf-8", b"\xe9", 0, 1, "invalid continuation byte")
        return read(prompt)

    out = io.StringIO()
    assert play(match, read_bad_once, out) == 0
    assert "invalid: unreadable characters" in out.getvalue() and "game over" in out.getvalue()


def test_an_unwritable_log_is_refused_before_the_game(tmp_path, capsys):
    """A folder given as --log crashed the game at its last card, result unshown."""
    folder = tmp_path / "games.log"
    folder.mkdir()
    with pytest.raises(ValueError, match=r"^log: .* is a folder"):
        Match(5, human_seat=0, iterations=10, log_path=folder)
    assert main(["--seed", "5", "--seat", "0", "--log", str(folder)],
                read=lambda p="": "quit") == 2
    assert capsys.readouterr().err.startswith("error: log: ")


def test_a_log_failing_at_the_end_still_shows_the_result(tmp_path, monkeypatch):
    """The disk can fail after the start-up check: the game ends and says it was not logged."""
    match = Match(5, human_seat=0, iterations=20, log_path=tmp_path / "games.log")

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(game_log, "append_game", full_disk)
    read, state = _scripted([])
    state["match"] = match
    out = io.StringIO()
    assert play(match, read, out) == 0
    text = out.getvalue()
    assert "game over" in text and "not logged to" in text and "No space left" in text
    board = BeloteBoard(match)
    board.refresh()
    assert "not logged to" in board.message.value


def test_terminal_quits_cleanly_on_eof_and_quit():
    match = Match(1, human_seat=1, iterations=10)

    def eof(prompt=""):
        raise EOFError

    out = io.StringIO()
    assert play(match, eof, out) == 0 and "bye" in out.getvalue()
    match = Match(2, human_seat=0, iterations=10)
    assert play(match, lambda p="": "quit", io.StringIO()) == 0


def test_main_rejects_unknown_seat_and_impossible_deal(capsys):
    assert main(["--seat", "7"], read=lambda p="": "quit") == 2
    assert "seat '7' is unknown" in capsys.readouterr().err
    assert main(["--min-trumps", "9", "--seed", "1"], read=lambda p="": "quit") == 2
    err = capsys.readouterr().err.strip()
    assert "min_trumps" in err and "\n" not in err
    with pytest.raises(ValueError, match="seat"):
        parse_seat("north")


def test_widget_and_prompt_give_the_same_message_for_the_same_wrong_input():
    prompt_match = Match(9, human_seat=0, iterations=10)
    prompt_match.run_ai()
    board = BeloteBoard(Match(9, human_seat=0, iterations=10))
    bad = _illegal_but_known(prompt_match)
    for text in ["zz", "10X", bad]:
        expected = prompt_match.submit(text)
        assert expected and "\n" not in expected
        assert board.type_card(text) == expected
        assert expected in board.message.value
    # a legal click plays, then the AI answers: it is the human's turn again or the game ended
    before = len(board.match.state.plays)
    board.click(board.match.legal_cards()[0])
    assert len(board.match.state.plays) >= before + 1
    assert board.match.human_to_move() or board.match.is_over()
    enabled = [b.description for b in board.cards.children if not b.disabled]
    assert sorted(enabled) == sorted(card_name(c) for c in board.match.legal_cards())


def test_widget_headless_ai_plays_both_seats():
    board = BeloteBoard(Match(4, human_seat=None, iterations=10))
    assert board.match.is_over()
    assert "game over" in board.message.value
    assert len(board.match.history_lines()) == 16
    assert board.match.history_lines()[-1].startswith("R 16 :")


def test_log_round_trip_and_malformed_lines(tmp_path):
    path = tmp_path / "h.log"
    line = game_log.append_game(path, True, [1, 0] * 8, 97)
    assert line == "AABABABABABABABAB;97"
    with open(path, "a") as fh:
        fh.write("BAAAA;12\nnonsense\n")
    games = game_log.read_games(path)
    assert len(games) == 1 and games.attrs["skipped"] == 2
    assert path.read_text().startswith("#")
    with pytest.raises(ValueError, match="ai_score"):
        game_log.format_game(True, [1] * 16, 200)
    assert game_log.read_games(tmp_path / "missing.log").empty


# -- leaving: quit, end of input, Ctrl-C; trump and legend ---------------------------------

def test_ctrl_c_at_the_prompt_while_the_ai_thinks_and_at_start_up_exits_0(monkeypatch):
    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    match = Match(2, human_seat=0, iterations=10)
    match.run_ai()
    out = io.StringIO()
    assert play(match, interrupt, out) == 0 and "bye" in out.getvalue()
    match = Match(3, human_seat=0, iterations=10)  # seed 3: the AI leads first
    assert not match.human_to_move()
    monkeypatch.setattr(match, "ai_step", interrupt)
    out = io.StringIO()
    assert play(match, lambda p="": "quit", out) == 0 and "bye" in out.getvalue()
    monkeypatch.setattr(belote_cli, "_start", interrupt)
    out = io.StringIO()
    assert main(["--seed", "1"], out=out) == 0 and "bye" in out.getvalue()


def test_the_terminal_shows_the_trump_suit_and_explains_visi_and_invi():
    match = Match(3, human_seat=0, iterations=10)
    read, state = _scripted(["help", "quit"])
    state["match"] = match
    out = io.StringIO()
    assert play(match, read, out) == 0
    text = out.getvalue()
    assert "Trump: clubs (C)" in text
    assert "VISI: the face-up card" in text and "INVI: the face-down card" in text
    assert all(line.startswith("##### BOARD #####  Trump: clubs") for line in text.splitlines()
               if line.startswith("##### BOARD"))
    board = BeloteBoard(Match(3, human_seat=0, iterations=10))
    assert "VISI" in board.legend.value and "trump" in board.title.value.lower()


def test_the_user_log_is_ignored_by_git_and_not_tracked():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    log = belote_cli.DEFAULT_LOG
    ignored = subprocess.run(["git", "check-ignore", "-q", log], cwd=ROOT)
    assert ignored.returncode == 0, f"{log} is not ignored by git"
    tracked = subprocess.run(["git", "ls-files", "--error-unmatch", log], cwd=ROOT,
                             capture_output=True)
    assert tracked.returncode != 0, f"{log} is tracked"


def test_game_modules_import_nothing_above_games():
    """A game module runs with pyspiel and numpy alone: no search, experiments, papers, play."""
    code = ("import sys, infosets.games\n"
            "bad = sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['infosets', 'search'], ['infosets', 'experiments'], ['infosets', 'papers'], "
            "['infosets', 'play']) and m.startswith('infosets.'))\n"
            "import infosets.games.belote2p as b\n"
            "assert not hasattr(b, 'play') and not hasattr(b, 'widget'), 'app code in games'\n"
            "print(bad)")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "lib"))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
    assert not (ROOT / "lib/infosets/games/belote2p/__main__.py").exists()


# -- the real thing: make play-belote in a pseudo-terminal ----------------------------------

def _make_in_pty(*make_args, send, wait_for, timeout=60.0):
    """Runs ``make play-belote`` in a pty; once ``wait_for`` appears, writes ``send``.

    Returns (exit code, everything printed)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "lib"), TERM="dumb")
    argv = ["make", "-s", "-C", str(ROOT), "-o", ".venv/.installed", f"PY={sys.executable}",
            "play-belote", *make_args]
    pid, fd = pty.fork()
    if pid == 0:  # the child: make, session leader with the pty as its terminal
        os.execvpe(argv[0], argv, env)
    output, sent, deadline = b"", False, time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # the pty closed: everyone exited
                    break
                if not chunk:
                    break
                output += chunk
            if not sent and wait_for.encode() in output:
                time.sleep(0.3)
                os.write(fd, send)
                sent = True
            finished, status = os.waitpid(pid, os.WNOHANG)
            if finished:
                break
        else:
            os.kill(pid, signal.SIGKILL)
            pytest.fail(f"make play-belote did not finish: {output.decode(errors='replace')}")
        if not finished:
            _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return os.waitstatus_to_exitcode(status), output.decode(errors="replace")


THINKING = "PLAY_ARGS=--iterations 10000000"  # seed 3: the AI leads and thinks for minutes


@pytest.mark.parametrize("make_args,send,wait_for,absent", [
    (("SEED=3", "SEAT=0"), b"quit\n", "Your card:", None),
    (("SEED=3", "SEAT=0"), b"\x04", "Your card:", None),                 # end of input (Ctrl-D)
    (("SEED=3", "SEAT=0"), b"\x03", "Your card:", None),                 # Ctrl-C at the prompt
    (("SEED=3", "SEAT=0", THINKING), b"\x03", "deal seed 3", "AI plays"),  # while the AI thinks
    (("SEED=3", "SEAT=0"), b"\x03", "loading the game", None),           # during start-up
    (("SEED=3", "SEAT=0"), b"\x1aquit\n", "Your card:", None),           # Ctrl-Z, then quit
], ids=["quit", "eof", "ctrl-c-prompt", "ctrl-c-ai-thinking", "ctrl-c-start-up", "ctrl-z"])
def test_make_play_belote_leaves_cleanly_in_a_real_terminal(make_args, send, wait_for, absent):
    code, text = _make_in_pty(*make_args, send=send, wait_for=wait_for)
    assert code == 0, text
    assert "make: ***" not in text and "Traceback" not in text and "Error" not in text, text
    assert "bye (game abandoned, not logged)" in text, text
    if absent:
        assert absent not in text, text


def test_make_play_belote_takes_seed_and_seat():
    code, text = _make_in_pty("SEED=11", "SEAT=1", send=b"quit\n", wait_for="Your card:")
    assert code == 0, text
    assert "deal seed 11" in text and "in seat 1" in text


_INTERRUPTED_WHILE_LOADING = """
import ctypes, sys
import infosets.play.belote as belote
run = ctypes.pythonapi.PyRun_String
run.restype = ctypes.py_object
run.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.py_object, ctypes.py_object]
def start(args, out):  # Ctrl-C lands while Python code runs through PyRun_* (a module loading)
    run(b"import os, signal, time\\nos.kill(os.getpid(), signal.SIGINT)\\ntime.sleep(5)\\n", 257, {}, {})
belote._start = start
sys.exit(belote.main(["--seed", "3"]))
"""


def test_ctrl_c_while_a_module_loads_exits_0_not_by_sigint(tmp_path):
    """Regression (issue 11 item 10): a KeyboardInterrupt that crossed PyRun_* was remembered by
    CPython as unhandled although the game caught it, so ``python -m`` killed itself with SIGINT
    at exit (status 130) and make reported "Interrupt". Run as a module, like make does."""
    (tmp_path / "interrupted_start.py").write_text(_INTERRUPTED_WHILE_LOADING)
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'lib'}{os.pathsep}{tmp_path}")
    done = subprocess.run([sys.executable, "-m", "interrupted_start"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
    assert "bye (game abandoned, not logged)" in done.stdout
    assert "Traceback" not in done.stderr


def test_ctrl_c_inside_a_compiled_modules_init_says_bye(monkeypatch):
    """pybind11 turns Ctrl-C during ``import pyspiel`` into ImportError("initialization
    failed") caused by the interrupt: that is the player leaving, not a crash."""
    import io

    import infosets.play.belote as belote

    def start(args, out):
        try:
            raise belote.GameAbandoned
        except belote.GameAbandoned as exc:
            raise ImportError("initialization failed") from exc

    monkeypatch.setattr(belote, "_start", start)
    out = io.StringIO()
    assert belote.main(["--seed", "3"], out=out) == 0
    assert belote.BYE in out.getvalue()

    def broken(args, out):
        raise ImportError("no module named x")

    monkeypatch.setattr(belote, "_start", broken)
    with pytest.raises(ImportError, match="no module named x"):
        belote.main(["--seed", "3"], out=io.StringIO())


def test_ctrl_c_swallowed_by_an_optional_import_still_leaves(monkeypatch):
    """Under load, a Ctrl-C during start-up was echoed and the game carried on: it landed in
    an optional compiled import whose ImportError (caused by the interrupt) a library's
    ``except ImportError`` swallowed. The handler's flag still ends the game."""
    import io

    import infosets.play.belote as belote

    def start(args, out):
        try:  # as a library's optional import: the interrupt arrives, the error is dropped
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(5)
            except belote.GameAbandoned as exc:
                raise ImportError("initialization failed") from exc
        except ImportError:
            pass
        return Match(3, human_seat=0, iterations=10)

    monkeypatch.setattr(belote, "_start", start)
    out = io.StringIO()
    assert belote.main(["--seed", "3"], read=lambda p="": pytest.fail("the game started"),
                       out=out) == 0
    assert belote.BYE in out.getvalue()


# -- bad command-line arguments: one line naming the argument, before anything loads --------

@pytest.mark.parametrize("argv,name", [
    (["--iterations", "-5"], "iterations"),
    (["--iterations", "0"], "iterations"),
    (["--iterations", "1000000000"], "iterations"),  # failed for memory at the AI's first move
    (["--exploration", "-1"], "exploration"),
    (["--exploration", "nan"], "exploration"),
    (["--exploration", "inf"], "exploration"),
    (["--seed", "-3"], "seed"),
    (["--seat", "north"], "seat"),
])
def test_bad_arguments_are_refused_before_the_game_loads(argv, name, monkeypatch, capsys):
    """They were checked only after the game, the AI and a deal were loaded (or, for too many
    iterations or an infinite exploration, not at all)."""
    monkeypatch.setattr(belote_cli, "_start", lambda args, out: pytest.fail("the game loaded"))
    out = io.StringIO()
    assert main(argv, read=lambda p="": pytest.fail("the game started"), out=out) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and name in err and err.count("\n") == 1, err
    assert "loading" not in out.getvalue()


@pytest.mark.parametrize("argv,name", [(["--seed", "abc"], "--seed"),
                                       (["--iterations", "many"], "--iterations"),
                                       (["--bogus"], "--bogus")])
def test_unparsable_arguments_give_one_line(argv, name, capsys):
    """argparse printed its usage block before the error: several lines for one typo."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and name in err and err.count("\n") == 1, err


def test_a_stray_click_after_the_end_keeps_the_result_shown():
    """Clicking (or typing) after the last card replaced 'game over: ...' by 'the game is
    over'; the result stays, with the refusal under it."""
    board = BeloteBoard(Match(9, human_seat=0, iterations=1))
    while not board.match.is_over():
        board.click(board.match.legal_cards()[0])
    assert board.type_card("7C") == "the game is over"
    assert "game over: YOU" in board.message.value and "the game is over" in board.message.value


@pytest.mark.parametrize("kwargs, name", [
    ({"iterations": 0}, "iterations"), ({"iterations": 10**9}, "iterations"),
    ({"exploration": float("inf")}, "exploration"), ({"exploration": "82"}, "exploration"),
    ({"human_seat": True}, "seat"), ({"seed": None}, "seed"), ({"seed": True}, "seed")])
def test_match_refuses_bad_settings_before_dealing(kwargs, name, monkeypatch):
    """The same checks as the command line (``belote_settings``), before any deal or log."""
    from infosets.games.belote2p import deal as deal_lib

    monkeypatch.setattr(deal_lib, "fair_deal", lambda *a, **k: pytest.fail("dealt"))
    settings = {"seed": 3, "human_seat": 0, "iterations": 10, **kwargs}
    with pytest.raises(ValueError, match=name):
        Match(settings.pop("seed"), **settings)


def test_enter_in_the_text_box_plays_like_the_button():
    """Enter did nothing (only the button read the box); now the box's value arriving
    (continuous_update=False: on Enter) goes through the button's handler."""
    board = BeloteBoard(Match(9, human_seat=0, iterations=10))
    prompt_match = Match(9, human_seat=0, iterations=10)
    prompt_match.run_ai()
    board.text.value = "zz"  # what Enter sends
    assert board.match.message == prompt_match.submit("zz")
    assert board.text.value == "zz"  # left to be corrected
    before = len(board.match.state.plays)
    board.text.value = card_name(board.match.legal_cards()[0])
    assert len(board.match.state.plays) >= before + 1 and board.text.value == ""
    assert board.match.message == "" and "your turn" in board.message.value
    # typing then clicking the button: the box loses focus (its value arrives), then the click
    mine = sum(1 for player, *_ in board.match.state.plays if player == 0)
    board.text.value = card_name(board.match.legal_cards()[0])
    board.play_button.click()
    assert board.match.message == ""  # played once, not refused as a second play
    assert sum(1 for player, *_ in board.match.state.plays if player == 0) == mine + 1


def test_a_very_long_typed_line_is_quoted_short():
    """A 1 MB line was quoted whole in the error, at the prompt and on the board."""
    long_text = "x" * 1_000_000
    match = Match(5, human_seat=0, iterations=10)
    match.run_ai()
    read, state = _scripted([long_text, "quit"])
    state["match"] = match
    out = io.StringIO()
    assert play(match, read, out) == 0
    invalid = [line for line in out.getvalue().splitlines() if line.startswith("invalid:")]
    assert invalid == ["invalid: card '" + "x" * 40 + "…' is unknown; use rank 7 8 9 10 J Q K A "
                       "then suit C D H S, e.g. 10H"]
    board = BeloteBoard(Match(5, human_seat=0, iterations=10))
    assert board.type_card(long_text) == invalid[0].removeprefix("invalid: ")
    assert len(board.message.value) < 300


def test_the_ai_step_runs_beside_a_listening_main_thread():
    """The AI's move runs in a worker while the main thread waits in slices (so Ctrl-C lands
    at once): its value and its exception reach the caller, and a Ctrl-C raised in the main
    thread while the worker runs leaves without waiting for it."""
    import threading

    assert belote_cli._while_listening(lambda: 7) == 7
    with pytest.raises(ValueError, match="bad card"):
        belote_cli._while_listening(lambda: (_ for _ in ()).throw(ValueError("bad card")))
    release = threading.Event()
    timer = threading.Timer(0.2, lambda: signal.raise_signal(signal.SIGINT))
    with belote_cli.ctrl_c_abandons():
        timer.start()
        start = time.monotonic()
        with pytest.raises(belote_cli.GameAbandoned):
            belote_cli._while_listening(lambda: release.wait(30))  # a search that would run on
        assert time.monotonic() - start < 5
    release.set()
