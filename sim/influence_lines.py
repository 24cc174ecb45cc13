"""What colluders and card-leakers type: hole-card leaks, advice, signals, and team planning.

Kept apart from the abuse lines because these are judged by *when* they are said (a hand in
play, a partner's table) as much as by their words.
"""

from __future__ import annotations

import random

from railbird.sim.chat_lines import cards_text, casual, expand

LEAK = (
    "folded {c} [lol|smh|ugh|]",
    "i [had|folded] {c}",
    "[threw|tossed] {c} [away|in the muck]",
    "[mucked|gave up] {c} [there|preflop|]",
    "[ugh|bah] {c} [in the muck|folded]",
    "{c} [gone|folded] [lol|]",
)
ADVICE = (
    "[call|snap call] {t}, he[s|'s] [bluffing|got nothing|weak]",
    "{t} [just|] [shove|jam|raise] [it|]",
    "fold {t}, he [has it|has the nuts|is strong]",
    "he always [bluffs|bets air] here {t}",
    "{t} [dont|don't] pay him off",
    "[bet|raise] big {t} he[s|'s] on a draw",
    "[check|slow down] {t}, he[s|'s] trapping",
    "{t} [he has|hes on] [nothing|air], [call|raise]",
)
TELL_CARDS = (
    "{t} has {c}",
    "{t} [is holding|got|holds] {c}",
    "[careful|watch out], {t} [has|is on] {c}",
)
SIGNAL_EMOJI = ("🤫", "👀", "🔥🔥", "👍", "👎", "🤐", "😱", "💪", "🙅", "✅")
SITOUT_PLAN = (
    "[sit out|sitting out] [with me|together] [at|after] [the next level|next orbit|in 2 min]",
    "[ok|k] [now|go] sit out",
    "[lets|let's] [both|] sit out [again|now], [same as before|like last time]",
    "[sit|sitting] back in [in 2|in 3|now]",
    "[on my|at my] signal we [both|all] sit out",
)
BOUNTY_PLAN = (
    "[lets|let's] [take out|bust|get] {t} [together|], i raise you [shove|jam|3bet]",
    "[isolate|squeeze] {t}, [ill|i'll] [raise|open] you [jam|reraise]",
    "[check it down|dont bet] if {t} is all in",
    "{t} [bounty|head] is ours, [dont|never] [bet|raise] [into|against] me",
    "[same plan|usual plan] on {t}, [sandwich|squeeze] him",
)

# Open wording for tactic days, composed by rule from the intents a plan carries (who, working
# together, and sometimes the bounty's split or the rule of play), so that no one template
# recurs: a reader that knows only `BOUNTY_PLAN` misses most of these.
_PLAN_WHO = (
    "[we|you and me|us two|both of us] [go after|work on|gang up on|hunt|lean on] {t}",
    "[team up|double team|tag team] [on|against] {t} [this orbit|from now|]",
    "[help me|lets work together to|wanna] [bust|knock out|take down|get rid of] {t}",
    "[focus|all over] {t} [together|between us] [till he busts|this level|]",
    "{t} is [our|the] [mark|target|guy] [now|tonight|]",
)
_PLAN_HOW = (
    "[split|share|we split|50/50 on] the [bounty|ko|head|money]",
    "whoever [gets|takes] [him|the ko] [shares|splits] [it|]",
    "[dont|never|no] [raise|3bet|reraise|bet into] [me|each other]",
    "[i open|ill open], [you|u] [call|flat|just call] [behind|]",
    "[keep him in|let him in] [the pot|] and we [trap|squeeze] [him|]",
    "if he [shoves|jams|is all in] [we|] [check it down|no betting|just check]",
    "",
)


def open_plan_line(rng: random.Random, target: str) -> str:
    """One planning line in open wording: a target and cooperation, and often a rule."""
    who = expand(rng.choice(_PLAN_WHO), rng, t=target)
    how = expand(rng.choice(_PLAN_HOW), rng)
    return casual(f"{who}, {how}" if how else who, rng)


def in_hand_line(
    rng: random.Random, templates: tuple[str, ...], target: str, cards: tuple[str, str] | None
) -> str:
    text = expand(rng.choice(templates), rng, t=target, c=cards_text(cards, rng) if cards else "")
    return casual(text, rng)
