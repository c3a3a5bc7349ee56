"""Regret minimisation, CFR on information maps, and progressive hiding (Heymann & Lanctot 2025)."""
