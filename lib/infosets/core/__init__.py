"""The bottom layer: what games, search, learning, filtering and the papers all share.

Every paper of the library draws its randomness, its chance outcomes and its card sets the
same way, and every search calls states through one protocol. Those pieces live here, and this
package imports nothing else from ``infosets``:

* ``rng``: the keyword ``rng`` and its one coercion, named child seeds (``named_child``);
* ``pcg32``: PCG32, bit-identical in Python and in numba-jitted code (the compiled engine);
* ``numba_cache``: one on-disk cache stamp for the compiled engine and its game kernels;
* ``chance``: drawing a chance outcome by its probabilities;
* ``bitmask``: card sets as int bitmasks;
* ``search_state``: the ``SearchState`` protocol that every search calls;
* ``files``: atomic file writes (each writer renames its own temporary file);
* ``allocator``: glibc keeps freed memory, so a search reuses the pages of the one before.

The layers above, each importing only from those below it: ``games``; ``search``,
``learning`` and ``filtering``; ``experiments``; ``play``; ``papers``
(tests/project/test_layers.py holds the rule).
"""
