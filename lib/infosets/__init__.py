"""infosets: a reproducible companion to five papers on search and learning with hidden information.

Built on OpenSpiel. Subpackages: ``games`` (games we add and determinizers), ``search``
(PIMC, open-loop MCTS, IS-MCTS, PI-MCTS), ``learning`` (regret minimisation, CFR, progressive
hiding), ``filtering`` (MCMC history filtering), ``experiments`` (config, runner, store) and
``papers`` (one module per paper). See README.md for the paper map.
"""

__version__ = "0.1.0"
