"""Pure policy: findings become flags, flags become actions; and the one pipeline all modes run."""
