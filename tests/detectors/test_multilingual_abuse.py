"""Abuse in Russian, Polish, Czech, German, Spanish, Portuguese, French, Turkish and Italian.

Tables of detections with their evidence, near-misses that must not flag (poker talk, ordinary
words that hold a swear root, self-deprecation), and the measured floors on our own set
(tests/data/poker_chat_intl.csv; numbers in docs/quality-multilingual.md).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from railbird.detectors.chat.multilingual_abuse import MultilingualAbuse
from railbird.detectors.findings import Finding
from railbird.detectors.registry import build_detectors
from railbird.detectors.state import TtlState
from railbird.detectors.text.multilingual_reading import read
from railbird.detectors.text.multilingual_terms import (
    ascii_may_match,
    find,
    glin_words,
    lexicon,
)
from railbird.detectors.text.multilingual_words import DICTIONARIES, LANGUAGE_NAMES
from railbird.rules.pipeline import Pipeline
from tests.builders import chat

DATA = Path(__file__).resolve().parents[1] / "data"
INTL = DATA / "poker_chat_intl.csv"
ENGLISH = DATA / "poker_chat.csv"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _findings(text: str) -> list[Finding]:
    return MultilingualAbuse().detect(chat(text), TtlState())


# (text, category, severity, language, term)
DETECTIONS = [
    ("сука, опять ривер", "profanity", "low", "ru", "сука"),
    ("cукa ты", "harassment", "medium", "ru", "сука"),  # Latin c and a
    ("с у к а", "profanity", "low", "ru", "сука"),
    ("сууукааа", "profanity", "low", "ru", "сука"),
    ("пиzдец", "profanity", "low", "ru", "пиздец"),
    ("заебал этот дисконнект", "profanity", "low", "ru", "заебал"),
    ("ты ебаный мудак", "harassment", "medium", "ru", "мудак"),
    ("иди нахуй", "harassment", "medium", "ru", "иди нахуй"),
    ("убей себя", "harassment", "high", "ru", "убей себя"),
    ("ты просто лох", "harassment", "medium", "ru", "лох"),
    ("blyat, opyat river", "profanity", "low", "ru", "blyat"),
    ("хохлы все читеры", "hate", "high", "ru", "хохлы"),
    ("kurwa, znowu river", "profanity", "low", "pl", "kurwa"),
    ("kurrwa znowu", "profanity", "low", "pl", "kurwa"),  # ASCII, a doubled letter
    ("kurwа mać", "profanity", "low", "pl", "kurwa"),  # Cyrillic а
    ("ty debilu", "harassment", "medium", "pl", "debilu"),
    ("spierdalaj z tego stołu", "harassment", "medium", "pl", "spierdalaj"),
    ("zabiję cię", "harassment", "high", "pl", "zabije cie"),
    ("do prdele, to je smůla", "profanity", "low", "cs", "do prdele"),
    ("ty kokote", "harassment", "medium", "cs", "kokote"),
    ("scheiße, schon wieder", "profanity", "low", "de", "scheiße"),
    ("du bist ein arschloch", "harassment", "medium", "de", "arschloch"),
    ("bring dich um", "harassment", "high", "de", "bring dich um"),
    ("mierda, otra vez el river", "profanity", "low", "es", "mierda"),
    ("eres un gilipollas", "harassment", "medium", "es", "gilipollas"),
    ("eres un inútil", "harassment", "medium", "es", "inutil"),
    ("porra, de novo o river", "profanity", "low", "pt", "porra"),
    ("vai tomar no cu", "harassment", "medium", "pt", "vai tomar no cu"),
    ("você é um lixo", "harassment", "medium", "pt", "lixo"),
    ("putain, encore la river", "profanity", "low", "fr", "putain"),
    ("t'es con ou quoi", "harassment", "medium", "fr", "t es con"),
    ("je vais te tuer", "harassment", "high", "fr", "je vais te tuer"),
    ("amk yine river", "profanity", "low", "tr", "amk"),
    ("salaksın sen", "harassment", "medium", "tr", "salaksin"),
    ("ananı sikeyim", "harassment", "medium", "tr", "anani sikeyim"),
    ("cazzo, di nuovo il river", "profanity", "low", "it", "cazzo"),
    ("sei uno stronzo", "harassment", "medium", "it", "stronzo"),
    ("ti ammazzo", "harassment", "high", "it", "ti ammazzo"),
    # Greek and Arabic: the stem rules alone (glin-profanity has no Greek list, and its
    # Arabic one is mostly ordinary words).
    ("γαμώτο, πάλι το ρίβερ", "profanity", "low", "el", "γαμωτο"),
    ("άντε γαμήσου", "harassment", "medium", "el", "γαμησου"),
    ("είσαι ηλίθιος", "harassment", "medium", "el", "ηλιθιοσ"),
    ("malaka", "harassment", "medium", "el", "malaka"),
    ("γύφτοι παντού", "hate", "high", "el", "γυφτοι"),
    ("يا كلب", "harassment", "medium", "ar", "كلب"),
    ("الله يلعنك", "harassment", "medium", "ar", "يلعنك"),
    # Russian online name-calling, Spanish and Polish phrases and plural "you".
    ("ты быдло", "harassment", "medium", "ru", "быдло"),
    ("sois unos mancos de mierda", "harassment", "medium", "es", "mancos"),
    ("te voy a partir la cara", "harassment", "high", "es", "te voy a partir la cara"),
    ("jesteście bandą idiotów", "harassment", "medium", "pl", "idiotow"),
    ("pierdol się", "harassment", "medium", "pl", "pierdol sie"),
    # An exclamation at the cards names no player's mother: swearing, not harassment.
    ("puta madre, qué mala suerte", "profanity", "low", "es", "puta"),
    ("tu madre es una puta", "harassment", "medium", "es", "puta"),
]


@pytest.mark.parametrize(("text", "category", "severity", "language", "term"), DETECTIONS)
def test_detections_carry_their_evidence(
    text: str, category: str, severity: str, language: str, term: str
) -> None:
    (finding,) = _findings(text)
    measures = finding.evidence.measures
    assert (finding.category, finding.severity) == (category, severity)
    assert finding.detector == "multilingual_abuse"
    assert isinstance(measures["languages"], list)
    assert language in measures["languages"]
    assert isinstance(measures["terms"], list)
    assert term in measures["terms"]
    assert measures["directed"] == (category == "harassment")
    assert LANGUAGE_NAMES[language] in finding.evidence.summary
    assert finding.message_ids == finding.evidence.event_ids


def test_the_summary_says_who_it_was_aimed_at() -> None:
    (finding,) = _findings("cукa ты")
    assert finding.evidence.summary == (
        "Russian swearing 'сука' (typed 'cукa') aimed at a player in table chat"
    )


NEAR_MISSES = [
    "nh, sick river",  # English: the English detectors' business
    "я страхую банк, давай дальше",  # ху+ю inside страхую
    "небо сегодня против меня",  # еб inside небо
    "он выиграл 40 рублей, а я проиграл два рубля",  # бля inside рубля
    "ослаблять руку перед ривером не стоит",  # блят inside ослаблять
    "сукно на столе зеленое",
    "хулиганы за соседним столом шумят",
    "тупо повезло на ривере",
    "сыграем в дурака после турнира?",  # the card game, not "fool"
    "я такой лох, забыл про флеш",  # about oneself
    "сразу видно профи",
    "jestem debilem, zły call",  # about oneself
    "na boku mam jeszcze trochę żetonów",  # Turkish "bok" in Polish "boku"
    "sikam ze śmiechu",
    "ty vole, to byl river",  # Czech "dude"
    "hovoříme česky?",
    "wir marschieren zum finaltisch",  # arsch inside marsch
    "warschau oder berlin?",
    "schlampig gespielt, mein fehler",
    "die kunden im casino sind nett",
    "blöd gelaufen, nächste hand",  # an insult only when aimed
    "ganaste con tu par de reyes",  # French "con" beside Spanish "tu"
    "pierde siempre contra mí",  # Polish pierd inside Spanish "pierde"
    "mano débil, me retiro",  # Polish "debil" is Spanish "weak"
    "el torneo está retrasado diez minutos",
    "trío de ochos en el flop",  # "trio" is in the Spanish list
    "la computadora se me colgó",
    "vou comer alguma coisa no intervalo",  # "comer" is in the Portuguese list
    "ele pede mesa nova",
    "o saco de fichas dele é enorme",
    "paire de huit, je paye",  # "hui" inside French "huit"
    "je suis crevé, dernière main",
    "match nul pour moi ce soir",
    "çok sıkıldım, mola lazım",  # sıkıl- (bored) is not sik-
    "potu o götürdü yine",  # göt inside götürdü
    "hile yok, sadece şans",  # "hile" is in the Turkish list
    "lan ne river ama",
    "che sfiga, terza volta di fila",  # figa inside sfiga
    "regina di cuori sul river",  # "regina" is in the Italian list
    "c'è un pesce al tavolo",
    "il torneo è ritardato di dieci minuti",
    "sono un pirla, call sbagliato",  # about oneself
    "shoved 455 into the pot",
    "a5s is a great hand to 3bet",
    # Greek and Arabic table talk that holds a root ("μαλακό" soft, "γάμος" wedding, "كسر"
    # break) or an animal not aimed at anyone.
    "το μαλακό μαξιλάρι της καρέκλας",
    "ο γάμος του φίλου μου ήταν χθες",
    "καλή τύχη σε όλους",
    "كسر الرقم القياسي في البطولة",
    "كلب جميل في البيت",
    "moja ciotka gra lepiej ode mnie",  # "ciotka" (aunt), not "ciota"
    "ale ze mnie idiota, spasowałem najlepszą rękę",  # about oneself
]


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_do_not_flag(text: str) -> None:
    assert _findings(text) == []


def test_spaced_and_repeated_letters_read_as_one_word() -> None:
    assert "kurwa" in [w.plain for w in read("k u r w a")]
    assert read("kuuurwaaa")[0].squeezed == "kurwa"
    assert read("пиzдец")[0].plain == "пиздец"
    assert read("fuсk")[0].plain == "fuck"  # Cyrillic с in a Latin word stays Latin


def test_the_ascii_fast_path_never_hides_a_match() -> None:
    texts = [r["text"] for r in _rows(INTL) + _rows(ENGLISH)] + [t for t, *_ in DETECTIONS]
    texts += ["kurrwa", "k_u_r_w_a", "KURWA", "vaffanculooo", "ch*j", "@pidor", "s1kt1r"]
    hidden = [t for t in texts if t.isascii() and find(read(t)) and not ascii_may_match(t.lower())]
    assert hidden == []


def test_the_lexicon_is_read_from_the_installed_package() -> None:
    words = glin_words("ru")
    assert len(words) > 100
    assert lexicon().exact  # built from those lists at first use, not stored here


def _intl(label_is_clean: bool) -> list[dict[str, str]]:
    return [r for r in _rows(INTL) if (r["label"] == "clean") == label_is_clean]


@pytest.mark.parametrize("language", sorted(DICTIONARIES))
def test_every_language_has_its_rows(language: str) -> None:
    """Every language read from glin-profanity's lists has its table talk in our set (Greek
    and Arabic, read by stem rules alone, are tested by their tables below)."""
    rows = [r for r in _rows(INTL) if r["language"] == language]
    assert sum(r["label"] == "clean" for r in rows) >= 40
    assert sum(r["label"] != "clean" for r in rows) >= 10


def test_no_clean_intl_row_flags() -> None:
    flagged = [r["text"] for r in _intl(True) if _findings(r["text"])]
    assert flagged == []


def test_clean_intl_rows_flag_no_registered_detector() -> None:
    """The whole chain, not only `multilingual_abuse`: German "das Ass" and "ich höre auf" once
    met the English lexicon ("ass", folded "hore")."""
    detectors = build_detectors()
    flagged: set[tuple[str, str]] = set()
    for row in _intl(True):
        found = Pipeline(detectors).detect(chat(row["text"])) or []
        flagged.update((row["text"], f.detector) for f in found)
    assert flagged == set()


def test_english_clean_rows_do_not_flag() -> None:
    clean = [r["text"] for r in _rows(ENGLISH) if r["label"] == "clean"]
    assert clean
    assert [t for t in clean if _findings(t)] == []


# Measured on our set (docs/quality-multilingual.md), set a little below what it gives.
RECALL_FLOORS = {
    "ru": 0.95,
    "pl": 0.85,
    "cs": 0.85,
    "de": 0.95,
    "es": 0.95,
    # 19 of 21 since issue 34: "puta que pariu, perdi tudo" and "merda de jogo" swear at
    # nobody in words that Brazilian annotators marked offensive in under half the rows that
    # held them (`lexicon_usage.json`); at nobody, in Portuguese, they are exclamations.
    "pt": 0.9,
    "fr": 0.9,
    "tr": 0.8,
    "it": 0.95,
}
BLIND_FLOOR = 0.75  # the lines written after the rules were frozen


def test_abusive_rows_are_caught_above_the_measured_floors() -> None:
    caught: dict[str, list[bool]] = defaultdict(list)
    blind: list[bool] = []
    for row in _intl(False):
        hit = bool(_findings(row["text"]))
        caught[row["language"]].append(hit)
        if row["note"].startswith("blind"):
            blind.append(hit)
    recall = {lang: sum(hits) / len(hits) for lang, hits in caught.items()}
    assert {lang: r for lang, r in recall.items() if r < RECALL_FLOORS[lang]} == {}
    assert sum(blind) / len(blind) >= BLIND_FLOOR
