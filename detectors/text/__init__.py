"""What the chat detectors share about text: normalisation (look-alikes, leetspeak, spacing),
the plain-message fast path, lexicons (abuse, contact and commerce words), links and their
risks, fingerprints of repeated lines, loudness, and personal-data patterns and redaction.

Pure functions and tables of words, no findings: a detector decides what a match amounts to.
"""
