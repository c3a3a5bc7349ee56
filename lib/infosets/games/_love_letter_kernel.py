"""Numba kernel of the ``love_letter`` port for the compiled search engine.

Serves the compiled PI-MCTS / IS-MCTS engine of Ravichandran, Goodman and Lucas, "PIMCTS
evaluation in tabletop games" (docs/papers/pimcts_aggregation.md). The readable reference is
``infosets.games.love_letter.LoveLetterKernel``: this module runs the same rules, action ids
(``love_letter.encode``), chance outcomes (card types of the pool, in type order, probability
count / total), returns (win shares of the affection tokens) and determinization law, on a
flat int64 array (contract in ``infosets.games.kernels``).

State array (``n`` players, 2..4), header then fixed blocks:
  [0] n, [1] player to move, [2] Prince-draw turn owner (-1: none), [3] game over,
  [4] tokens to win, [5] draw-queue length, [6] log entries, [7] running hash of the log,
  [8] face-up removed cards, [9] log capacity;
  ``TOKENS`` 4; ``POOL`` 8 counts (deck plus the face-down removed card); ``ALIVE`` 4;
  ``IMMUNE`` 4; ``FACE_UP`` 3; ``QUEUE`` who receives the next chance draws (-2: face up);
  ``HAND_LEN`` 4; ``HANDS`` 4 x 2 cards in hand order; ``SEEN`` 4 x 2 observer bitmasks;
  the public record of each hand slot (``love_letter``'s module docstring): ``ALLOW`` 4 x 2
  type bitmasks, ``LINK`` 4 x 2 tie-group labels, ``VIEWS`` 4 x 2 x 8 observer bitmasks (the
  ``seen`` of the slot's card were it of type t); ``DISC_LEN`` 4; ``DISCARDS`` 4 x 16 in
  order; ``LOG`` the public log, one entry each: ``(mover * NUM_ACTIONS + action) * 16 +
  outcome`` (outcome: index in ``love_letter.LOG_OUTCOMES``) or, for a round's end, minus
  the bitmask of its winners.

The array holds exactly the reference kernel's fields (``array_from_kernel`` /
``kernel_from_array`` convert both ways without replaying moves).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from infosets.core.pcg32 import rng_bounded
from infosets.games import love_letter as ll

CHANCE = -1
TERMINAL = -4
NT = ll.NUM_TYPES
MP = ll.MAX_PLAYERS
NUM_ACTIONS = ll.NUM_ACTIONS
GUARD, PRIEST, BARON, HANDMAID, PRINCE, KING, COUNTESS, PRINCESS = range(NT)
FACE_UP_MARK = ll.FACE_UP
HIT, MISS, TIE, OUT, REDRAW, OUT0 = 1, 2, 3, 4, 5, 6  # indices in ll.LOG_OUTCOMES
assert ll.LOG_OUTCOMES[OUT0] == "out0" and ll.LOG_OUTCOMES[REDRAW] == "redraw"
DECK_COUNTS = np.array(ll.DECK_COUNTS, dtype=np.int64)
MAX_DISCARDS = 16
QUEUE_CAP = 12
LOG_PER_ROUND = 20  # at most 15 plays and one end-of-round entry
LEAD_SCALE = 1.0  # the heuristic's lead scale, in affection tokens

N, CUR, AFTER_DRAW, DONE, TOKENS_TO_WIN, QUEUE_LEN, LOG_LEN, LOG_HASH, FACE_UP_LEN, LOG_CAP = range(10)
TOKENS = 10
POOL = TOKENS + MP
ALIVE = POOL + NT
IMMUNE = ALIVE + MP
FACE_UP = IMMUNE + MP
QUEUE = FACE_UP + 3
HAND_LEN = QUEUE + QUEUE_CAP
HANDS = HAND_LEN + MP
SEEN = HANDS + 2 * MP
ALLOW = SEEN + 2 * MP
LINK = ALLOW + 2 * MP
VIEWS = LINK + 2 * MP
DISC_LEN = VIEWS + 2 * MP * NT
ANY_CARD = ll.ANY_CARD
MAX_DEALS = ll.MAX_DEALS
DISCARDS = DISC_LEN + MP
LOG = DISCARDS + MAX_DISCARDS * MP


def new_state(n: int, tokens_to_win: int) -> np.ndarray:
    """The initial state array (a round about to be dealt, player 0 first)."""
    if not 2 <= n <= MP:
        raise ValueError(f"players: must be in [2, {MP}], got {n}")
    cap = LOG_PER_ROUND * (n * (tokens_to_win - 1) + 1)
    s = np.zeros(LOG + cap, dtype=np.int64)
    s[N], s[TOKENS_TO_WIN], s[LOG_CAP] = n, tokens_to_win, cap
    _start_round(s, 0)
    return s


@nb.njit(cache=True)
def _mix(h, v):
    """One step of the running hash (multiply-xorshift; int64 arithmetic wraps)."""
    h = (h ^ (v + 0x9E3779B9)) * 0x5851F42D4C957F2D
    return h ^ (h >> 29)


@nb.njit(cache=True)
def _start_round(s, first):
    n = s[N]
    for t in range(NT):
        s[POOL + t] = DECK_COUNTS[t]
    for p in range(MP):
        s[ALIVE + p] = 1 if p < n else 0
        s[IMMUNE + p] = 0
        s[HAND_LEN + p] = 0
        s[DISC_LEN + p] = 0
    s[FACE_UP_LEN] = 0
    q = 0
    if n == 2:
        for _ in range(3):
            s[QUEUE + q] = FACE_UP_MARK
            q += 1
    for p in range(n):
        s[QUEUE + q] = p
        q += 1
    s[QUEUE + q] = first
    s[QUEUE_LEN] = q + 1
    s[CUR] = first
    s[AFTER_DRAW] = -1


@nb.njit(cache=True)
def _deck_size(s):
    total = 0
    for t in range(NT):
        total += s[POOL + t]
    return total - 1


@nb.njit(cache=True)
def nb_current_player(s):
    if s[DONE]:
        return TERMINAL
    if s[QUEUE_LEN] > 0:
        return CHANCE
    return s[CUR]


@nb.njit(cache=True)
def nb_chance_outcomes(s, actions, probs):
    """Draw one card of the pool: each type with probability count / total."""
    total = 0
    for t in range(NT):
        total += s[POOL + t]
    n = 0
    for t in range(NT):
        c = s[POOL + t]
        if c > 0:
            actions[n] = t
            probs[n] = c / total
            n += 1
    return n


@nb.njit(cache=True)
def _encode(card, target, guess):
    return (card * MP + target) * 8 + guess


@nb.njit(cache=True)
def nb_legal_actions(s, buf):
    """Legal actions in ascending order (card types of the pool at chance nodes)."""
    if s[DONE]:
        return 0
    if s[QUEUE_LEN] > 0:
        n = 0
        for t in range(NT):
            if s[POOL + t] > 0:
                buf[n] = t
                n += 1
        return n
    p = s[CUR]
    has = 0  # bitmask of the card types in hand
    for i in range(s[HAND_LEN + p]):
        has |= 1 << s[HANDS + 2 * p + i]
    if has >> COUNTESS & 1 and (has >> KING & 1 or has >> PRINCE & 1):
        has = 1 << COUNTESS
    any_target = False
    for q in range(s[N]):
        if q != p and s[ALIVE + q] and not s[IMMUNE + q]:
            any_target = True
    n = 0
    # Ascending ids: card-major, then target, then guess (the encoding's order).
    for c in range(NT):
        if not has >> c & 1:
            continue
        targeted = c == GUARD or c == PRIEST or c == BARON or c == KING
        for t in range(s[N]):
            valid = t != p and s[ALIVE + t] and not s[IMMUNE + t]
            if c == GUARD:
                if valid:
                    for g in range(1, NT):
                        buf[n] = _encode(c, t, g)
                        n += 1
                elif t == p and not any_target:
                    buf[n] = _encode(c, p, 0)
                    n += 1
            elif targeted:
                if valid or (t == p and not any_target):
                    buf[n] = _encode(c, t, 0)
                    n += 1
            elif c == PRINCE:
                if valid or t == p:
                    buf[n] = _encode(c, t, 0)
                    n += 1
            elif t == p:
                buf[n] = _encode(c, p, 0)
                n += 1
    return n


@nb.njit(cache=True)
def _log(s, entry):
    s[LOG + s[LOG_LEN]] = entry
    s[LOG_LEN] += 1
    s[LOG_HASH] = _mix(s[LOG_HASH], entry)


@nb.njit(cache=True)
def _swap_slots(s, a, b):
    """Exchange hand slots ``a`` and ``b`` (2 * holder + index) with their fields."""
    for base in (HANDS, SEEN, ALLOW, LINK):
        s[base + a], s[base + b] = s[base + b], s[base + a]
    for t in range(NT):
        s[VIEWS + NT * a + t], s[VIEWS + NT * b + t] = s[VIEWS + NT * b + t], s[VIEWS + NT * a + t]


@nb.njit(cache=True)
def _observe(s, k, bits):
    """``bits`` see the card of hand slot ``k``."""
    s[SEEN + k] |= bits
    for t in range(NT):
        s[VIEWS + NT * k + t] |= bits


@nb.njit(cache=True)
def _reveal(s, label, card):
    """A card of tie group ``label`` left the hands as ``card``: its group is of that type."""
    if label == 0:
        return
    for q in range(s[N]):
        for i in range(s[HAND_LEN + q]):
            if s[LINK + 2 * q + i] == label:
                s[ALLOW + 2 * q + i] &= 1 << card


@nb.njit(cache=True)
def _pop_last(s, q):
    """Take ``q``'s last card out of the hand (``LoveLetterKernel._pop_card``)."""
    last = s[HAND_LEN + q] - 1
    s[HAND_LEN + q] = last
    card = s[HANDS + 2 * q + last]
    _reveal(s, s[LINK + 2 * q + last], card)
    return card


