"""Sampled ``exploding_kittens`` worlds as histories: the sampler behind ``sample_world``.

Determinization for the PI-MCTS study of Ravichandran, Goodman and Lucas
(docs/papers/pimcts_aggregation.md). A kitten defused by another player goes back into the
deck at a position only its placer knows, and that position decides how many later draws
are chance steps (cards above it are fixed by chance, deeper draws come from the unordered
remainder). A world must therefore be a whole history, not the real history with other
cards: ``world_history`` re-simulates the game on a fresh kernel and returns the actions it
applied, so a world's ``history()`` rebuilds it.

The proposal, per attempt:

* hidden choices of other players are redrawn uniformly among their legal moves: where a
  kitten goes back (a ``PLACE`` by another player) and which card a Favor hands over between
  two other players (a ``GIVE`` the sampling player takes no part in);
* which card left a hand, where the player cannot tell, is drawn again
  (``attributed_labels``): at each play by another player (each card of a pair, each card of
  an exploded hand) and each Favor or steal between two other players, the card that left is
  attributed uniformly to one of the cards that hand held whose value the player had never
  known (itself included), and the two exchange deal steps from then on (their values swap at
  the steps that dealt them and at the steals that took them before). A played card's type
  thus sits on a uniformly drawn unknown deal step of its holder (and a card handed over out
  of sight on one of its giver's), so no world replays the true deal step of a card that a
  Favor or a steal moved out of the player's sight and its taker then played;
* the cards the player has never known are re-dealt uniformly into their slots (as
  ``ExplodingKittensKernel.resample`` does, and no opening hand card is a Defuse), each
  re-dealt card rewriting the deal step its slot stands for and the chance steps of the
  steals that took it (``redealt_outcomes``). A card the player has known keeps its value,
  also where the knowledge mask has since dropped them (the kernel forgets a card its
  observer can no longer place: a card seen with See the Future once another player hides a
  kitten, a hand that gave or lost a card out of their sight, a known copy of a type its
  holder played), so the replay never refuses a world for changing what the player saw. A
  card moved between two other players is re-dealt like any card the player never knew (the
  move keeps its tag, so no world replays the true card at its deal step);
* the game is replayed through the engine along the real sequence of player moves. After a
  move, the chance steps the real history took there are fed in order; where the replay
  needs more (a deeper kitten fixes more cards, a draw that came from the fixed top now comes
  from the remainder) a draw repeats the card the real draw gave, as this world deals it
  (not the real card where that card was re-dealt), else the extra outcome is
  drawn from its chance distribution; surplus real outcomes are dropped.

An attempt is accepted iff every move is legal, the same player moves at each step, and the
sampling player's information-state string is the real one at each of their decisions and at
the end; ``sample`` makes new attempts until one is. When a later step refuses a hidden
choice, that choice (and what follows it) is redrawn from there, up to ``RETRIES`` times,
before the attempt is abandoned: later evidence (a kitten drawn, or seen with See the Future)
often pins where a kitten went.

The distribution sampled: for given hidden choices, uniform over the re-deals of the unseen
cards whose history is consistent (a uniform proposal conditioned by rejection); the hidden
choices uniform among the legal moves, conditioned step by step on what follows. With no
later evidence a hidden kitten's position is therefore uniform over the deck, which is the
exact posterior under a uniformly random placer (chi-square tested), and right after the deal
another hand is uniform over the unseen base cards (tested). It is not exactly the
chance-weighted posterior over histories in general: a kitten position is not weighed by
the probability of the later draws it implies, and the local redraws favour prefixes that
later steps accept less often. Played cards keep their types, and which unknown card of a
hand was played is uniform: the posterior under a player who plays a uniformly random card
of their hand (a hand with k copies of the played type counts k times), not the
policy-free uniform over histories (where it counts once). Cards the player has known are
never re-attributed: a known card in the hand is never the one a play is attributed to, a
known card that left (say, a played copy of a type the player knew the hand held) stays the
one that left, and a steal between two other players that took a card the player knew, or
a starting Defuse (no step dealt it), takes it in every world (the steal's chance step keeps
its real outcome; a Favor's Give is redrawn). A chi-square against exact enumeration of
whole histories is out of reach: the opening deal alone has too many hidden outcomes.

Cost, measured on random 2-4 player games (states spread over whole games, every live
player, 2,008 worlds): median 1.4 ms per world, mean 6.3 ms; 0.3% of those worlds need the
first fallback of ``sample`` (hidden choices kept; 1.1% of 8,590 worlds of 4-player games
after a See the Future), none the real history (see ``sample``). The first fallback's usual
cause: a refused attempt redraws only its latest hidden choice, so an earlier one that later
evidence pins (a kitten another player hid, then drawn) changes only when a whole attempt
starts again.
"""

