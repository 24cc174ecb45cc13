"""The ML chat scorer: hashed n-gram features, a linear model per category loaded from plain
arrays (never unpickled), an exact bound that skips most clean chat, and its training
(`training`, run by `railbird train`; scikit-learn, fixed seed, weights and a manifest out).
"""