@nb.njit(cache=True)
def _tie(s, p, q):
    """A Baron tie: ``p``'s and ``q``'s cards join one tie group (``LoveLetterKernel._tie``)."""
    a, b = s[LINK + 2 * p], s[LINK + 2 * q]
    label = a if a != 0 else (b if b != 0 else s[LOG_LEN] + 1)
    for r in range(s[N]):
        for i in range(s[HAND_LEN + r]):
            other = s[LINK + 2 * r + i]
            if other != 0 and (other == a or other == b):
                s[LINK + 2 * r + i] = label
    s[LINK + 2 * p] = label
    s[LINK + 2 * q] = label


@nb.njit(cache=True)
def _eliminate(s, q):
    s[ALIVE + q] = 0
    n = s[HAND_LEN + q]
    s[HAND_LEN + q] = 0
    for i in range(n):
        card = s[HANDS + 2 * q + i]
        s[DISCARDS + MAX_DISCARDS * q + s[DISC_LEN + q]] = card
        s[DISC_LEN + q] += 1
        _reveal(s, s[LINK + 2 * q + i], card)


@nb.njit(cache=True)
def _discard(s, q, card):
    s[DISCARDS + MAX_DISCARDS * q + s[DISC_LEN + q]] = card
    s[DISC_LEN + q] += 1