from __future__ import annotations

from infosets.core.chance import sample_chance
from infosets.games import _tabletop as tt
from infosets.games.exploding_kittens.kernel import (
    DEAL,
    DRAW,
    DRAW_CHANCE,
    FILL,
    GIVE,
    KITTEN,
    MAIN,
    NUM_TYPES,
    STEAL,
)


def history_context(game, history: list[int], player_moves, kitten_defuse, card_move) -> dict:
    """What every attempt reads from the real history, computed once per sampled state.

    Keys: ``segments`` (the chance outcomes before the first player move, then per player
    move (step, mover, action, outcomes after it)); ``drawn`` (step of a Draw from the fixed
    top -> the card it gave, tagged); ``tagged`` (the real final cards, ``_Tagged``: each card
    tagged by the step that drew it, ``tt.Drawn``; a card moved between hands keeps its tag);
    ``ever`` (tag -> bitmask of the players who knew the card at some time: a card's
    knowledge mask may drop a player who saw it, e.g. a See the Future card once another
    player hid a kitten above it); ``events`` (every step where tagged cards left a hand, in
    order: ``("move", step, giver, taker, tag, hand, steal)`` for a Favor's Give or a steal
    (``steal``: whether ``step`` is the steal's chance step), ``("play", step, holder, tags,
    hand)`` for cards played or discarded; ``hand``: (tag, ``ever`` mask then) of each tagged
    card the hand held just before); ``views`` (step -> the information-state string of the
    mover there). ``player_moves(kernel, action)`` tells whether a move is a Draw;
    ``kitten_defuse`` the two card types dealt in after the opening (see the caller);
    ``card_move(kernel)`` (giver, taker) when the step now due moves a card between hands.
    """
    kernel = game.new_kernel()
    tagged = _Tagged(kernel)
    opening, segments, drawn, events, ever = [], [], {}, [], {}
    for step, action in enumerate(history):
        mover = kernel.current_player()
        chance = mover == tt.CHANCE
        if chance:
            (segments[-1][3] if segments else opening).append(action)
        else:
            segments.append((step, mover, action, []))
        move = card_move(kernel)
        before = [hand[:] for hand in tagged.hands]
        draws = not chance and player_moves(kernel, action)
        phase = kernel.phase
        kernel.apply(action)
        tagged.follow(kernel, phase, action, step)
        if draws:
            drawn[step] = _last_drawn(tagged, [len(h) for h in before], mover)
        _record_events(tagged, before, step, move, chance, ever, events)
        _learn(tagged, ever)
    return {
        "opening": opening,
        "segments": segments,
        "drawn": drawn,
        "tagged": tagged,
        "ever": ever,
        "events": events,
        "views": {},
        "history": list(history),
        "kitten_defuse": kitten_defuse,
    }


class _Tagged:
    """The cards of a replayed array, each chance-drawn card tagged (``tt.Drawn``) with the
    step that drew it: ``hands`` and ``top`` (tagged lists aligned with the kernel's), their
    knowledge masks ``seen`` and ``top_seen`` and the remainder ``pool`` (the kernel's)."""

    def __init__(self, kernel):
        self.hands = kernel.hands  # the starting Defuses: no step dealt them
        self.top: list[int] = []
        self.seen, self.top_seen, self.pool = kernel.seen, kernel.top_seen, kernel.pool

    def follow(self, kernel, phase: int, action: int, step: int) -> None:
        """Move the tagged cards as step ``step`` (``action``, played in ``phase``) moved the
        kernel's: a card leaving a hand is the first of its type there (the rules' order); a
        card joins a hand at its end, the card a chance step drew (a deal or a draw from the
        remainder), the deck top's first card (a Draw from the fixed top) or the one the
        giver lost (a Favor's Give, a steal); a deck-top card fixed by chance joins the top
        at its end, a placed kitten (untagged) at ``fill_then``; a Shuffle empties the top."""
        drawn = tt.Drawn(action, step) if phase in (DEAL, DRAW_CHANCE, FILL) else None
        top = self.top
        if phase == MAIN and action == DRAW and top:
            drawn = top.pop(0)
        elif phase == FILL:
            top.append(drawn)
        now_top = kernel.top
        if not now_top:
            top.clear()
        elif len(now_top) == len(top) + 1:
            top.insert(kernel.fill_then, KITTEN)
        hands, lost = kernel.hands, []
        for hand, now in zip(self.hands, hands):
            gone = tt.list_to_counts(hand, NUM_TYPES)
            for card in now:
                gone[card] -= 1
            kept = []
            for card in hand:
                if gone[card] > 0:
                    gone[card] -= 1
                    lost.append(card)
                else:
                    kept.append(card)
            hand[:] = kept
        if phase in (GIVE, STEAL):
            drawn = lost[0]
        for hand, now in zip(self.hands, hands):
            if len(now) > len(hand):
                hand.append(drawn)
        self.seen, self.top_seen, self.pool = kernel.seen, kernel.top_seen, kernel.pool


