"""Collusion between players: coordinated sit-outs and bounty targeting in tournaments, chip
dumping and soft play at cash tables.

Detectors (one file each) over shared parts: `hand_features` (what one finished hand says about
who fought whom), the ledgers that count it (`bounty_ledger`, `pair_ledger`), `bounty_groups`
(pairs closed into teams), `planning_chat` and `name_directory` (chat that plans collusion and
who a name in it means), and `statistics` (the null models' tails and combinations).
"""