@nb.njit(cache=True)
def _end_round(s):
    n = s[N]
    best_card, best_sum = -1, -1
    for p in range(n):
        if s[ALIVE + p]:
            card = s[HANDS + 2 * p]
            total = 0
            for i in range(s[DISC_LEN + p]):
                total += s[DISCARDS + MAX_DISCARDS * p + i] + 1
            if card > best_card or (card == best_card and total > best_sum):
                best_card, best_sum = card, total
    mask = 0
    first = -1
    most = 0
    for p in range(n):
        if s[ALIVE + p]:
            total = 0
            for i in range(s[DISC_LEN + p]):
                total += s[DISCARDS + MAX_DISCARDS * p + i] + 1
            if s[HANDS + 2 * p] == best_card and total == best_sum:
                mask |= 1 << p
                s[TOKENS + p] += 1
                if first < 0:
                    first = p
        most = max(most, s[TOKENS + p])
    _log(s, -mask)
    if most >= s[TOKENS_TO_WIN]:
        s[DONE] = 1
        return
    _start_round(s, first)


@nb.njit(cache=True)
def _end_turn(s):
    n = s[N]
    alive = 0
    for p in range(n):
        alive += s[ALIVE + p]
    if alive == 1 or _deck_size(s) <= 0:
        _end_round(s)
        return
    q = (s[CUR] + 1) % n
    while not s[ALIVE + q]:
        q = (q + 1) % n
    s[CUR] = q
    s[IMMUNE + q] = 0
    s[QUEUE + s[QUEUE_LEN]] = q
    s[QUEUE_LEN] += 1