def _record_events(
    kernel, before: list[list], step: int, move, chance: bool, ever: dict, events: list
) -> None:
    """Append to ``events`` the cards that left a hand at ``step`` (see ``history_context``):
    ``before`` holds the hands before the step, ``move`` the (giver, taker) of a card move."""

    def snapshot(hand):
        return tuple((c.origin, ever.get(c.origin, 0)) for c in hand if isinstance(c, tt.Drawn))

    if move is not None:
        giver, taker = move
        card = kernel.hands[taker][-1]  # the giver's own copy (``_move_card``)
        tag = card.origin if isinstance(card, tt.Drawn) else None  # None: a starting Defuse
        events.append(("move", step, giver, taker, tag, snapshot(before[giver]), chance))
        return
    for q, hand in enumerate(before):
        after = kernel.hands[q]
        if len(after) < len(hand):
            left = {id(c) for c in after}
            gone = tuple(c.origin for c in hand if id(c) not in left and isinstance(c, tt.Drawn))
            if gone:
                events.append(("play", step, q, gone, snapshot(hand)))


def _learn(kernel, ever: dict) -> None:
    """Add to ``ever`` the knowledge masks a step may have widened: the card just put at the
    end of a hand (dealt, drawn, moved) and the deck-top cards (See the Future)."""
    for hand, seen in zip(kernel.hands, kernel.seen):
        if hand and isinstance(hand[-1], tt.Drawn):
            ever[hand[-1].origin] = ever.get(hand[-1].origin, 0) | seen[-1]
    for card, mask in zip(kernel.top, kernel.top_seen):
        if mask and isinstance(card, tt.Drawn):
            ever[card.origin] = ever.get(card.origin, 0) | mask


def _last_drawn(kernel, hands_before: list[int], mover: int) -> int | None:
    """The card a Draw from the fixed top put in ``mover``'s hand, tagged with the step that
    fixed it (None: chance draws it)."""
    if len(kernel.hands[mover]) > hands_before[mover]:
        return kernel.hands[mover][-1]
    return None


def real_views(game, context: dict, player: int) -> dict:
    """step -> ``player``'s information-state string before each of their real moves, and
    key -1 -> the final one (cached in ``context`` per player)."""
    views = context["views"].get(player)
    if views is None:
        kernel = game.new_kernel()
        views = {}
        for step, action in enumerate(context["history"]):
            if kernel.current_player() == player:
                views[step] = kernel.information_state_string(player)
            kernel.apply(action)
        views[-1] = kernel.information_state_string(player)
        context["views"][player] = views
    return views


