"""An ipywidgets board for playing two-player Belote against the ISMCTS in JupyterLab.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), Figs 2 and 3, made clickable: one button per card in play (the legal
ones enabled), the opponent's face-up row, the hidden cards as backs, the card on the
table, the score, a text box that takes the same input as the terminal prompt, and the
history aid. The AI answers after each human card. All rules and input checks live in
``belote_match.Match``; this module only draws it.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from infosets.games.belote2p.rules import card_name, cards_of
from infosets.play.belote_match import LEGEND_LINES, TRUMP_LINE, Match

BACK = "\U0001F0A0"  # a playing-card back
_RED = {"D", "H"}


def _chip(card: int) -> str:
    name = card_name(card)
    color = "#b00" if name[-1] in _RED else "#111"
    return (f"<span style='display:inline-block;border:1px solid #999;border-radius:4px;"
            f"padding:2px 6px;margin:1px;color:{color};background:#fff'>{name}</span>")


def _backs(n: int) -> str:
    return " ".join(f"<span style='font-size:1.6em;color:#357'>{BACK}</span>"
                    for _ in range(n)) or "-"


class BeloteBoard:
    """The board of one ``Match``; ``.widget`` is what to display."""

    def __init__(self, match: Match):
        self.match = match
        self.title = widgets.HTML()
        self.opponent_row = widgets.HTML()
        self.table = widgets.HTML()
        self.my_row = widgets.HTML()
        self.cards = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.text = widgets.Text(placeholder="or type a card, e.g. 10H", continuous_update=False,
                                 layout=widgets.Layout(width="180px"))
        self.play_button = widgets.Button(description="Play typed card")
        self.play_button.on_click(lambda _: self.submit_text())
        # with continuous_update=False the value arrives on Enter (or when the box loses focus)
        self.text.observe(lambda _: self.submit_text(), names="value")
        self.message = widgets.HTML()
        self.history = widgets.HTML()
        self.legend = widgets.HTML(
            "<small>" + "<br>".join(html.escape(line, quote=False)
                                    for line in (TRUMP_LINE, *LEGEND_LINES)) + "</small>")
        self.widget = widgets.VBox([
            self.title, self.legend, self.opponent_row, self.table, self.my_row, self.cards,
            widgets.HBox([self.text, self.play_button]), self.message, self.history,
        ])
        self.match.run_ai()
        self.refresh()

    # -- actions (also called by tests) -------------------------------------------------
    def click(self, card: int) -> str:
        return self._play(card_name(card))

    def type_card(self, text: str) -> str:
        return self._play(text)

    def submit_text(self) -> str:
        """The text box's card, sent by Enter or by the button. The box is emptied after a
        move, and an empty box sends nothing: typing a card then clicking the button sends it
        once (the box losing focus sends it first), and emptying the box sends nothing."""
        if not self.text.value:
            return ""
        error = self.type_card(self.text.value)
        if not error:
            self.text.value = ""
        return error

    def _play(self, text: str) -> str:
        error = self.match.submit(text)
        if not error:
            self.match.run_ai()
        self.refresh()
        return error

    # -- drawing --------------------------------------------------------------------
    def refresh(self) -> None:
        m = self.match
        k = m.state.kernel
        me, opp = m.viewer, 1 - m.viewer
        score = m.score()
        self.title.value = (f"<b>Belote for two</b> · {m.name(me)} {score[me]} – "
                            f"{m.name(opp)} {score[opp]} · trick {min(k.trick + 1, 16)}/16 · "
                            f"trump ♣ clubs")
        self.opponent_row.value = (
            f"<b>{m.name(opp)}</b> hand {_backs(k.hand[opp].bit_count())}<br>"
            f"face-up (VISI) {''.join(_chip(c) for c in cards_of(k.up[opp])) or '-'} · "
            f"face-down (INVI) {_backs(k.down[opp].bit_count())}")
        lead = _chip(k.lead) + f" by {m.name(k.leader)}" if k.lead >= 0 else "empty"
        self.table.value = f"<i>table:</i> {lead}"
        self.my_row.value = (f"<b>{m.name(me)}</b> face-down (INVI) {_backs(k.down[me].bit_count())} "
                             "· your cards (hand, then face-up):")
        legal = set(m.legal_cards()) if m.human_to_move() else set()
        buttons = []
        for card in cards_of(k.hand[me]) + cards_of(k.up[me]):
            b = widgets.Button(description=card_name(card), disabled=card not in legal,
                               layout=widgets.Layout(width="56px"),
                               button_style="info" if k.up[me] >> card & 1 else "")
            b.on_click(lambda _, c=card: self.click(c))
            buttons.append(b)
        self.cards.children = buttons
        note = m.result_line() or ("your turn" if m.human_to_move() else "")
        if m.message:  # after the end, a stray click must not hide the result
            error = f"<span style='color:#b00'>{html.escape(m.message, quote=False)}</span>"
            note = f"{note}<br>{error}" if m.is_over() else error
        if m.logged_line:
            note += f"<br>logged: <code>{m.logged_line}</code>"
        if m.log_error:
            note += f"<br><span style='color:#b00'>{html.escape(m.log_error, quote=False)}</span>"
        self.message.value = note
        self.history.value = "<pre style='font-size:11px'>" + "\n".join(m.history_lines()) \
            + "</pre>"