@nb.njit(cache=True)
def _play(s, action):
    card = action // (MP * 8)
    target = (action // 8) % MP
    guess = action % 8
    p = s[CUR]
    hp, sp = HANDS + 2 * p, SEEN + 2 * p
    # Remove the played copy: the last card if it matches, else the first match.
    if s[hp + 1] != card:
        _swap_slots(s, 2 * p, 2 * p + 1)
    _pop_last(s, p)
    if s[hp] == card:  # observers cannot tell which copy was kept
        s[sp] = 1 << p
    s[VIEWS + NT * 2 * p + card] = 1 << p
    if card == KING or card == PRINCE:  # legal only without the Countess
        s[ALLOW + 2 * p] &= ~(1 << COUNTESS)
    _discard(s, p, card)
    s[IMMUNE + p] = 0
    outcome = 0
    targeted = card == GUARD or card == PRIEST or card == BARON or card == KING
    ht = HANDS + 2 * target
    if target == p and targeted:
        pass
    elif card == GUARD:
        if s[ht] == guess:
            _eliminate(s, target)
            outcome = HIT
        else:
            s[ALLOW + 2 * target] &= ~(1 << guess)
            outcome = MISS
    elif card == PRIEST:
        _observe(s, 2 * target, 1 << p)
    elif card == BARON:
        mine, theirs = s[hp], s[ht]
        if mine == theirs:
            _observe(s, 2 * p, 1 << target)
            _observe(s, 2 * target, 1 << p)
            _tie(s, p, target)
            outcome = TIE
        else:
            loser, winner = (p, target) if mine < theirs else (target, p)
            low = min(mine, theirs)
            _eliminate(s, loser)
            s[ALLOW + 2 * winner] &= ANY_CARD & ~((2 << low) - 1)  # higher than ``low``
            outcome = OUT0 + loser
    elif card == KING:
        _swap_slots(s, 2 * p, 2 * target)
        both = (1 << p) | (1 << target)
        _observe(s, 2 * p, both)
        _observe(s, 2 * target, both)
    elif card == PRINCE:
        dropped = _pop_last(s, target)
        _discard(s, target, dropped)
        if dropped == PRINCESS:
            s[ALIVE + target] = 0
            outcome = OUT
        else:
            _log(s, (p * NUM_ACTIONS + action) * 16 + REDRAW)
            s[QUEUE + s[QUEUE_LEN]] = target
            s[QUEUE_LEN] += 1
            s[AFTER_DRAW] = p
            return
    elif card == HANDMAID:
        s[IMMUNE + p] = 1
    elif card == PRINCESS:
        _eliminate(s, p)
    _log(s, (p * NUM_ACTIONS + action) * 16 + outcome)
    _end_turn(s)


@nb.njit(cache=True)
def nb_apply_action(s, action):
    if s[QUEUE_LEN] > 0:
        who = s[QUEUE]
        for i in range(1, s[QUEUE_LEN]):
            s[QUEUE + i - 1] = s[QUEUE + i]
        s[QUEUE_LEN] -= 1
        s[POOL + action] -= 1
        if who == FACE_UP_MARK:
            s[FACE_UP + s[FACE_UP_LEN]] = action
            s[FACE_UP_LEN] += 1
        else:
            k = 2 * who + s[HAND_LEN + who]
            s[HANDS + k] = action
            s[SEEN + k] = 1 << who
            s[ALLOW + k] = ANY_CARD
            s[LINK + k] = 0
            for t in range(NT):
                s[VIEWS + NT * k + t] = 1 << who
            s[HAND_LEN + who] += 1
        if s[QUEUE_LEN] == 0 and s[AFTER_DRAW] >= 0:
            s[AFTER_DRAW] = -1
            _end_turn(s)
        return
    _play(s, action)


@nb.njit(cache=True)
def nb_returns(s, out):
    """Win shares of the affection tokens at the end, zeros before."""
    n = s[N]
    for p in range(n):
        out[p] = 0.0
    if not s[DONE]:
        return
    best = 0
    for p in range(n):
        best = max(best, s[TOKENS + p])
    k = 0
    for p in range(n):
        if s[TOKENS + p] == best:
            k += 1
    for p in range(n):
        if s[TOKENS + p] == best:
            out[p] = 1.0 / k


@nb.njit(cache=True)
def nb_heuristic(s, out):
    """TAG's ``LeaderHeuristic`` (its LoveLetter.json setting) on the returns' [0, 1] scale,
    with affection tokens as the game score: the lead ``d = own - best other`` maps to
    ``0.5 + 0.5 * d / (|d| + LEAD_SCALE)``. The returns at the end."""
    n = s[N]
    if s[DONE]:
        nb_returns(s, out)
        return
    for p in range(n):
        best = -1
        for q in range(n):
            if q != p and s[TOKENS + q] > best:
                best = s[TOKENS + q]
        d = float(s[TOKENS + p] - best)
        out[p] = 0.5 + 0.5 * d / (abs(d) + LEAD_SCALE)


@nb.njit(cache=True)
def nb_infostate_key(s, player):
    """A 64-bit hash of exactly what ``player``'s information state string shows: mover, deck
    size, tokens, own hand (sorted), face-up cards, each other player's state, immunity,
    seen cards (as a multiset) and unseen count, the discard piles in order, and the public
    log (by its running hash). Equal strings give equal keys; distinct strings collide with
    probability ~2**-64 per pair."""
    n = s[N]
    bit = 1 << player
    h = _mix(player, n)
    h = _mix(h, nb_current_player(s))
    h = _mix(h, _deck_size(s))
    for p in range(n):
        h = _mix(h, s[TOKENS + p])
    hp = HANDS + 2 * player
    if s[HAND_LEN + player] == 2:
        h = _mix(h, min(s[hp], s[hp + 1]) * 16 + max(s[hp], s[hp + 1]) + 1000)
    elif s[HAND_LEN + player] == 1:
        h = _mix(h, s[hp])
    else:
        h = _mix(h, -7)
    h = _mix(h, s[FACE_UP_LEN])
    for i in range(s[FACE_UP_LEN]):
        h = _mix(h, s[FACE_UP + i])
    for q in range(n):
        if q == player:
            continue
        h = _mix(h, s[ALIVE + q] * 2 + s[IMMUNE + q])
        known = np.zeros(NT, np.int64)
        hidden = 0
        for i in range(s[HAND_LEN + q]):
            if s[SEEN + 2 * q + i] & bit:
                known[s[HANDS + 2 * q + i]] += 1
            else:
                hidden += 1
        for t in range(NT):
            h = _mix(h, known[t])
        h = _mix(h, hidden)
    for q in range(n):
        h = _mix(h, -1 - s[DISC_LEN + q])
        for i in range(s[DISC_LEN + q]):
            h = _mix(h, s[DISCARDS + MAX_DISCARDS * q + i])
    h = _mix(h, s[LOG_LEN])
    return _mix(h, s[LOG_HASH])


@nb.njit(cache=True)
def _ever_seen(s, k):
    """Players who have seen hand slot ``k``'s card since it was drawn (``ever_seen``)."""
    bits = 0
    for t in range(NT):
        bits |= s[VIEWS + NT * k + t]
    return bits


@nb.njit(cache=True)
def _fits(s, k, drawn):
    """Whether slot ``k``'s card fits its ``allow`` mask and equals the cards of its tie group
    that are dealt: kept ones (not in the bitmask ``drawn``) and slots drawn before ``k``."""
    card = s[HANDS + k]
    if not s[ALLOW + k] >> card & 1:
        return False
    label = s[LINK + k]
    if label == 0:
        return True
    for q in range(s[N]):
        for i in range(s[HAND_LEN + q]):
            j = 2 * q + i
            if j != k and s[LINK + j] == label and (j < k or not drawn >> j & 1):
                if s[HANDS + j] != card:
                    return False
    return True


@nb.njit(cache=True)
def nb_determinize(s, player, rng):
    """A world for ``player`` in place, distributed as ``LoveLetterKernel.resample``: every
    hand card ``player`` has never seen (``_ever_seen``) joins the pool (deck and removed card),
    and those slots are refilled by uniform draws without replacement from it, redrawn until
    every card fits the public record (``_fits``: its ``allow`` mask, its tie group), so the
    deal is uniform among the consistent ones; a redrawn card gets the ``seen`` mask its
    type gives (``VIEWS``). The rest stays in the pool."""
    n = s[N]
    bit = 1 << player
    total = 0
    for t in range(NT):
        total += s[POOL + t]
    drawn = 0  # bitmask of the hand slots to redraw
    for q in range(n):
        for i in range(s[HAND_LEN + q]):
            k = 2 * q + i
            if not _ever_seen(s, k) & bit:
                drawn |= 1 << k
                s[POOL + s[HANDS + k]] += 1
                total += 1
    for _ in range(MAX_DEALS):
        left = total
        ok = True
        for k in range(2 * n):
            if not drawn >> k & 1:
                continue
            r = rng_bounded(rng, left)
            t = 0
            while r >= s[POOL + t]:
                r -= s[POOL + t]
                t += 1
            s[POOL + t] -= 1
            left -= 1
            s[HANDS + k] = t
            if not _fits(s, k, drawn):
                for j in range(k + 1):  # a rejected deal: its cards go back to the pool
                    if drawn >> j & 1:
                        s[POOL + s[HANDS + j]] += 1
                ok = False
                break
        if ok:
            for k in range(2 * n):
                if drawn >> k & 1:
                    s[SEEN + k] = s[VIEWS + NT * k + s[HANDS + k]]
            return
    raise RuntimeError("love_letter: no deal fits the public record (MAX_DEALS draws)")


@nb.njit(cache=True)
def _rehash_log(s):
    h = 0
    for i in range(s[LOG_LEN]):
        h = _mix(h, s[LOG + i])
    s[LOG_HASH] = h


# -- conversions (Python) -----------------------------------------------------------------

def array_from_history(history, n: int, tokens_to_win: int) -> np.ndarray:
    """The state array reached by playing ``history`` (pyspiel action ids) from the start."""
    s = new_state(n, tokens_to_win)
    for action in history:
        nb_apply_action(s, int(action))
    return s


def _log_entry(entry) -> int:
    p, card, target, guess, outcome = entry
    if p < 0:
        return -sum(1 << int(w) for w in outcome.split(":", 1)[1].split(","))
    return (p * NUM_ACTIONS + ll.encode(card, target, guess)) * 16 + ll.LOG_OUTCOMES.index(outcome)


def _log_tuple(code: int) -> tuple:
    if code < 0:
        winners = [str(p) for p in range(MP) if -code >> p & 1]
        return (-1, 0, 0, 0, "round:" + ",".join(winners))
    rest, outcome = divmod(code, 16)
    p, action = divmod(rest, NUM_ACTIONS)
    return (p, *ll.decode(action), ll.LOG_OUTCOMES[outcome])


def array_from_kernel(k: ll.LoveLetterKernel, log: bool = True) -> np.ndarray:
    """The state array holding the reference kernel's fields (no replay).

    ``log=False`` leaves the log out (empty, as at the start): such an array scores like the
    full one (``nb_heuristic`` and ``nb_returns`` read no log) at a fraction of the cost, but
    its information-state keys are wrong, so it is not a state to search from.
    """
    s = new_state(k.n, k.tokens_to_win)
    s[CUR], s[DONE] = k.cur, int(k.done)
    s[AFTER_DRAW] = -1 if k.after_draw is None else k.after_draw
    s[TOKENS:TOKENS + k.n] = k.tokens
    s[POOL:POOL + NT] = k.pool
    for p in range(MP):
        s[ALIVE + p] = int(k.alive[p]) if p < k.n else 0
        s[IMMUNE + p] = int(k.immune[p]) if p < k.n else 0
    s[FACE_UP_LEN] = len(k.face_up)
    s[FACE_UP:FACE_UP + len(k.face_up)] = k.face_up
    s[QUEUE_LEN] = len(k.queue)
    s[QUEUE:QUEUE + len(k.queue)] = k.queue
    for p in range(k.n):
        s[HAND_LEN + p] = len(k.hands[p])
        s[HANDS + 2 * p:HANDS + 2 * p + len(k.hands[p])] = k.hands[p]
        s[SEEN + 2 * p:SEEN + 2 * p + len(k.seen[p])] = k.seen[p]
        s[ALLOW + 2 * p:ALLOW + 2 * p + len(k.allow[p])] = k.allow[p]
        s[LINK + 2 * p:LINK + 2 * p + len(k.link[p])] = k.link[p]
        for i, views in enumerate(k.views[p]):
            s[VIEWS + NT * (2 * p + i):VIEWS + NT * (2 * p + i + 1)] = views
        s[DISC_LEN + p] = len(k.discards[p])
        s[DISCARDS + MAX_DISCARDS * p:DISCARDS + MAX_DISCARDS * p + len(k.discards[p])] = k.discards[p]
    if not log:
        return s
    s[LOG_LEN] = len(k.log)
    s[LOG:LOG + len(k.log)] = [_log_entry(e) for e in k.log]
    _rehash_log(s)
    return s


def kernel_from_array(s: np.ndarray) -> ll.LoveLetterKernel:
    """The reference kernel with the array's fields."""
    n = int(s[N])
    k = ll.LoveLetterKernel(n, int(s[TOKENS_TO_WIN]))
    k.cur, k.done = int(s[CUR]), bool(s[DONE])
    k.after_draw = None if s[AFTER_DRAW] < 0 else int(s[AFTER_DRAW])
    k.tokens = [int(x) for x in s[TOKENS:TOKENS + n]]
    k.pool = [int(x) for x in s[POOL:POOL + NT]]
    k.alive = [bool(x) for x in s[ALIVE:ALIVE + n]]
    k.immune = [bool(x) for x in s[IMMUNE:IMMUNE + n]]
    k.face_up = [int(x) for x in s[FACE_UP:FACE_UP + s[FACE_UP_LEN]]]
    k.queue = [int(x) for x in s[QUEUE:QUEUE + s[QUEUE_LEN]]]
    k.hands = [[int(x) for x in s[HANDS + 2 * p:HANDS + 2 * p + s[HAND_LEN + p]]] for p in range(n)]
    k.seen = [[int(x) for x in s[SEEN + 2 * p:SEEN + 2 * p + s[HAND_LEN + p]]] for p in range(n)]
    k.allow = [[int(x) for x in s[ALLOW + 2 * p:ALLOW + 2 * p + s[HAND_LEN + p]]] for p in range(n)]
    k.link = [[int(x) for x in s[LINK + 2 * p:LINK + 2 * p + s[HAND_LEN + p]]] for p in range(n)]
    k.views = [[tuple(int(x) for x in s[VIEWS + NT * (2 * p + i):VIEWS + NT * (2 * p + i + 1)])
                for i in range(s[HAND_LEN + p])] for p in range(n)]
    k.discards = [[int(x) for x in s[DISCARDS + MAX_DISCARDS * p:
                                     DISCARDS + MAX_DISCARDS * p + s[DISC_LEN + p]]] for p in range(n)]
    k.log = [_log_tuple(int(x)) for x in s[LOG:LOG + s[LOG_LEN]]]
    return k


def array_infostate_string(s: np.ndarray, player: int) -> str:
    """The adapter's ``information_state_string(player)`` of a state array."""
    return kernel_from_array(s).information_state_string(player)