def attributed_labels(context: dict, player: int, rng, kitten: int, defuse: int, kept=frozenset()):
    """Which deal step each card came from, as far as ``player`` can tell: (label, value,
    steals) with ``label`` physical tag -> the deal step it stands for now (default itself),
    ``value`` deal step -> its card where it differs from the real one, ``steals`` deal step ->
    the chance steps of the steals that took the card dealt there.

    At each event (``context["events"]``) where a card left a hand and ``player`` cannot tell
    which card it was (a play by another player; a Favor or a steal between two others), the
    card that left is attributed uniformly to one of the cards the hand held whose value
    ``player`` had never known (itself included): the two exchange deal steps from then on,
    and their values at the steps that dealt them (and at the steals that took them before),
    so the played (or moved) card is the one dealt at the other's step. Pairs that would put a
    ``kitten`` or ``defuse`` on an opening deal step are left out. A card ``player`` has known
    is never attributed (nor a starting Defuse, which no step dealt), nor one tagged in
    ``kept`` (see ``redealt_outcomes``).
    """
    history = context["history"]
    opening = len(context["opening"])
    bit = 1 << player
    label, value, steals = {}, {}, {}
    banned = (kitten, defuse)

    def allowed(step, card):
        return step >= opening or card not in banned

    def attribute(tag, hand, gone=()):
        la = label.get(tag, tag)
        va = value.get(la, history[la])
        options = [tag]
        for other, mask in hand:
            if other == tag or other in gone or mask & bit or other in kept:
                continue
            lb = label.get(other, other)
            vb = value.get(lb, history[lb])
            if allowed(lb, va) and allowed(la, vb):
                options.append(other)
        other = options[min(int(rng.random() * len(options)), len(options) - 1)]
        if other != tag:
            lb = label.get(other, other)
            vb = value.get(lb, history[lb])
            label[tag], label[other] = lb, la
            value[lb], value[la] = va, vb

    for event in context["events"]:
        if event[0] == "move":
            _, step, giver, taker, tag, hand, steal = event
            if tag is None:
                continue
            if player != giver and player != taker and not dict(hand)[tag] & bit and tag not in kept:
                attribute(tag, hand)
            if steal:
                steals.setdefault(label.get(tag, tag), []).append(step)
        else:
            _, step, holder, gone, hand = event
            if holder == player:
                continue
            masks = dict(hand)
            for i, tag in enumerate(gone):
                if not masks[tag] & bit and tag not in kept:
                    attribute(tag, hand, gone[:i])
    return label, value, steals


def redealt_outcomes(
    context: dict, player: int, rng, kitten: int, defuse: int, kept=frozenset()
) -> dict | None:
    """step -> card: the chance outcomes a world rewrites, drawn afresh for each attempt.
    (None: the slots cannot be filled, a rejected attempt.)

    First the deal steps ``attributed_labels`` exchanged. Then the cards ``player`` has never
    known (``context["ever"]``), wherever they are now, re-dealt uniformly into their slots,
    each written on the deal step the slot stands for. A card dealt at the opening is neither
    a ``kitten`` nor a ``defuse`` (both are shuffled in after the deal) and no hand holds a
    kitten: slots are filled in that order (opening deal steps in hands, other hand cards,
    deck-top cards), each with a uniformly drawn card it may hold, which is uniform over the
    placements meeting these constraints (nested sets). Last, each steal's chance step takes
    the card now dealt at the step of the card it took. Cards ``player`` has known keep their
    value, even where their knowledge mask no longer holds ``player`` (re-dealing them would
    make the replay refuse every world whose re-deal differed from what the player had seen:
    see ``sample``); so do unseen cards no step dealt (a starting Defuse, a
    kitten put back), and those tagged in ``kept``: the cards a Favor between two other players
    handed over, when ``sample`` keeps the real hidden choices (the kept Give names the card).
    """
    label, value, steals = attributed_labels(context, player, rng, kitten, defuse, kept)
    history = context["history"]
    tagged = context["tagged"]
    ever = context["ever"]
    bit = 1 << player
    opening = len(context["opening"])
    pool = list(tagged.pool)
    slots = []  # (order, deal step)
    for hand in tagged.hands:
        for card in hand:
            if isinstance(card, tt.Drawn) and not ever.get(card.origin, 0) & bit and card.origin not in kept:
                step = label.get(card.origin, card.origin)
                slots.append((0 if step < opening else 1, step))
                pool[card] += 1
    for card in tagged.top:
        if isinstance(card, tt.Drawn) and not ever.get(card.origin, 0) & bit:
            slots.append((2, card.origin))
            pool[card] += 1
    cards = tt.shuffled_cards(pool, rng)
    banned = ({kitten, defuse}, {kitten}, set())
    changes = {step: card for step, card in value.items() if card != history[step]}
    for order, step in sorted(slots):
        i = next((i for i, c in enumerate(cards) if c not in banned[order]), None)
        if i is None:  # unreachable (the real cards fill the slots); never the real cards
            return None
        changes[step] = cards.pop(i)
    for step, taken in steals.items():
        card = changes.get(step, history[step])
        for steal in taken:
            if card != history[steal]:
                changes[steal] = card
    return changes


RETRIES = 20  # redraws of one hidden choice that later steps refuse, before a restart
ATTEMPTS = 100  # attempts with hidden choices redrawn, then as many keeping them (see sample)


