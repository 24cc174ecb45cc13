"""railbird: trust-and-safety pipeline for online poker. This package is the composition root."""
