"""Which duty of two-player Belote forbids a card: the reason a player is shown for a refusal.

Boudier, "Information Set Monte Carlo Tree Search for Two-players Belote"
(docs/papers/belote_ismcts.md), as ``games.belote2p.kernel.legal_reply_mask`` implements it:
the leader plays any card; the other player must

1. on a plain-suit lead, play that suit if they can (*follow suit*);
2. on a trump lead, play a higher trump if they can (*over-trump*), else any trump
   (*follow the trump lead*);
3. with none of the led suit, play a trump if they can (*trump*; any trump will do: this
   game has no over-trumping of a plain lead);
4. else play anything.

``why_not(card, playable, lead)`` names the duty that rules ``card`` out, from what the player
sees: the card led (public) and the cards they can play (their hand and face-up pile tops).
"""

from __future__ import annotations

from infosets.games.belote2p.rules import (
    FOLLOW,
    SUITS,
    TRUMP_MASK,
    TRUMP_SUIT,
    card_name,
    suit_of,
)

SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
TRUMP_WORD = SUIT_WORDS[SUITS[TRUMP_SUIT]]


def _suit(card: int) -> str:
    return SUIT_WORDS[SUITS[suit_of(card)]]


def why_not(card: int, playable: int, lead: int) -> str:
    """The duty that forbids ``card`` (one phrase), given the player's playable mask and the
    card led (-1 when the player leads). ValueError if the card is allowed or not playable."""
    if not (playable >> card) & 1:
        raise ValueError(f"card: {card_name(card)} is not among the player's playable cards")
    if lead < 0:
        raise ValueError(f"card: {card_name(card)} may be led; no duty forbids it")
    follow, trumps = playable & FOLLOW[lead], playable & TRUMP_MASK
    if suit_of(lead) == TRUMP_SUIT:
        if follow and not (follow >> card) & 1:
            return (f"you must over-trump: {card_name(lead)} was led and you can play a higher "
                    f"trump")
        if not follow and trumps and not (trumps >> card) & 1:
            return (f"you must follow the trump lead: {card_name(lead)} was led and you have "
                    f"{TRUMP_WORD}")
    elif follow:
        if not (follow >> card) & 1:
            return f"you must follow suit: {card_name(lead)} was led and you have {_suit(lead)}"
    elif trumps and not (trumps >> card) & 1:
        return (f"you must trump: {card_name(lead)} was led, you have no {_suit(lead)} and you "
                f"have {TRUMP_WORD}")
    raise ValueError(f"card: {card_name(card)} is allowed on {card_name(lead)}")
