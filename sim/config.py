"""Knobs for one simulated day: scale, structure, and how much abuse and collusion to inject.

Rates are expected injections per table-hour so that a bigger day gets proportionally more
violations, the way a real site does; group violations are counted per tournament because a
team is a handful of accounts whatever the field size.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime


@dataclass(frozen=True, slots=True)
class ChatRates:
    """Expected injected violations per table-hour (spam: episodes, each several messages)."""

    profanity: float = 0.5
    harassment: float = 0.35
    hate: float = 0.1
    spam: float = 0.25
    advertising: float = 0.12
    malicious_link: float = 0.08
    pii_solicitation: float = 0.15
    pii_disclosure: float = 0.1
    impersonation: float = 0.06
    in_hand_influence: float = 0.5
    bot_waves_per_hour: float = 0.4  # site-wide lobby waves of one text from many accounts


@dataclass(frozen=True, slots=True)
class SimConfig:
    seed: int = 0
    # Put after every id's kind (`m-<prefix>1`): days simulated into one store stay apart.
    id_prefix: str = ""
    tournaments: int = 2
    cash_tables: int = 4
    hours: float = 3.0
    start: datetime = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    players_per_tournament: int = 180
    table_size: int = 9
    cash_table_size: int = 6
    bounty_share: float = 0.5  # share of tournaments with a fixed bounty on every head
    starting_stack: int = 20_000  # 200 big blinds at the first level
    bounty: int = 500
    level_minutes: float = 20.0
    ante_from_level: int = 4
    break_every_minutes: float = 60.0
    break_minutes: float = 5.0
    tournament_stagger_minutes: float = 15.0
    cash_big_blind: int = 100  # cents
    # Cash table k's big blind is cash_big_blinds[k % len] (empty: every table cash_big_blind)
    # and its format cash_table_formats[k % len]: "ring" (empty: all), "rush_and_cash",
    # "all_in_or_fold". Of the tables, this share send no level or format on `join` and
    # `hand_start` (the contract's fields are optional: the level is then the latest hand's).
    cash_big_blinds: tuple[int, ...] = ()
    cash_table_formats: tuple[str, ...] = ()
    cash_fields_missing_share: float = 0.0
    # Refusals to play (house rule "Cash tables"): players who hit and run, each visiting cash
    # tables 2-7 times through the day (half of them at one blind level, half at any) to play
    # 1-9 hands, or until they win a pot; honest players who stay just long enough (10-14
    # hands); and staged exceptions (the others all sit out, or the table breaks up, before
    # the visitor leaves). Every leave is judged against the rule: truth for each refusal.
    hit_and_runners: int = 0
    short_stayers: int = 0
    refusal_exceptions: int = 0
    chat_scale: float = 1.0  # multiplies honest chat volume
    violation_scale: float = 1.0  # multiplies every ChatRates entry
    rates: ChatRates = field(default_factory=ChatRates)
    # Collusion teams: intensity is the probability that a team acts on each opportunity.
    team_intensity: float = 0.5
    # When set, team k gets team_intensities[k % len] instead: one day, several intensities.
    team_intensities: tuple[float, ...] = ()
    # When set, each team draws its own intensity uniformly from this range instead.
    team_intensity_range: tuple[float, float] | None = None
    # Bounty tournaments only; capped at one team per 60 entrants so a small field stays honest.
    bounty_teams_per_tournament: int = 3
    sitout_teams_per_tournament: int = 1
    team_size_min: int = 2
    team_size_max: int = 3
    # How bounty team k plays its target: bounty_tactics[k % len]. "sandwich" (re-raise a
    # partner's open with the target between) or "isolate" (flat-call a partner's open so the
    # target stays in, raise the target's opens). Empty: every team sandwiches, as before.
    # "a+b" gives a team two tactics, one decided per hand; the others: "checkdown" (co-enter
    # cheaply, check down side pots with the target all in), "softplay" (never fight each other
    # heads-up, otherwise near-honest), "chip_pass" (a short member dumps chips to a partner
    # once the target is out of the pot), "ko_steer" (one member takes on the target's all-ins,
    # the others stand aside). See `sim.teams.TACTICS`.
    bounty_tactics: tuple[str, ...] = ()
    # Progressive knockout: half of a bounty won is paid, half goes onto the winner's own head.
    progressive_bounty: bool = False
    # Hard negatives for bounty days: honest players who loosen up against big covered bounties,
    # and pairs of friends who chat privately all day (innocent bounty talk included) and play
    # their own game.
    bounty_hunters_per_table: float = 0.0
    # Planning chat in open wording, and only from some teams (a quarter to none of their picks).
    open_planning_chat: bool = False
    friend_pairs_per_tournament: int = 0
    sitout_opportunity_minutes: float = 6.0
    sitout_planning_chat: float = 0.4  # chance an episode is preceded by a planning message
    # Sit-out variety (`sim.sitout_variety`; empty/None: the default teams, byte-identical days).
    # Sit-out team k goes away by sitout_away[k % len] ("sit_out", "disconnect", "timeout" then
    # the site's sit-out, or "mixed" per member), its members' onsets spread over up to
    # sitout_lags_s[k % len] seconds (3 s by default); its members also sit out alone this
    # often; and with independent returns each member comes back on its own.
    sitout_away: tuple[str, ...] = ()
    sitout_lags_s: tuple[float, ...] = ()
    sitout_member_lone_per_hour: float | None = None
    sitout_independent_returns: bool = False
    chip_dump_pairs: int = 1  # across cash tables
    soft_play_pairs: int = 1  # across cash tables
    # Cash pairs' modes (`sim.cash_pairs`): chip-dumping pair k of the day plays
    # cash_dump_modes[k % len], "fold" (bet into the receiver, fold to its raise), "showdown"
    # (the pair sees each other's cards: the donor calls down while the receiver is ahead and
    # gives up when it is behind), "bluff" (the donor bets big, mostly on the river, into the
    # receiver's better hand) or "mixed" (one of the three per hand); soft pair k plays
    # cash_soft_modes[k % len], "heads_up" (check it down heads-up) or "multiway" (also never a
    # bet or raise into the partner with others in). Empty: "fold" and "heads_up", as before.
    cash_dump_modes: tuple[str, ...] = ()
    cash_soft_modes: tuple[str, ...] = ()
    # When set, each cash pair draws its intensity uniformly from this range (else
    # team_intensity), so one day holds blatant pairs and pairs of a handful of acts.
    cash_intensity_range: tuple[float, float] | None = None
    # Honest cash play that looks like collusion, one kind per table in turn, labelled in the
    # truth (`sim.cash_negatives`): regulars side by side, a short stack shoving into a deep
    # one, bad luck against one winner, friends chatting in private.
    cash_hard_negatives: bool = False
    # Hard negatives: legitimate behaviour that looks like a violation.
    hard_negatives: bool = True
    break_sit_out_share: float = 0.35  # clients that sit out when a scheduled break starts
    break_sit_out_spread_s: float = 25.0  # ... within this long after it starts
    # Shapes of mass disconnects, one drawn per incident (`sim.sitout_variety.MASS_SHAPES`):
    # "burst" (the default's), "rolling" (table after table over 1-3 minutes), "table" (one
    # table's players, again and again). Empty: the default burst.
    mass_drop_shapes: tuple[str, ...] = ()
    mass_disconnects_per_tournament: int = 1
    railbirds_per_table: float = 0.5  # expected observers chatting at a table
    # Share of players who play `positional_players.PositionalPolicy` instead of the classic
    # honest policy (their honest play; a colluder's scheme sits on top of it either way).
    positional_share: float = 0.0

    def intensity(self, team_index: int, rng: random.Random | None = None) -> float:
        if self.team_intensity_range is not None and rng is not None:
            low, high = self.team_intensity_range
            return round(rng.uniform(low, high), 2)
        if self.team_intensities:
            return self.team_intensities[team_index % len(self.team_intensities)]
        return self.team_intensity

    def rate(self, category: str) -> float:
        value: float = getattr(self.rates, category)
        return value * self.violation_scale
