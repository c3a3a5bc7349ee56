"""Search algorithms for imperfect-information games: PIMC, open-loop MCTS, IS-MCTS, PI-MCTS."""
