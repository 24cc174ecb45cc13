"""Traffic simulator: realistic poker events with injected violations and their truth."""
