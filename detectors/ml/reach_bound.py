"""One-byte-per-bucket upper bounds, one table per head, that prove most messages cannot reach
any head's threshold.

Why: nearly all chat is far below every threshold, yet proving it exactly means summing
three float32 weights per bucket from a 3 MB table that other detectors keep pushing out of
the CPU cache. A head h can only flag when its bucket weights sum to at least
D_h = min_margin_h - intercept_h, and that sum is at most the sum of its positive weights. So
each bucket gets q_bh = ceil(K * max(w_bh, 0) / (D_h - slack)) (capped at K): whenever the q
of a message's buckets add up to less than K for head h, h's sum is below D_h - slack,
whatever the order or repeats of the buckets (q >= 0, so repeats only raise the total); a
message is proved unreachable when that holds for every head. One table per head rather than
the largest share over the heads: with character slices a message has dozens of buckets, each
weighing a little on a different head, and the shared maximum proved a third fewer messages. The
sum is of small integers, so it is exact; `slack` covers the rounding of the float sum the
exact path would do, for messages of up to `MAX_IDS` buckets (longer ones take the exact
path). A head that needs no positive weight at all, or a weight that is not finite, disables
the bound (every q is K) instead of risking a missed flag.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

# The bound's unit: q values are bytes, and a total below K proves no head is reachable.
K = 255
# Longest bucket list (repeats included) the bound speaks for.
MAX_IDS = 20_000


def reach_bound(
    weights: npt.NDArray[np.float32],
    intercepts: npt.NDArray[np.float64],
    min_margins: npt.NDArray[np.float64],
) -> tuple[bytes, ...]:
    """q per bucket and head (see the module docstring): one byte string per head, a byte per
    bucket, for `weights` (buckets, heads)."""
    rows = np.asarray(weights, dtype=np.float64)
    needed = np.asarray(min_margins, dtype=np.float64) - np.asarray(intercepts, dtype=np.float64)
    largest = float(np.abs(rows).max(initial=0.0)) + float(np.abs(intercepts).max(initial=0.0))
    # Sequential float sums of n terms err by at most about n * 2**-53 * sum|terms|.
    slack = 1e-6 + (MAX_IDS + 1) ** 2 * 2.0**-52 * largest
    limits = needed - slack
    heads: int = rows.shape[1]
    if not np.isfinite(rows).all() or not np.isfinite(limits).all() or (limits <= 0).any():
        full: bytes = np.full(rows.shape[0], K, dtype=np.uint8).tobytes()
        return (full,) * heads
    q = np.minimum(np.ceil(np.maximum(rows, 0.0) / limits * K), K).astype(np.uint8)
    per_head: list[bytes] = [q[:, h].tobytes() for h in range(heads)]
    return tuple(per_head)
