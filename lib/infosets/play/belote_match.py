"""A human-vs-ISMCTS Belote match: the board, the history aid, input checks and the log.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md): the testers saw the board from their side (hand, face-up
row, hidden row as ``???``; Fig. 2) and a history aid with one line per trick (both plays,
revealed cards, winner, points, running score; Fig. 3). ``Match`` holds that game for the
terminal (``python -m infosets.play.belote``) and the ipywidgets board (``belote_widget``):
both send the human's text through ``Match.submit``, so the same wrong input gets the same
one-line message in both. With ``human_seat=None`` the AI plays both seats (headless runs).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from infosets.core.files import check_writable
from infosets.games.belote2p import deal as deal_lib
from infosets.games.belote2p import log as game_log
from infosets.games.belote2p.game import BeloteGame
from infosets.games.belote2p.rules import (
    LAST_TRICK_BONUS,
    NUM_TRICKS,
    POINTS,
    SUITS,
    TRUMP_SUIT,
    card_name,
    cards_of,
    parse_card,
)
from infosets.play.belote_duties import why_not
from infosets.play.belote_settings import check_settings, parse_seat
from infosets.search.belote_ismcts import BeloteISMCTSBot

HIDDEN = "???"
ECHO_CHARS = 40  # of the typed text, quoted in an error message (a pasted page stays readable)
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
TRUMP_LINE = (f"Trump: {_SUIT_WORDS[SUITS[TRUMP_SUIT]]} ({SUITS[TRUMP_SUIT]}), in every game. "
              "Trump order: J 9 A 10 K Q 8 7; other suits: A 10 K Q J 9 8 7.")
LEGEND_LINES = (
    "HAND: your private cards. VISI: the face-up card on each of your 5 piles (both players "
    "see it; you may play it).",
    "INVI: the face-down card under each pile, hidden from both players, its owner included; "
    "it turns face up when the card on it is played.",
)


def check_log_writable(path: Path) -> None:
    """ValueError naming ``log`` when a finished game could not be appended to ``path``
    (checked before the game starts, so that its result is not lost at the last card)."""
    if path.is_dir():
        raise ValueError(f"log: {path} is a folder; give a file path")
    if path.exists() and not os.access(path, os.W_OK):
        raise ValueError(f"log: {path} is not writable")
    try:
        check_writable(path.parent)  # creates the folder, as the first logged game would
    except OSError as exc:
        raise ValueError(f"log: cannot create {path} ({exc.strerror or exc})") from None


def _echo(text: str) -> str:
    """The typed text as an error message quotes it: its first ``ECHO_CHARS`` characters."""
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


class Match:
    """One game between a human (or nobody) and the paper's ISMCTS.

    Args:
      seed: int; derives the deal, the first leader, the seat and the AI's stream.
      human_seat: 0, 1, 'random', or None for AI against AI.
      iterations, exploration: the AI's ISMCTS settings (paper: 500, 82).
      log_path: where a finished human game is appended (None: not logged).
      constraint: the fair-deal constraint.
    """

    def __init__(self, seed: int, human_seat="random", iterations: int = 500,
                 exploration: float = 82.0, log_path=None,
                 constraint: deal_lib.DealConstraint | None = None, inference: bool = False):
        if seed is None:
            raise ValueError("seed must be an int >= 0, got None")
        check_settings(seed, iterations, exploration)  # before dealing or creating the log
        seat = None
        if human_seat is not None:
            seat = parse_seat(human_seat) if isinstance(human_seat, str) else human_seat
            if isinstance(seat, bool) or seat not in (0, 1, None):
                raise ValueError(f"seat {human_seat!r} is unknown; use 0, 1 or random")
        if log_path:
            check_log_writable(Path(log_path))
        deal_seq, seat_seq, ai_seq, ai2_seq = np.random.SeedSequence(int(seed)).spawn(4)
        rng = np.random.default_rng(deal_seq)
        if constraint is not None and not isinstance(constraint, deal_lib.DealConstraint):
            raise ValueError(f"constraint: expected a DealConstraint, got {constraint!r}")
        constraint = constraint or deal_lib.DealConstraint()
        self.game = BeloteGame({"min_trumps": constraint.min_trumps,
                                "points_lo": constraint.points_lo,
                                "points_hi": constraint.points_hi})
        deal = deal_lib.fair_deal(rng, constraint)
        first = deal_lib.random_first_leader(rng)
        self.state = self.game.new_state_from_deal(deal, first)
        if human_seat is None:
            self.human = None
        else:
            self.human = int(np.random.default_rng(seat_seq).integers(2)) if seat is None \
                else seat
        self.ai_bots = [BeloteISMCTSBot(iterations, exploration, rng=s, inference=inference)
                        for s in (ai_seq, ai2_seq)]
        self.log_path = Path(log_path) if log_path else None
        self.logged_line: str | None = None
        self.log_error = ""  # why a finished game could not be logged (the disk, not the game)
        self.message = ""

    # -- naming -------------------------------------------------------------------
    def name(self, player: int) -> str:
        if self.human is None:
            return f"AI{player}"
        return "YOU" if player == self.human else "AI"

    @property
    def viewer(self) -> int:
        """The seat whose side of the board is shown (the human's, else seat 0)."""
        return 0 if self.human is None else self.human

    # -- state --------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.state.is_terminal()

    def to_move(self) -> int:
        return self.state.current_player()

    def human_to_move(self) -> bool:
        return not self.is_over() and self.human is not None and self.to_move() == self.human

    def legal_cards(self) -> list[int]:
        return [] if self.is_over() else self.state.legal_actions()

    def score(self) -> list[int]:
        k = self.state.kernel
        return [k.score(0), k.score(1)]

    # -- moves --------------------------------------------------------------------
    def submit(self, text: str) -> str:
        """Play the human's card given as text. Returns '' on success, else one line saying
        what was wrong (the move is not played). Never raises on bad input."""
        if self.is_over():
            return self._set("the game is over")
        if not self.human_to_move():
            return self._set("it is not your turn")
        if not isinstance(text, str):
            return self._set(f"card: type a card as text (e.g. AS), got {type(text).__name__}")
        try:
            card = parse_card(text)
        except ValueError as exc:  # its message quotes the text: only its start
            return self._set(str(exc).replace(repr(text), repr(_echo(text)), 1))
        legal = self.legal_cards()
        if card not in legal:
            k = self.state.kernel
            mine = k.playable(self.human)
            why = why_not(card, mine, k.lead) if mine >> card & 1 else "you do not have it in play"
            return self._set(f"{card_name(card)} cannot be played now ({why}); "
                             f"playable: {' '.join(card_name(c) for c in legal)}")
        self._apply(card)
        return self._set("")

    def ai_step(self) -> int | None:
        """Let the AI play one card if it is its turn; returns the card or None."""
        if self.is_over() or self.human_to_move():
            return None
        player = self.to_move()
        card = self.ai_bots[player].step(self.state)
        self._apply(card)
        return card

    def run_ai(self) -> None:
        """Let the AI move until the human is to move or the game ends."""
        while self.ai_step() is not None:
            pass

    def _apply(self, card: int) -> None:
        self.state.apply_action(card)
        if self.is_over():
            self._finish()

    def _set(self, message: str) -> str:
        self.message = message
        return message

    def _finish(self) -> None:
        if self.human is None or self.log_path is None or self.logged_line is not None:
            return
        ai = 1 - self.human
        winners = [w for _, _, _, w in self.state.plays if w >= 0]
        try:
            self.logged_line = game_log.append_game(
                self.log_path, self.state.first_leader == ai, [w == ai for w in winners],
                self.score()[ai])
        except OSError as exc:  # the game is over either way: say so, do not crash
            self.log_error = f"not logged to {self.log_path}: {exc.strerror or exc}"

    # -- views --------------------------------------------------------------------
    def board_lines(self) -> list[str]:
        """Fig. 2: the board from the viewer's side."""
        k = self.state.kernel
        me = self.viewer
        out = ["##### BOARD #####  " + TRUMP_LINE.split(",")[0]]
        for p in (1 - me, me):
            pile_tops = cards_of(k.up[p])
            hidden_piles = k.down[p].bit_count()
            visible = " ".join(card_name(c) for c in pile_tops) or "-"
            invisible = " ".join([HIDDEN] * hidden_piles) or "-"
            if p == me:
                hand = " ".join(card_name(c) for c in cards_of(k.hand[p])) or "-"
            else:
                hand = " ".join([HIDDEN] * k.hand[p].bit_count()) or "-"
            out.append(f"{self.name(p):>4} VISI {visible} | INVI {invisible} | HAND {hand}")
        lead = f"{card_name(k.lead)} by {self.name(k.leader)}" if k.lead >= 0 else "-"
        s = self.score()
        out.append(f"trick {min(k.trick + 1, NUM_TRICKS)}/{NUM_TRICKS} · on the table: {lead} · score "
                   f"{self.name(0)} {s[0]} - {self.name(1)} {s[1]}")
        return out

    def history_lines(self) -> list[str]:
        """Fig. 3: one line per trick: plays, revealed cards, winner, points, running score."""
        lines, parts, trick, pts = [], [], 0, [0, 0]
        plays = self.state.plays
        for i, (player, card, revealed, winner) in enumerate(plays):
            part = f"{self.name(player)}: [{card_name(card)}]."
            if revealed >= 0:
                part += f" {card_name(revealed)} revealed."
            parts.append(part)
            if winner >= 0:
                trick += 1
                lead_card = plays[i - 1][1]
                won = POINTS[lead_card] + POINTS[card] + (LAST_TRICK_BONUS if trick == NUM_TRICKS else 0)
                pts[winner] += won
                lines.append(f"R {trick} : {' '.join(parts)} {self.name(winner)} wins {won} pts."
                             f" Score: [{self.name(0)} {pts[0]}, {self.name(1)} {pts[1]}]")
                parts = []
        if parts:
            lines.append(f"R {trick + 1} : {' '.join(parts)}")
        return lines

    def result_line(self) -> str:
        if not self.is_over():
            return ""
        s = self.score()
        if self.human is None:
            return f"game over: AI0 {s[0]} - AI1 {s[1]}"
        mine, ai = s[self.human], s[1 - self.human]
        verdict = "you win" if mine > ai else ("draw" if mine == ai else "the AI wins")
        return f"game over: YOU {mine} - AI {ai} ({verdict})"
