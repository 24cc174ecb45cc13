"""Normalisation: what abusers type folds to what they mean; poker numbers stay numbers."""

from __future__ import annotations

import pytest

from railbird.detectors.text.abuse_lexicon import scan
from railbird.detectors.text.normalise import fold, normalise, squeeze_all


@pytest.mark.parametrize(
    ("typed", "forms"),
    [
        ("ｆｕｃｋ", ["fuck"]),  # full-width
        ("ѕhit fuсk", ["shit", "fuck"]),  # Cyrillic s and c
        ("fück", ["fuck"]),  # accent
        ("f\u200bu\u200bck", ["fuck"]),  # zero-width spaces
        ("sh!t", ["shit"]),
        ("sh1t b1tch", ["shit", "bitch"]),
        ("$hit", ["shit"]),
        ("shit!!!", ["shit"]),  # trailing punctuation is not leetspeak
        ("you ıdıot", ["you", "idiot"]),  # dotless i
        ("fa66ot", ["faggot"]),
        ("fu¢k", ["fuck"]),
    ],
)
def test_look_alikes_and_leetspeak_fold_to_letters(typed: str, forms: list[str]) -> None:
    assert [t.form for t in normalise(typed).tokens] == forms


@pytest.mark.parametrize(
    "number", ["455", "1k", "2.5bb", "3bet", "4bet", "A5s", "KQo", "AhKd", "77", "1488"]
)
def test_poker_numbers_and_hands_are_never_leetspeak(number: str) -> None:
    forms = [t.form for t in normalise(number).tokens]
    assert "ass" not in forms and "abet" not in forms and "aks" not in forms
    assert "".join(forms) == "".join(c for c in number.lower() if c.isalnum())


def test_stretched_letters_collapse_only_runs_of_three() -> None:
    tokens = normalise("fuuuuck shiiiit pass nooooob").tokens
    assert [t.squeezed for t in tokens] == ["fuck", "shit", "pass", "nob"]
    assert squeeze_all("asss") == "as"


@pytest.mark.parametrize("typed", ["f u c k", "f_u_c_k", "f.u.c.k", "f-u-c-k", "f  u  c  k"])
def test_spaced_out_letters_are_rejoined(typed: str) -> None:
    (run,) = normalise(typed).joined
    assert run.form == "fuck"
    assert typed[run.start : run.end] == typed.strip()


def test_word_split_in_two_is_matched_by_the_lexicon() -> None:
    (hit,) = scan("fu ck that")
    assert (hit.entry.term, hit.original, hit.how) == ("fuck", "fu ck", "split")


def test_spans_point_at_the_original_text() -> None:
    text = "gg ѕhit ｆｕｃｋ"
    parsed = normalise(text)
    assert [parsed.span(t) for t in parsed.tokens] == ["gg", "ѕhit", "ｆｕｃｋ"]


def test_fold_is_identity_mapped_for_ascii() -> None:
    assert fold("Hello World") == ("hello world", None)


def test_mentions_are_marked() -> None:
    tokens = normalise("@bob nice hand").tokens
    assert tokens[0].mention and not tokens[1].mention


def test_normalise_is_cached_per_text() -> None:
    assert normalise("same text") is normalise("same text")
