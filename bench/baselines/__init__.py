"""Independent competent players per game, written from the rules: the ladder's measuring instrument."""