def sample(game, context: dict, player: int, rng, hidden_move) -> list[int]:
    """A consistent history (``world_history`` until one is accepted). Fallbacks, rare (see
    the module docstring): after ``ATTEMPTS`` refusals the hidden choices keep their real
    values (the unseen cards are still re-dealt, except a card a kept hidden Give handed over:
    the Give names it, ``given_out_of_sight``), and after as many again the real history
    itself is returned (``real_history``: a world that is the truth). The real history was
    returned in none of 8,590 worlds of 4-player games after a See the Future and none of
    2,008 worlds of random 2-4 player states (``redealt_outcomes`` keeps the cards the player
    has seen, and the kept Give's card).
    ``tests/games/exploding_kittens/test_exploding_kittens.py`` fails if its states ever reach it."""
    for _ in range(ATTEMPTS):
        actions = world_history(game, context, player, rng, hidden_move)
        if actions is not None:
            return actions
    kept = given_out_of_sight(context, player)
    for _ in range(ATTEMPTS):
        actions = world_history(game, context, player, rng, lambda kernel, player: False, kept)
        if actions is not None:
            return actions
    return real_history(context)


def given_out_of_sight(context: dict, player: int) -> frozenset:
    """Tags of the cards a Favor between two players other than ``player`` handed over."""
    return frozenset(
        tag
        for kind, _, giver, taker, tag, _, steal in (e for e in context["events"] if e[0] == "move")
        if not steal and tag is not None and player not in (giver, taker)
    )


def real_history(context: dict) -> list[int]:
    """The last resort of ``sample``: the real history, a world that is the truth (see
    ``sample``; a test fails if its states ever reach it)."""
    return list(context["history"])


def world_history(game, context: dict, player: int, rng, hidden_move, kept=frozenset()) -> list[int] | None:
    """One attempt: a history ``player`` cannot tell from the real one, or None (rejected).

    ``hidden_move(kernel, player)``: whether the move now to be made is a choice ``player``
    does not see (redrawn uniformly among the legal moves). A hidden choice that later steps
    refuse is redrawn from there up to ``RETRIES`` times. ``kept``: tags of cards that keep
    their value (``redealt_outcomes``). See the module docstring.
    """
    views = real_views(game, context, player)
    changes = redealt_outcomes(context, player, rng, *context["kitten_defuse"], kept)
    if changes is None:
        return None
    kernel = game.new_kernel()
    out: list[int] = []
    _feed(kernel, out, _rewritten(context["opening"], 0, changes), None, rng)
    segments = context["segments"]
    saved = None  # [segment index, kernel, moves so far, retries] at the last hidden choice
    i = 0
    while i < len(segments):
        step, mover, action, after = segments[i]
        hidden = False
        ok = not kernel.is_terminal() and kernel.current_player() == mover
        if ok and mover == player:
            ok = kernel.information_state_string(player) == views[step]
        if ok:
            legal = kernel.legal_actions()
            hidden = hidden_move(kernel, player)
            ok = hidden or action in legal
        if not ok:
            if saved is None or saved[3] >= RETRIES:
                return None
            saved[3] += 1
            i, kernel, out = saved[0], saved[1].copy(), out[: saved[2]]
            continue
        if hidden:
            if saved is None or saved[0] != i:
                saved = [i, kernel.copy(), len(out), 0]
            action = legal[min(int(rng.random() * len(legal)), len(legal) - 1)]
        kernel.apply(action)
        out.append(action)
        drawn = context["drawn"].get(step)
        if isinstance(drawn, tt.Drawn):  # the card this Draw took from the fixed top, as dealt here
            drawn = changes.get(drawn.origin, int(drawn))
        _feed(kernel, out, _rewritten(after, step + 1, changes), drawn, rng)
        i += 1
    if kernel.information_state_string(player) != views[-1]:
        return None
    return out


def _rewritten(values: list[int], first: int, changes: dict) -> list[int]:
    """Real outcomes at steps first, first + 1, ... with the re-dealt cards written in."""
    return [changes.get(first + i, v) for i, v in enumerate(values)]


def _feed(kernel, out: list[int], values: list[int], drawn: int | None, rng) -> None:
    """Play the chance steps ``kernel`` needs now: ``values`` in order while possible (then a
    Draw's real card ``drawn``, then draws from the chance distribution)."""
    i = 0
    while not kernel.is_terminal() and kernel.current_player() == tt.CHANCE:
        value = values[i] if i < len(values) else drawn
        i += 1
        if value is None or not kernel.chance_possible(value):
            value = sample_chance(kernel, rng)
        kernel.apply(value)
        out.append(value)
