"""Pure detection: contract events plus small keyed state in, findings with evidence out.

The core types sit at the top of this package: `events` (the contract), `findings` (Finding,
Evidence), `state` (keyed TTL state), `detector` (the Protocol every detector meets) and
`registry` (every detector, one line each). Below them, one sub-package per capability:
`chat/`, `in_hand/`, `collusion/`, `ml/`, and `text/` for what chat detectors share. A detector
module never imports another detector module (import-linter holds it): what two share lives in
a shared module of their sub-package or in `text/`.
"""
