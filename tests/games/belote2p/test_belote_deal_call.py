"""The fair-deal count of Belote's kernel (``games/belote2p/kernel.py``), called out of line.

Boudier's two-player Belote (docs/papers/belote_ismcts.md) deals with the exact fair-deal
probabilities. The kernel counts them in one C function (``_deal_outcomes_c``) that its callers
reach by symbol, so that numba does not compile a copy of the count into every engine
function. These tests hold the call to what it replaced: the same outcomes as the former Python
count (``next_card_probabilities``, frozen in ``oracle.py``), the same error, and no copy of the
count in a caller.
"""

import numba as nb
import numpy as np
import pytest
from numba.core.errors import TypingError
from oracle_checks import load_oracle

from infosets.games.belote2p import deal as deal_lib
from infosets.games.belote2p import kernel as K

oracle = load_oracle(__file__)


def _outcomes(s):
    actions, probs = np.zeros(K.NUM_CARDS, np.int64), np.zeros(K.NUM_CARDS)
    n = K.nb_chance_outcomes(s, actions, probs)
    return list(zip(actions[:n].tolist(), probs[:n].tolist()))


@pytest.mark.parametrize("dealt", [0, 5, 15, 16, 20, 31])
def test_chance_outcomes_are_the_python_deal_probabilities(dealt):
    rng = np.random.default_rng(dealt)
    deal = deal_lib.fair_deal(rng)
    s = K.array_from_history(list(deal[:dealt]))
    expected = oracle.next_card_probabilities(list(deal[:dealt]), oracle.DealConstraint())
    assert _outcomes(s) == expected  # equal floats: the same counts divided the same way


def test_a_deal_without_fair_completion_raises_like_the_python_deal():
    trumps = [c for c in range(K.NUM_CARDS) if K._IS_TRUMP[c]]
    partial = trumps[:7]  # the first side holds 7 trumps: the other cannot get 2
    with pytest.raises(ValueError, match="no fair completion"):
        oracle.next_card_probabilities(partial, oracle.DealConstraint())
    with pytest.raises(ValueError, match="no fair completion"):
        _outcomes(K.array_from_history(partial))


def test_a_caller_holds_no_copy_of_the_count():
    """The IR of a fresh compile of ``nb_chance_outcomes`` (its module after numba linked in
    what it calls) declares the count's symbol and defines no ``_deal_outcomes``."""
    fresh = nb.njit(K.nb_chance_outcomes.py_func)
    s = K.new_state()
    fresh(s, np.zeros(K.NUM_CARDS, np.int64), np.zeros(K.NUM_CARDS))
    (llvm_ir,) = fresh.inspect_llvm().values()
    assert f"declare i64 @{K._DEAL_SYMBOL}(" in llvm_ir
    assert "_deal_outcomes" not in llvm_ir.replace(K._DEAL_SYMBOL, "")


def test_the_call_takes_only_contiguous_vectors():
    call = nb.njit(lambda s, actions, probs: K._deal_outcomes_call(s, actions, probs))
    s = K.new_state()
    with pytest.raises(TypingError, match="C-contiguous"):
        call(s, np.zeros(2 * K.NUM_CARDS, np.int64)[::2], np.zeros(K.NUM_CARDS))
