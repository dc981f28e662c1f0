"""A match's score with its 95% interval, and the Elo differences they mean:
one place for the scripts of this folder (match.py, ab.py)."""

import math


def elo(score):
    """The Elo difference a score (0..1) means; clamped at 0.1% and 99.9%."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def interval(wins, draws, losses):
    """(score, half width of its 95% interval) over the games, from the
    spread of the per-game scores (1, 1/2, 0) around their mean; None for no games."""
    n = wins + draws + losses
    if n == 0:
        return None
    score = (wins + draws / 2) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    return score, 1.96 * math.sqrt(var / n)
