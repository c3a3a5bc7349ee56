"""History filtering by MCMC in trick-taking games (Solinas, Rebstock, Sturtevant, Buro)."""
