"""Full-support ``oh_hell`` policies from independent tabular Q-learning, and their reach.

Solinas, Rebstock, Sturtevant, Buro, "History Filtering in Imperfect Information Games"
(arXiv 2311.14651), section 5.4: "ranges are constructed using policies learned via
independent Q-learning". The supplementary hyperparameters are not recoverable, so:

- Each player learns its own table (independent learners) by one-step Q-learning
  (gamma = 1, terminal reward = its ``oh_hell`` return / max return) under epsilon-greedy
  self-play on a lean integer copy of the ``oh_hell`` rules.
- The table is keyed by an abstraction of the information state joined with the action
  (``bid_key`` / ``card_key``): trumps and high cards held for a bid; trick position, bid
  status, trump, whether the card beats the trick so far and its rank tercile for a play.
  The abstraction is a function of the information state, so the result is a policy.
- The policy is ``softmax(Q / temperature)`` over legal actions: full support for every
  temperature > 0.

``OhHellRange`` gives the unnormalised log reach of a deal under the joint policy for a fixed
public state; it factorises over players (each player's actions depend only on their own
hand and public information) and caches each factor per hand, so its memory grows with the
number of distinct hands, not with |H_S|.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

from infosets.core.files import atomic_write_text
from infosets.core.rng import as_random
from infosets.filtering.public_state import MADE_BID_BONUS, OhHellPublicState, bits

# --------------------------------------------------------------------------- features


def rank_tercile(card: int, num_suits: int, cards_per_suit: int) -> int:
    return (card // num_suits) * 3 // cards_per_suit


def bid_key(num_tricks, position, hand, trump_suit, num_suits, cards_per_suit, bid):
    """Abstract (infostate, bid) key: tricks, bidding position, trumps and highs held."""
    trumps = highs = 0
    for c in bits(hand):
        if c % num_suits == trump_suit:
            trumps += 1
        if rank_tercile(c, num_suits, cards_per_suit) == 2:
            highs += 1
    return ("B", num_tricks, position, min(trumps, 3), min(highs, 3), bid)


def beats(card, win_card, trump_suit, num_suits) -> bool:
    suit, ws = card % num_suits, win_card % num_suits
    if suit == ws:
        return card // num_suits > win_card // num_suits
    return suit == trump_suit


def card_key(position, status, card, win_card, trump_suit, num_suits, cards_per_suit):
    """Abstract (infostate, card) key.

    status: -1 already over the bid, 0 exactly on it, 1 still needs tricks.
    """
    wins = 1 if win_card is None else int(beats(card, win_card, trump_suit, num_suits))
    return (
        "P",
        position,
        status,
        int(card % num_suits == trump_suit),
        wins,
        rank_tercile(card, num_suits, cards_per_suit),
    )


def legal_cards(hand: int, led_suit, num_suits: int) -> list[int]:
    cards = bits(hand)
    if led_suit is None:
        return cards
    follow = [c for c in cards if c % num_suits == led_suit]
    return follow or cards


def legal_bids(num_tricks, bids_so_far, num_players) -> list[int]:
    if len(bids_so_far) == num_players - 1:
        forbidden = num_tricks - sum(bids_so_far)
        return [b for b in range(num_tricks + 1) if b != forbidden]
    return list(range(num_tricks + 1))


# --------------------------------------------------------------------------- policy


@dataclass
class SoftmaxQPolicy:
    """softmax(Q / temperature) over legal actions; one Q table per player."""

    tables: list[dict]
    temperature: float

    def __post_init__(self):
        if not self.temperature > 0:
            raise ValueError(
                f"temperature: {self.temperature} gives a policy without full support; "
                "must be > 0"
            )

    def probs(self, player: int, keys: list) -> list[float]:
        table, tau = self.tables[player], self.temperature
        qs = [table.get(k, 0.0) / tau for k in keys]
        top = max(qs)
        ws = [math.exp(q - top) for q in qs]
        total = sum(ws)
        return [w / total for w in ws]

    def log_prob(self, player: int, keys: list, chosen: int) -> float:
        table, tau = self.tables[player], self.temperature
        qs = [table.get(k, 0.0) / tau for k in keys]
        top = max(qs)
        return qs[chosen] - top - math.log(sum(math.exp(q - top) for q in qs))


class UniformPolicy(SoftmaxQPolicy):
    """The uniform policy (every Q = 0)."""

    def __init__(self, num_players: int):
        super().__init__([{} for _ in range(num_players)], 1.0)


# --------------------------------------------------------------------------- lean game


@dataclass(frozen=True)
class OhHellSpec:
    num_players: int
    num_suits: int
    num_cards_per_suit: int
    num_tricks: int

    @property
    def num_cards(self):
        return self.num_suits * self.num_cards_per_suit


def play_episode(spec: OhHellSpec, choose, rand):
    """Play one ``oh_hell`` game on integers; returns (returns, decisions per player).

    choose(player, keys, rand) -> index picks an action; decisions[p] is a list of
    (keys, chosen index).
    """
    n, suits, cps, T = spec.num_players, spec.num_suits, spec.num_cards_per_suit, spec.num_tricks
    deck = list(range(spec.num_cards))
    rand.shuffle(deck)
    hands = [0] * n
    for i in range(n * T):
        hands[i % n] |= 1 << deck[i]
    trump = deck[n * T]
    trump_suit = trump % suits
    dealer = rand.randrange(n)
    decisions = [[] for _ in range(n)]
    bids = []
    for pos in range(n):
        p = (dealer + 1 + pos) % n
        options = legal_bids(T, bids, n)
        keys = [bid_key(T, pos, hands[p], trump_suit, suits, cps, b) for b in options]
        i = choose(p, keys, rand)
        decisions[p].append((keys, i))
        bids.append(options[i])
    bid_of = [0] * n
    for pos, b in enumerate(bids):
        bid_of[(dealer + 1 + pos) % n] = b
    won = [0] * n
    leader = (dealer + 1) % n
    for _ in range(T):
        led = win_card = None
        win_player = leader
        for pos in range(n):
            p = (leader + pos) % n
            status = _status(won[p], bid_of[p])
            cards = legal_cards(hands[p], led, suits)
            keys = [card_key(pos, status, c, win_card, trump_suit, suits, cps) for c in cards]
            i = choose(p, keys, rand)
            decisions[p].append((keys, i))
            card = cards[i]
            hands[p] &= ~(1 << card)
            if pos == 0:
                led, win_card = card % suits, card
            elif beats(card, win_card, trump_suit, suits):
                win_card, win_player = card, p
        won[win_player] += 1
        leader = win_player
    returns = [won[p] + (MADE_BID_BONUS if won[p] == bid_of[p] else 0) for p in range(n)]
    return returns, decisions


def _status(won: int, bid: int) -> int:
    return 1 if won < bid else (0 if won == bid else -1)


# --------------------------------------------------------------------------- Q-learning


def train_q_tables(spec: OhHellSpec, episodes: int, rng, alpha=0.05, epsilon=0.2):
    """Independent one-step tabular Q-learning in self-play (epsilon-greedy behaviour).

    Args:
      rng: numpy Generator, SeedSequence or int seed (``infosets.core.rng.as_random``).
    Returns:
      One dict per player: abstract key -> Q value (returns scaled to [0, 1]).
    """
    if episodes < 0:
        raise ValueError(f"episodes: {episodes} must be >= 0")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon: {epsilon} must be in [0, 1]")
    rand = as_random(rng)
    tables = [{} for _ in range(spec.num_players)]
    scale = spec.num_tricks + MADE_BID_BONUS

    def choose(p, keys, r):
        if r.random() < epsilon:
            return r.randrange(len(keys))
        table = tables[p]
        qs = [table.get(k, 0.0) for k in keys]
        best = max(qs)
        return r.choice([i for i, q in enumerate(qs) if q == best])

    for _ in range(episodes):
        returns, decisions = play_episode(spec, choose, rand)
        for p, seq_p in enumerate(decisions):
            table = tables[p]
            for t, (keys, i) in enumerate(seq_p):
                if t + 1 < len(seq_p):
                    nxt = seq_p[t + 1][0]
                    target = max(table.get(k, 0.0) for k in nxt)
                else:
                    target = returns[p] / scale
                q = table.get(keys[i], 0.0)
                table[keys[i]] = q + alpha * (target - q)
    return tables


def cached_policy(spec: OhHellSpec, episodes: int, temperature: float, seed: int,
                  cache_dir: str | Path | None = None) -> SoftmaxQPolicy:
    """Train (or load from ``cache_dir``) the Q tables; wrap them in a softmax policy."""
    if not temperature > 0:
        raise ValueError(f"temperature: {temperature} gives no full support; must be > 0")
    tag = json.dumps([spec.__dict__, episodes, seed, 1], sort_keys=True)
    name = hashlib.sha1(tag.encode()).hexdigest()[:16]
    path = Path(cache_dir) / f"qtables_{name}.json" if cache_dir else None
    if path is not None and path.exists():
        raw = json.loads(path.read_text())
        tables = [{tuple(json.loads(k)): v for k, v in t.items()} for t in raw]
    else:
        tables = train_q_tables(spec, episodes, seed)
        if path is not None:  # each writer its own temporary file: two workers may train at once
            atomic_write_text(path, json.dumps([{json.dumps(k): v for k, v in t.items()}
                                                for t in tables]))
    return SoftmaxQPolicy(tables, temperature)


# --------------------------------------------------------------------------- reach


class OhHellRange:
    """Unnormalised joint range of a public state: log P(h) up to the constant chance factor.

    log P(h) = sum_p log P_p(hand_p): player p's factor is the product of the policy's
    probabilities of p's bid and plays in S, which depend only on p's hand and S.
    """

    def __init__(self, ps: OhHellPublicState, policy: SoftmaxQPolicy, max_cache: int = 1 << 20):
        self.ps = ps
        self.policy = policy
        self.max_cache = max_cache
        self.cache = [{} for _ in range(ps.num_players)]
        self.evaluations = 0
        n = ps.num_players
        self._bid_ctx = []  # (player, position, bids so far, chosen bid)
        for pos, b in enumerate(ps.bids):
            self._bid_ctx.append(((ps.dealer + 1 + pos) % n, pos, ps.bids[:pos], b))
        bid_of = [0] * n
        for pos, b in enumerate(ps.bids):
            bid_of[(ps.dealer + 1 + pos) % n] = b
        self._play_ctx = [[] for _ in range(n)]  # per player: (position, status, led, win, card)
        won = [0] * n
        suits, trump_suit = ps.num_suits, ps.trump_suit
        win_card = win_player = None
        for i, (p, card, led, _) in enumerate(ps.play_sequence()):
            pos = i % n
            if pos == 0:
                win_card = None
            self._play_ctx[p].append((pos, _status(won[p], bid_of[p]), led, win_card, card))
            if pos == 0 or beats(card, win_card, trump_suit, suits):
                win_card, win_player = card, p
            if pos == n - 1:
                won[win_player] += 1

    def player_log_reach(self, player: int, hand: int) -> float:
        cache = self.cache[player]
        value = cache.get(hand)
        if value is not None:
            return value
        self.evaluations += 1
        ps, pol = self.ps, self.policy
        suits, cps, trump_suit = ps.num_suits, ps.num_cards_per_suit, ps.trump_suit
        total = 0.0
        for p, pos, before, bid in self._bid_ctx:
            if p != player:
                continue
            options = legal_bids(ps.num_tricks, list(before), ps.num_players)
            keys = [bid_key(ps.num_tricks, pos, hand, trump_suit, suits, cps, b) for b in options]
            total += pol.log_prob(player, keys, options.index(bid))
        now = hand
        for pos, status, led, win_card, card in self._play_ctx[player]:
            cards = legal_cards(now, led, suits)
            if card not in cards:
                total = -math.inf
                break
            keys = [card_key(pos, status, c, win_card, trump_suit, suits, cps) for c in cards]
            total += pol.log_prob(player, keys, cards.index(card))
            now &= ~(1 << card)
        if len(cache) >= self.max_cache:
            cache.clear()
        cache[hand] = total
        return total

    def log_reach(self, hands) -> float:
        total = 0.0
        for p, hand in enumerate(hands):
            value = self.cache[p].get(hand)
            total += self.player_log_reach(p, hand) if value is None else value
        return total


def decision_keys(ps: OhHellPublicState, player: int, hand_now: int):
    """The legal actions and their abstract keys for ``player``'s next decision after ``ps``.

    ``hand_now`` is the player's current hand. Returns (OpenSpiel actions, keys).
    """
    n, suits, cps = ps.num_players, ps.num_suits, ps.num_cards_per_suit
    if len(ps.bids) < n:
        options = legal_bids(ps.num_tricks, list(ps.bids), n)
        keys = [bid_key(ps.num_tricks, len(ps.bids), hand_now, ps.trump_suit, suits, cps, b)
                for b in options]
        return [b + ps.num_cards for b in options], keys
    bid_of = [0] * n
    for pos, b in enumerate(ps.bids):
        bid_of[(ps.dealer + 1 + pos) % n] = b
    won = [0] * n
    win_card = win_player = led = None
    pos = 0
    for i, (p, card, _led, _) in enumerate(ps.play_sequence()):
        pos = i % n
        if pos == 0:
            win_card, win_player, led = card, p, card % suits
        elif beats(card, win_card, ps.trump_suit, suits):
            win_card, win_player = card, p
        if pos == n - 1:
            won[win_player] += 1
            win_card = led = None
    pos = len(ps.plays) % n
    cards = legal_cards(hand_now, led, suits)
    keys = [card_key(pos, _status(won[player], bid_of[player]), c, win_card, ps.trump_suit,
                     suits, cps) for c in cards]
    return cards, keys
