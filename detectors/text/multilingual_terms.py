# ruff: noqa: RUF001, RUF002, RUF003
# (Cyrillic and Latin look-alike letters are the point of the reading tables below.)
"""Abuse in the room's other languages: a script-aware reading of a message and the lexicon.

railbird's `normalise` folds Cyrillic look-alikes to Latin, which is right for English dodges
("ѕhit") and wrong for Russian, where "сука" must stay Cyrillic. So this module reads a message
its own way: NFKC, lower case, invisible and direction-control characters dropped, stray Latin
letters inside a mostly-Cyrillic word folded to Cyrillic ("cукa") and stray Cyrillic letters
inside a mostly-Latin word to Latin ("kurwа"), leetspeak inside words only, stretched letters
collapsed, spaced-out letters joined.

The word lists are glin-profanity's dictionaries (MIT), read from the installed package at
first use, never copied here. They are noisy for a poker room: "regina" (queen), "pesce"
(fish), "trio" (trips), "comer", "venire", "destek", "oyna" are ordinary words, and several
entries are English or another language's ordinary word ("con", "pot", "got", "mal"). So
entries of three letters or fewer go unless kept on purpose, entries in `_DROPPED` go (found by
running the lexicon over clean table talk in every language and English chat), and tiers come
from per-language stem rules, which also catch the inflected forms Slavic and Turkish chat uses
("заебал", "wypierdalaj", "siktirgit"). How a match becomes a finding is the detector's job.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal, NamedTuple

Tier = Literal["swear", "insult", "weak", "threat", "slur"]

LANGUAGE_NAMES: dict[str, str] = {
    "ru": "Russian",
    "pl": "Polish",
    "cs": "Czech",
    "de": "German",
    "es": "Spanish",
    "pt": "Portuguese",
    "fr": "French",
    "tr": "Turkish",
    "it": "Italian",
}
_DICTIONARIES: dict[str, str] = {
    "ru": "russian.json",
    "pl": "polish.json",
    "cs": "czech.json",
    "de": "german.json",
    "es": "spanish.json",
    "pt": "portuguese.json",
    "fr": "french.json",
    "tr": "turkish.json",
    "it": "italian.json",
}

# ---------------------------------------------------------------------------------------------
# Reading a message.

# Zero-width, joiner, direction-control and other invisible characters abusers insert.
_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f"
        "\u202a\u202b\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068"
        "\u2069\ufeff",
    )
)
# Latin letters inside a mostly-Cyrillic word: look-alikes ("cукa"), then the transliterations
# typed when a key is missing ("пиzдец").
_TO_CYRILLIC = str.maketrans(
    dict(zip("abcdefghijklmnoprstuvxyz", "авсдефгнийклмпоррстивхуз", strict=True))
)
# Cyrillic letters inside a mostly-Latin word ("kurwа", "fuсk").
_TO_LATIN = str.maketrans(
    dict(zip("авеёзіїјкмнорсухѕһԁьгпт", "abeeziijkmhopcyxshdbrnt", strict=True))
)
# Letters that only one script has: which of them a mixed word holds decides its script.
_ONLY_CYRILLIC = frozenset("бджзийлфцчшщъыэюяєўґ")
_ONLY_LATIN = frozenset("dfgjlqrsvwz")
_CYRILLIC_FOLD = str.maketrans({"ё": "е", "і": "и", "ї": "и", "є": "е", "ў": "у", "ґ": "г"})
_LATIN_FOLD = {"ł": "l", "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ı": "i", "đ": "d"}
_LEET_LATIN = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
_LEET_CYRILLIC = str.maketrans({"0": "о", "3": "з", "4": "ч", "6": "б", "@": "а", "$": "с"})
_TOKEN = re.compile(r"[^\W_]+(?:[@$!*]+[^\W_]+)*[!@$*]*|@[^\W_]+")
_SPACED = re.compile(r"(?<![^\W_])(?:[^\W\d_][\s.\-_*+]{1,3}){2,}[^\W\d_](?![^\W_])")
_RUN3 = re.compile(r"(.)\1{2,}")
_RUN2 = re.compile(r"(.)\1+")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
# Numbers and poker notation are never leetspeak: 455, 3bet, 10bb, 1k, 2nd, A5s, KQo, AhKd.
_NOTATION = re.compile(
    r"\d+(?:[.,]\d+)?(?:k|m|bb|x|bet|way|h|st|nd|rd|th|s|max|b|e)?|\d[a-z]?|[a-z]\d"
    r"|[2-9tjqka]{2}[so]?|(?:[2-9tjqka][cdhs])+"
)


class Word(NamedTuple):
    """One word of a message as the lexicon sees it, and as it was typed."""

    form: str  # folded to one script, leet decoded, runs of 3+ cut to 2, accents kept
    plain: str  # `form` without accents (ł -> l, ß -> ss, ё -> е)
    squeezed: str  # `plain` with every doubled letter single ("ссука" -> "сука")
    cyrillic: bool
    typed: str
    mention: bool = False


def _script_fold(word: str) -> tuple[str, bool]:
    """`word` in one script: the script most of its distinctive letters belong to."""
    if not _CYRILLIC.search(word):
        return word, False
    latin = sum(1 for c in word if "a" <= c <= "z")
    if latin == 0:
        return word, True
    cyrillic = sum(1 for c in word if "\u0400" <= c <= "\u04ff")
    only_c = sum(1 for c in word if c in _ONLY_CYRILLIC)
    only_l = sum(1 for c in word if c in _ONLY_LATIN)
    if only_c > only_l or (only_c == only_l and cyrillic >= latin):
        return word.translate(_TO_CYRILLIC), True
    return word.translate(_TO_LATIN), False


def _deaccent(word: str) -> str:
    out = []
    for char in word:
        folded = _LATIN_FOLD.get(char)
        if folded is not None:
            out.append(folded)
            continue
        for part in unicodedata.normalize("NFD", char):
            if unicodedata.category(part) != "Mn":
                out.append(part)
    return "".join(out)


def _word(raw: str) -> Word | None:
    mention = raw.startswith("@") and len(raw) > 1 and not raw[1].isdigit()
    core = raw.lstrip("@").rstrip("!*") if mention else raw.rstrip("!*")
    if not core:
        return None
    form, cyrillic = _script_fold(core)
    letters = sum(1 for c in form if c.isalpha())
    if not form.isalpha() and letters >= 2 and not _NOTATION.fullmatch(form):
        form = form.translate(_LEET_CYRILLIC if cyrillic else _LEET_LATIN)
    form = _RUN3.sub(r"\1\1", form.replace("*", ""))
    if cyrillic:
        plain = form.translate(_CYRILLIC_FOLD)
    else:
        plain = form if form.isascii() else _deaccent(form)
    return Word(form, plain, _RUN2.sub(r"\1", plain), cyrillic, raw, mention)


def read(text: str) -> tuple[Word, ...]:
    """The words of `text`, each in one script; spaced-out letters also as one word."""
    cleaned = unicodedata.normalize("NFKC", text).translate(_INVISIBLE).lower()
    cleaned = cleaned.replace("'", " ").replace("’", " ").replace("`", " ")
    found: list[Word] = []
    for raw in _TOKEN.findall(cleaned):
        word = _word(raw)
        if word is not None:
            found.append(word)
    for spaced in _SPACED.findall(cleaned):
        word = _word("".join(c for c in spaced if c.isalpha()))
        if word is not None:
            found.append(word._replace(typed=spaced))
    return tuple(found)


# ---------------------------------------------------------------------------------------------
# What a word means: the lexicon.


def _words(text: str) -> frozenset[str]:
    """The words of a space-separated list: long word tables read as text."""
    return frozenset(text.split())


class Entry(NamedTuple):
    term: str
    languages: tuple[str, ...]
    tier: Tier
    directed: bool  # aimed at someone by its own form: "spierdalaj", "vaffanculo", "kurwo"


# Stem rules: (language, tier, directed, pattern). A pattern must match a whole word (its
# accent-free form); the first rule that matches classifies it, so narrow rules come first.
# They tier the dictionaries' entries and catch the inflections the dictionaries lack.
_RULES: tuple[tuple[str, Tier, bool, str], ...] = (
    # Russian, Cyrillic. Roots of mat inside words, with prefixes spelled out where a bare
    # root would hit ordinary words: "еб" sits in "себя", "небо", "хлеб"; "бля" in "рубля".
    ("ru", "slur", False, r"хох[оа]?л\w*|чурк\w*|жид(?:|ы|ов|ам|овск\w*|яр\w*)|хач(?:|и|ей|ик)"),
    ("ru", "slur", False, r"черножоп\w*|москал\w*|кацап\w*"),
    ("ru", "threat", True, r"сдохн\w*|сдох|убейся|повесься|выпились\w*|вскройся|убью|урою"),
    ("ru", "insult", True, r"(?:от|по)?соси|сосеш\w*|отсос\w*|заткнис\w*|завали(?:сь)?"),
    ("ru", "insult", False, r"\w*ху(?:есос|йл|ил|еплет)\w*|долб[оа]\w+|\w*уеб(?:ок|ан|ищ|к)\w*"),
    ("ru", "insult", False, r"ебан(?:ат|ьк|тя)\w*|выблядок\w*|\w*бляд(?:ин|юг|ищ)\w*"),
    ("ru", "insult", False, r"муда[кч]\w*|мудил\w*|мудл\w*|мудо[зе]\w*|г[ао]ндон\w*"),
    ("ru", "insult", False, r"п[ие]д[оа]р\w*|пидр\w*|педик\w*|шлюх\w*|шлюш\w*|шалав\w*"),
    ("ru", "insult", False, r"пизд(?:юк|абол|обол|ун)\w*|сучар\w*|сучк\w*|засран\w*|говнюк\w*"),
    ("ru", "insult", False, r"чмо|чмош\w*|чмыр\w*|мраз(?:ь|и|ью|ей|ота)|твар(?:ь|и|ью|ей|ям)"),
    ("ru", "insult", False, r"урод(?:|а|у|ом|ы|ов|ам|ами|ина|ец|ливый|ливая|ство)|ублюд\w*"),
    ("ru", "insult", False, r"выродо?к\w*|гнид\w*|падл\w*|скотин\w*|сволоч\w*|придур\w*"),
    ("ru", "insult", False, r"дебил\w*|идиот\w*|кретин\w*|даун(?:|а|у|ом|ы|ов|ище)|дегенерат\w*"),
    ("ru", "insult", False, r"имбецил\w*|олигофрен\w*|ничтожеств\w*|безмозгл\w*|\w*рукожоп\w*"),
    ("ru", "insult", False, r"туп(?:ой|ая|ое|ые|ого|ому|ым|ица|ицы|орыл\w*|арь)|криворук\w*"),
    ("ru", "insult", False, r"лошар\w*|лошпед\w*|сосунок\w*|отброс(?:|ы|ов)|обсос\w*"),
    ("ru", "weak", False, r"дура(?:|к|ка|ку|ком|ки|ков|чок)|дуры|дуру|дурой|лох(?:|а|у|ом|и)"),
    ("ru", "weak", False, r"нуб(?:|ас|яра|ы|ов|ло)|рак|петух\w*|коз[её]л|козл(?:а|у|ом|ы|ина)"),
    ("ru", "weak", False, r"овц(?:а|ы|у)|клоун\w*|свинья|мусор|животное|обезьяна"),
    ("ru", "swear", False, r"(?!\w*страху)\w*ху[йяеию]\w*|хули|хуле|нахер|похер|\w*п[ие]зд\w*"),
    (
        "ru",
        "swear",
        False,
        r"(?:за|на|у|вы|от|отъ|оть|по|под|подъ|про|раз|разъ|при|до|съ|сь|въ|изъ|об|объ|пере|"
        r"недо|долбо|мозго)?еб\w*|[йи]об(?:а|у|и)\w*",
    ),
    ("ru", "swear", False, r"бля|бля[тдь]\w*|\w*бляд\w*"),
    ("ru", "swear", False, r"сук(?:а|и|у|е|ой|ою|ами|ам|ах|ин|ина|ины|ину|иным)|ссук\w*|суч\w*"),
    ("ru", "swear", False, r"\w*говн\w*|дерьм\w*|\w*жоп\w*|залуп\w*|\w*дроч\w*|\w*обосс\w*"),
    ("ru", "swear", False, r"(?:на|об|обо|за|по|вы|про|рас)?сра(?:ть|л|ла|ли|ло|н|ну|ка)\w*"),
    # Polish (accents dropped: "pierdolę" -> "pierdole", "ł" -> "l").
    ("pl", "threat", False, r"zdychaj|zdechnij"),
    ("pl", "insult", True, r"kurwo|chuju|debilu|idioto|skurwysynu|pizdo|cipo|suko|zjebie"),
    ("pl", "insult", True, r"(?:s|wy|od)pierdal\w*|(?:s|wy)pierdol\w*|spadaj"),
    ("pl", "insult", False, r"skurw\w*|kurwiszon\w*|(?:z|po)jeb(?:|any|ana|ani|us|ie)"),
    ("pl", "insult", False, r"popierdolen\w*|kretyn\w*|dziwk\w*|cwel\w*|ciot\w*|gnoj\w*|scierw\w*"),
    ("pl cs", "insult", False, r"debil(?:a|em|e|ami|om|ow|ny|na|ne|ni|izm|ko|ek|ku)|dupek\w*"),
    ("pl", "insult", False, r"matol\w*"),
    ("pl", "slur", False, r"czarnuch\w*"),
    ("pl cs", "weak", False, r"debil|baran\w*|osiol|osly|osle|szmat\w*|pedal|smiec|frajer\w*"),
    (
        "pl",
        "swear",
        False,
        r"\w*kurw\w*|\w*c?huj\w*|\w*pierd[oa]l\w*|\w*pierdziel\w*|\w*gown(?:o|a|ie|em|ian)\w*",
    ),
    (
        "pl cs",
        "swear",
        False,
        r"(?:za|wy|od|po|na|prze|roz|s|u|w|do|pod|przy)?jeb\w*|dup(?:a|y|ie|ek|ka|ku|ki|sko|om)",
    ),
    ("pl", "swear", False, r"cip(?:a|y|ie|ka)|kutas\w*|fiut\w*|zajebist\w*"),
    # Czech.
    ("cs", "threat", False, r"chcipni|chcipnes"),
    ("cs", "insult", True, r"kurvo|debile|kokote|zmrde|curaku|hajzle|kretene|blbce|mrdko"),
    (
        "cs",
        "insult",
        False,
        r"zkurvysyn\w*|zmrd\w*|curak\w*|kokot\w*|hajzl\w*|kreten\w*|kund(?:a|o|y|u|ou)",
    ),
    (
        "cs",
        "insult",
        False,
        r"blb(?:ec|ce|ci|cem|ecku)|devk(?:a|o|y|u)|cubk\w*|slapk(?:a|o|y|u)|buzn\w*|buzerant\w*",
    ),
    ("cs", "swear", False, r"\w*kurv\w*|\w*hovn\w*|\w*prdel\w*|\w*mrd\w*|(?:za|po|u)?sran\w*"),
    # German (accents dropped: "scheiße" -> "scheisse").
    ("de", "slur", False, r"kanake\w*|kanacke\w*|neger\w*|schlitzaug\w*"),
    ("de", "threat", False, r"verreck\w*"),
    ("de", "insult", False, r"\w*arschloch\w*|arsch(?:geige|kriecher|gesicht|krampe|lecker)\w*"),
    (
        "de",
        "insult",
        False,
        r"(?!traffick)\w*ficker\w*|\w*fotze\w*|\w*huren\w*|hure|\w*wichser\w*|wix+er\w*",
    ),
    ("de", "insult", False, r"(?!schlampig|schlamperei)\w*schlamp\w*|vollidiot\w*|trottel\w*"),
    ("de", "insult", False, r"spast\w*|missgeburt\w*|spacko\w*|dummkopf\w*|pisser\w*"),
    ("de", "insult", False, r"drecks(?:au|kerl|stuck|stueck|schwein|sack|loch|hure|fotze)\w*"),
    ("de", "insult", False, r"schwuchtel\w*|schwanzlutscher\w*|hackfresse\w*|vollpfosten\w*"),
    ("de", "weak", False, r"opfer|lappen|penner|honk|depp|behindert\w*|dumm|blod|blode[rn]?"),
    ("de", "swear", False, r"\w*schei(?:ss|s)\w*|(?:\w*[^\Wmbhw])?arsch\w*|(?!traffick)\w*fick\w*"),
    ("de", "swear", False, r"wichs\w*|kack(?:e|en|wurst|bratze)?"),
    # Spanish.
    ("es", "slur", False, r"sudaca\w*|negrata\w*"),
    ("es", "threat", True, r"matate|suicidate|muerete"),
    ("es", "insult", True, r"callate|chupamela|chupala"),
    ("es", "insult", False, r"hij[oa]e?puta\w*|hdp|gilipoll\w*|jilipoll\w*|pendej\w*|cabron\w*"),
    ("es pt", "insult", False, r"imbecil(?:|es)|estupid[oa]s?|subnormal\w*|capull\w*|kapull\w*"),
    ("es", "insult", False, r"mamon(?:|a|es)|maric[oa]n\w*|malparid\w*|pelotud\w*"),
    ("es", "insult", False, r"chupapollas|soplapollas|lameculos|mongolo|cabrona"),
    ("es pt it pl", "insult", False, r"idiotas?"),
    ("es pt it", "insult", False, r"bastard[oa]s?|cretin[oa]s?"),
    (
        "es",
        "weak",
        False,
        r"retrasad[oa]s?|tont[oa]s?|bobo|inutil|basura|zorra|perra|boludo|huev?on|marica|weon",
    ),
    ("es pt", "weak", False, r"burr[oa]s?"),
    ("es", "swear", False, r"\w*mierd\w*|put(?:a|as|o|os|ita|itas|ada|adas)|joder|jodid[oa]s?"),
    ("es", "swear", False, r"chinga\w*|chingad\w*|pinche|carajo|cojones|verga|polla|pollas"),
    ("es", "swear", False, r"cag(?:ar|ada|ado|o|aste|on)"),
    ("es it", "swear", False, r"culo|culos"),
    # Portuguese (Brazilian chat mostly, accents dropped).
    ("pt", "insult", True, r"vtnc|vsf|tnc|tmnc"),
    ("pt fr", "insult", False, r"fdp"),
    ("pt", "insult", False, r"cuzao|cuzona|arrombad\w*|otari[oa]s?|babac\w*|vagabund[oa]s?"),
    ("pt", "insult", False, r"desgracad[oa]s?|filhodaputa|corno|retardad[oa]s?|viad[oa]\w*"),
    ("pt", "weak", False, r"lix[oa]|veado|bicha|piranha|safad[oa]|lerd[oa]|trouxa"),
    ("pt", "swear", False, r"porra\w*|caralh\w*|krl|crl|pqp|bucet\w*|bocet\w*|cacete"),
    ("pt", "swear", False, r"fod(?:a|as|e|er|eu|endo|ido|ida|idos|ase|ao|inha)|bosta\w*"),
    ("pt it fr", "swear", False, r"\w*merd\w*"),
    # French.
    ("fr", "slur", False, r"bougnoul\w*|youpin\w*"),
    ("fr", "insult", True, r"ntm|ftg|niquetamere"),
    ("fr", "insult", False, r"connard\w*|connasse\w*|\w*encul\w*|enfoir\w*|salop\w*|salaud\w*"),
    ("fr", "insult", False, r"batard\w*|tafiole\w*|abruti\w*|debile\w*|branleu\w*"),
    ("fr", "insult", False, r"boloss\w*|pouffiasse\w*|grognasse\w*|petasse\w*|pute|putes"),
    ("fr", "weak", False, r"bouffon\w*|naze|nul|nulle|tapette|boulet"),
    ("fr", "swear", False, r"putain\w*|ptn|\w*couill\w*|chier|chiant\w*|nique|niquer|chatte"),
    # Turkish (accents dropped, dotless i as i).
    ("tr", "threat", False, r"geber\w*"),
    ("tr", "insult", True, r"siktir\w*"),
    ("tr", "insult", False, r"\w*orospu\w*|\w*orosbu\w*|\w*oruspu\w*|ibne\w*|ipne\w*|pezeven\w*"),
    ("tr", "insult", False, r"kahpe\w*|yavsak\w*|serefsiz\w*|gerizekal\w*|salak\w*|aptal\w*"),
    ("tr", "insult", False, r"dangalak\w*|gavat\w*|kavat\w*|kaltak\w*|surtuk\w*|lavuk\w*"),
    ("tr", "insult", False, r"angut\w*|embesil\w*|beyinsiz\w*|dalyarak\w*|malsin|malsiniz"),
    ("tr", "weak", False, r"okuz|hayvan|kopek|ezik|keriz|hiyar"),
    ("tr", "swear", False, r"amk|amq|aq|am(?:ina|ini|cik|cig|ck)\w*|\w*sikeyim|\w*sikerim"),
    ("tr", "swear", False, r"sik(?:erim|eyim|tim|ik|iyim|ti|iyorum|is|ecem|ecek|er)\w*"),
    ("tr", "swear", False, r"yarr?a[kg]\w*|yarram\w*|boktan\w*|bokum"),
    # Italian.
    ("it", "threat", True, r"ammazzati|ucciditi|suicidati"),
    ("it", "insult", True, r"vaffancul\w*|fanculo|affanculo|fottiti|succhiamelo"),
    ("it", "insult", False, r"\w*stronz\w*|\w*coglion\w*|puttan\w*|troi(?:a|e)|zoccol\w*"),
    ("it", "insult", False, r"cornut[oai]|pirla|imbecill[ei]|minchion\w*|leccacul\w*"),
    ("it", "insult", False, r"mongoloide|mignott\w*|baldracc\w*|frocio|froci"),
    ("it", "insult", False, r"ricchion\w*|recchion\w*|rompi(?:palle|balle|coglioni)|cacasotto"),
    ("it", "insult", False, r"terron[ei]"),
    (
        "it",
        "weak",
        False,
        r"ritardat[oai]|scem[oai]|cagna|vacca|porco|maiale|demente|sfigat[oai]|deficient[ei]",
    ),
    ("it", "swear", False, r"\w*cazz\w*|\w*minchi\w*|fica|figa|sborr\w*|bocchin\w*|pompin\w*"),
    ("it", "swear", False, r"fott(?:ere|uto|uta|uti)"),
    # Russian typed in Latin letters ("cyka blyat", "nahuy", "pizdec"), after the languages
    # that write these roots in Latin themselves (Polish and Czech "pizda", "jebat").
    ("ru", "insult", False, r"(?:dolb[oa]|u|y)(?:y?eb|yob)(?:ok|an|ish)\w*|mudak\w*|mudil\w*"),
    ("ru", "insult", False, r"pid[oa]r\w*|pidr\w*|g[ao]ndon\w*|shl[yi]?u(?:kh|h)\w*|suchk\w*"),
    ("ru", "insult", True, r"(?:ot)?sosi"),
    ("ru pl cs", "swear", False, r"\w*pizd\w*|\w*pezd\w*"),
    (
        "ru",
        "swear",
        False,
        r"(?:na|po|ni)?(?:k?huy|k?hui|xuy|xui|xyu|khuj)(?:|a|e|ya|nya|lo|ny|ovo|ovy|ovi)",
    ),
    ("ru", "swear", False, r"bl[yj]a(?:t|d|dt|tb)?|bl[yj]at\w*|blyad\w*|bliat\w*|cyka|cuka"),
    (
        "ru",
        "swear",
        False,
        r"(?:za|na|u|vy|ot|po|pro|do|raz)?(?:y?eb|yob)(?:al|an|at|nut|lo|uch|ash|ut)\w*",
    ),
)

# Phrases: (language, tier, directed, words as read). glin-profanity's own phrases are added
# at build time; these are the ones its lists lack or that must outrank the words inside them.
_PHRASES: tuple[tuple[str, Tier, bool, str], ...] = (
    ("ru", "insult", True, "иди нахуй"),
    ("ru", "insult", True, "пошел нахуй"),
    ("ru", "insult", True, "пошла нахуй"),
    ("ru", "insult", True, "иди на хуй"),
    ("ru", "insult", True, "пошел в жопу"),
    ("ru", "insult", True, "завали ебало"),
    ("ru", "insult", True, "закрой рот"),
    ("ru", "insult", True, "закрой пасть"),
    ("ru", "insult", True, "idi nahuy"),
    ("ru", "insult", True, "idi nahui"),
    ("ru", "threat", True, "убей себя"),
    ("ru", "threat", True, "я тебя убью"),
    ("ru", "threat", True, "убить тебя"),
    ("ru", "threat", True, "чтоб ты сдох"),
    ("ru", "swear", False, "твою мать"),
    ("pl", "insult", True, "zamknij morde"),
    ("pl", "insult", True, "zamknij ryj"),
    ("pl", "insult", True, "stul pysk"),
    ("pl", "threat", True, "zabij sie"),
    ("pl", "threat", True, "powies sie"),
    ("pl", "threat", True, "zabije cie"),
    ("cs", "threat", True, "zabij se"),
    ("cs", "threat", True, "zabiju te"),
    ("cs", "threat", True, "obes se"),
    ("cs", "insult", True, "drz hubu"),
    ("cs", "insult", True, "drz picu"),
    ("de", "insult", True, "fick dich"),
    ("de", "insult", True, "halt die fresse"),
    ("de", "insult", True, "halts maul"),
    ("de", "insult", True, "halt s maul"),
    ("de", "insult", True, "halt dein maul"),
    ("de", "insult", True, "verpiss dich"),
    ("de", "threat", True, "bring dich um"),
    ("de", "threat", True, "ich tote dich"),
    ("de", "threat", True, "hang dich auf"),
    ("de", "threat", True, "stirb"),
    ("es", "insult", True, "vete a la mierda"),
    ("es", "insult", True, "vete al carajo"),
    ("es", "insult", True, "cierra la boca"),
    ("es", "insult", True, "cierra el pico"),
    ("es", "insult", False, "hijo de puta"),
    ("es", "insult", False, "hija de puta"),
    ("es", "insult", False, "hijo de perra"),
    ("es", "threat", True, "te voy a matar"),
    ("es", "threat", True, "te mato"),
    ("es", "threat", True, "ojala te mueras"),
    ("es", "threat", True, "mata te"),
    ("es", "threat", True, "suicida te"),
    ("pt", "insult", True, "vai se foder"),
    ("pt", "insult", True, "vai te foder"),
    ("pt", "insult", True, "vai tomar no cu"),
    ("pt", "insult", True, "toma no cu"),
    ("pt", "insult", True, "cala a boca"),
    ("pt", "insult", True, "cala boca"),
    ("pt", "insult", False, "filho da puta"),
    ("pt", "insult", False, "filha da puta"),
    ("pt", "swear", False, "puta que pariu"),
    ("pt", "threat", True, "vou te matar"),
    ("pt", "threat", True, "se mata"),
    ("pt", "threat", True, "vai se matar"),
    ("fr", "insult", True, "ta gueule"),
    ("fr", "insult", True, "ferme ta gueule"),
    ("fr", "insult", True, "va te faire foutre"),
    ("fr", "insult", True, "va te faire enculer"),
    ("fr", "insult", True, "va chier"),
    ("fr", "insult", True, "nique ta mere"),
    ("fr", "insult", True, "nique ta race"),
    ("fr", "insult", False, "fils de pute"),
    ("fr", "insult", False, "sac a merde"),
    ("fr", "insult", False, "trou du cul"),
    ("fr", "insult", True, "espece de con"),
    ("fr", "insult", True, "t es con"),
    ("fr", "insult", True, "tu es con"),
    ("fr", "insult", True, "t es trop con"),
    ("fr", "insult", True, "t es vraiment con"),
    ("fr", "insult", True, "sale con"),
    ("fr", "insult", True, "pauvre con"),
    ("fr", "insult", True, "gros con"),
    ("fr", "insult", True, "petit con"),
    ("fr", "insult", True, "quel con"),
    ("fr", "insult", False, "bande de cons"),
    ("fr", "threat", True, "je vais te tuer"),
    ("fr", "threat", True, "je vais te buter"),
    ("fr", "threat", True, "je te tue"),
    ("fr", "threat", True, "va te pendre"),
    ("fr", "threat", True, "va crever"),
    ("fr", "threat", True, "suicide toi"),
    ("fr", "threat", True, "tue toi"),
    ("tr", "insult", True, "siktir git"),
    ("tr", "insult", True, "siktir ol git"),
    ("tr", "insult", True, "orospu cocugu"),
    ("tr", "insult", True, "kapa ceneni"),
    ("tr", "threat", True, "kendini oldur"),
    ("tr", "threat", True, "seni oldurecegim"),
    ("tr", "threat", True, "seni oldururum"),
    ("it", "insult", False, "testa di cazzo"),
    ("it", "insult", False, "pezzo di merda"),
    ("it", "insult", False, "figlio di puttana"),
    ("it", "insult", False, "figlio di troia"),
    ("it", "insult", True, "stai zitto"),
    ("it", "insult", True, "chiudi il becco"),
    ("it", "swear", False, "porco dio"),
    ("it", "swear", False, "dio porco"),
    ("it", "swear", False, "dio cane"),
    ("it", "swear", False, "porca madonna"),
    ("it", "swear", False, "porca puttana"),
    ("it", "swear", False, "porca troia"),
    ("it", "threat", True, "ti ammazzo"),
    ("it", "threat", True, "ti uccido"),
    ("it", "threat", True, "spero che muori"),
)

# Dictionary entries that are not abuse in a poker room, by language, accent-free as read
# (an accented form listed here goes whole; an accent-free one keeps the accented spelling,
# so "göt" stays while "got" goes). Found by reading the lists and by running the lexicon over
# clean table talk in every language and English chat: poker words and card ranks, food,
# animals, body and sex words that are not insults, drink, drugs, politics and religion,
# identity words, and other languages' ordinary words.
_DROPPED: dict[str, frozenset[str]] = {
    "ru": _words(
        "бардак бугор голый мент обнаженныи обнаженный секс фига хапать офигеть хрен сиски "
        "prissat uboy gol byk perdet"
    ),
    "pl": _words("jajco jajeczko jajko jajo cyc syf dmuchac rzygac duperele sraczka"),
    "cs": _words("bordel zrat pichat drstka drzka cumet chcanky"),
    "de": _words(
        "bimbo bonze mufti nackt nippel popel rosette lummel milf orgasmus porno reudig "
        "nigger niggers pinkeln kimme ische fratze bratze poppen pimpern schnackeln "
        "morgenlatte onanieren "
        "mopse mose tittchen titten pissen schabracke bumsen vogeln dodel pimmel muschi"
    ),
    "es": _words(
        "asesinato asno concha drogas infierno maldito martillo nazi racista sexo trio orina "
        "pedo pis semen esperma vulva heroina sadico travesti pervertido pezon coprofagia "
        "caca maciza macizorra chupada chupeton prostituta cono"
    ),
    "pt": _words(
        "aborto amador anus aranha ariano bissexual boob bumbum camisinha cerveja chupar "
        "clitoris cocaina comer consolo gozar grelho heroina heterosexual homoerotico "
        "homosexual inferno lesbica lolita mama pau peidar penis pinto saco torneira transar "
        "vibrador sacanagem queca fecal balalao"
    ),
    "fr": _words(
        "baiser bander bigornette bite bitte bloblos bordel bosser bourre bourree cailler "
        "clito clitoris drague folle foutre gerbe gerber gueule jouir meuf pipi pisser "
        "palucher peter ramoner suce tanche teuch teuf tringler trique troncher turlute "
        "veuve zizi zigounette deconne deconner caca pede pédale pedale chiasse chiottes "
        "malpt"
    ),
    "tr": _words(
        "abaza adi ahmak akp allahsiz amarim amed anal analarn anam anamla anan anana anandan "
        "anani ananin anann ananz anas anasi anasini anay anayin anneni annenin annesiz ass "
        "atkafasi auzlu avon avrat azdim azdir azdirici bastard basur bayanlar begen "
        "begenirmisiniz bira biseksuel bisekuel bisexual bitch biting boner bosalmak boycot "
        "boycott boykot bosluk browni bizir ccc cenabet cif cikar cim dede destek destekk "
        "desteginizi devsol dhkp diktim dildo din dinci dinsiz domal durum edit emek emi "
        "ensest erotik escinsel eben ebeni ebenin ebeninki farmasi fasist fasizm feristah "
        "ferre fuck fucker fuckin fucking firsat gasp gay goddamn got gotten hack hanimlar "
        "haydar haysiyetsiz hayvan hile hizbullah homo hosafi hristiyan hirsiz idiot idiyot "
        "igrenc israil israli israyil kani kaka kazma kazik kacirma kayyum komonist komunist "
        "komunizm kongragel kurdistan lan lanet lann len leyn libos madafaka manda meme "
        "memelerini mal mallar moloz moron motherfucker musevi musluman nah odun oglan "
        "oriflame oruc oyna penis peygamber pic pipi pipis pis pkk porn porno protesto pussy "
        "putperest putpererst rahminde rak raki revizyonist sahtekar sakso saksofon sayfa "
        "seks sex sexs shit sie sigara sikil sikilmis sikilmi sikildiini sikilsin "
        "sikilesice sikici sperm takip takma teror terorist tayyip top toplarm travesti "
        "transeksuel ulan ulen ulker ulkucu vagina vajina vodka votka whore yahudi yaudi "
        "yagudi zina poop sike thumb goyiim goyum goyyim bok boku boka bokbok kuku okuz oc "
        "kro kiro sisme kiç kic oglanci dinci"
    ),
    "it": _words(
        "anale balle battere biga bofilo boiata brinca cadavere cammello cappella carciofo "
        "carita casci cozza culattina duro fava femminuccia figone finocchio goldone "
        "grilletto guanto guardone ingoio lecchino lumaca manico monta montare nudo palle "
        "palloso patacca pecorina pesce picio pipa pipi pippone pisello pistola pistolotto "
        "pompa porca quaglia regina rizzarsi sbattere sbattersi sega spagnola tette tirare "
        "topa uccello vacca vangare venire zinne bagnarsi ciospo loffa lofare loffare mona "
        "mussa arrapato allupato assatanato pisciare piscio cacca scopare scopata pomiciare "
        "sveltina sverginare slinguare slinguata soccia socmel pincare tarzanello "
        "caciocappella fracicone padulo mannaggia ammucchiata sbrodolata smandrappata "
        "spompinare succhiami puppami potta"
    ),
}
# Dropped as whole phrases (as read, accent-free).
_DROPPED_PHRASES = frozenset(
    [
        "какая разница",
        "другой дразнится",
        "на фиг",
        "половое сношение",
        "хер с неи",
        "хер с ней",
        "хер с ним",
        "ты мне ваньку не валяи",
        "ты мне ваньку не валяй",
        "курите мою трубку",
        "frango assado",
        "passar um cheque",
        "homem gay",
        "fiesta de salchichas",
        "haciendo el amor",
        "hacer una paja",
        "sexo oral",
        "tetas grandes",
        "tia buena",
        "buona donna",
        "nave scuola",
        "l arte bolognese",
        "zio cantante",
        "porca miseria",
        "porco zio",
        "porco due",
        "fuori come un balcone",
        "menage a trois",
        "grande folle",
        "brouter le cresson",
        "ev hanimlari",
        "is firsati",
        "kariyer firsati",
        "calismak istermisiniz",
        "sana ne",
        "ilk yorum",
        "takip et",
        "giren cikan",
        "domuz yagi",
        "emek server",
        "wslik server",
        "patlak zar",
        "kafam girsin",
        "anlik begeni",
        "sevgi koyarim",
        "laciye boyadim",
        "kro musunuz",
        "hz muhammed",
        "hz omer",
        "30 1",
        "18",
    ]
)
# Entries of three letters or fewer go unless kept here: too many are another language's
# ordinary word ("con", "pot", "cul", "mal", "ak").
_KEPT_SHORT = _words("хуй бля чмо amk amq aq oç hdp vsf fdp krl crl pqp ntm ftg tnc huj")
# Ordinary words that a stem rule would take, or English words a rule shares (accent-free).
_ALLOWED = _words(
    "страхуй страхую страхуя страхуем страхуете страхуешь страхуют хулиган хулиганы "
    "хулиганка ебург бляха бляху бляхи сукно сукна сучок раки "
    "hui huit amina aminah sikke sikinti marsch marschieren barsch harsch fickle "
    "cretin cretins imbecile imbeciles idiot idiots bastard bastards spastic jeb mrd "
    "kurde kurcze"
)
# Second-person words by language ("ты", "du", "eres", "vc"): an insult near one is aimed.
SECOND_PERSON: dict[str, frozenset[str]] = {
    "ru": _words(
        "ты тебя тебе тобой тобою твой твоя твою твое твои твоего твоей твоему вы вас вам "
        "ваш ваша ваши сам сама иди пошел пошла ty tebya tebe idi"
    ),
    "pl": _words(
        "ty cie ciebie tobie toba twoj twoja twoje twoja twojego twojej twoich jestes wy "
        "was wam jestescie ci"
    ),
    "cs": _words("ty te tebe tobe tobe tvoje tvuj tvoji tvoje jsi ses jses vy vas vam"),
    "de": _words("du dich dir dein deine deinen deinem deiner bist ihr euch euer eure"),
    "es": _words("tu te ti eres vos sos usted tus contigo"),
    "pt": _words("voce vc vcs voces tu te teu tua seu sua seus suas es"),
    "fr": _words("tu t toi te ta ton tes vous votre vos"),
    "tr": _words("sen seni sana senin sende senden siz sizi size sizin lan"),
    "it": _words("tu ti te sei tuo tua tuoi tue voi siete"),
}
# First-person words: an insult aimed at oneself ("я лох", "soy un idiota") is not abuse.
FIRST_PERSON: dict[str, frozenset[str]] = {
    "ru": _words("я меня мне мной сам"),
    "pl": _words("ja mnie jestem"),
    "cs": _words("ja jsem me"),
    "de": _words("ich bin mich mir"),
    "es": _words("yo soy me"),
    "pt": _words("eu sou me"),
    "fr": _words("je j suis moi"),
    "tr": _words("ben beni bana"),
    "it": _words("io sono mi"),
}
# "Your mother" words: with a vulgar word they make an insult about the player's family.
MOTHER: dict[str, frozenset[str]] = {
    "ru": _words("мать мамку мамка мамке мамаша мамашу матери мамой мамкой мамашку"),
    "pl": _words("matka matke matki stara stara starej"),
    "cs": _words("mama mamu matka matku mamy"),
    "de": _words("mutter mutti mama"),
    "es": _words("madre mama vieja"),
    "pt": _words("mae mamae"),
    "fr": _words("mere maman"),
    "tr": _words("ana anan anani ananin anana anneni annen annenin bacini"),
    "it": _words("madre mamma mammeta"),
}
# Turkish puts "you are" on the word itself: "salaksın", "aptalsin".
TURKISH_YOU = re.compile(r"\w+(?:sin|sun|siniz|sunuz)")


@dataclass(frozen=True, slots=True)
class Lexicon:
    exact: dict[str, Entry]  # dictionary word as typed with its accents -> entry
    plain: dict[str, Entry]  # accent-free dictionary word -> entry
    squeezed: dict[str, Entry]  # the same with doubled letters single, for stretched words
    phrases: dict[str, tuple[tuple[tuple[str, ...], Entry], ...]]  # first word -> the rest
    rules: re.Pattern[str]
    rule_meta: tuple[tuple[tuple[str, ...], Tier, bool], ...]
    # Every ASCII word that can be or start a dictionary match: the English fast path.
    ascii_words: frozenset[str]

    def classify(self, form: str) -> Entry | None:
        """The stem rule that `form` (one accent-free word) falls under, if any."""
        if form in _ALLOWED:
            return None
        found = self.rules.fullmatch(form)
        if found is None or found.lastgroup is None:
            return None
        languages, tier, directed = self.rule_meta[int(found.lastgroup[1:])]
        return Entry(form, languages, tier, directed)


_TIER_RANK: dict[str, int] = {"weak": 0, "swear": 1, "insult": 2, "slur": 3, "threat": 4}


def glin_words(language: str) -> list[str]:
    """One language's list from the installed glin-profanity package (its data files only:
    none of its matcher is imported, so none of its dependencies matter)."""
    folder = resources.files("glin_profanity").joinpath("data", "dictionaries")
    text = folder.joinpath(_DICTIONARIES[language]).read_text(encoding="utf-8")
    return [str(word) for word in json.loads(text)["words"]]


def _merge(table: dict[str, Entry], key: str, entry: Entry) -> None:
    """Add `entry` under `key`; a word in two languages' lists keeps both, and the worse tier."""
    old = table.get(key)
    if old is None:
        table[key] = entry
        return
    languages = tuple(sorted({*old.languages, *entry.languages}))
    worst = old if _TIER_RANK[old.tier] >= _TIER_RANK[entry.tier] else entry
    table[key] = Entry(worst.term, languages, worst.tier, old.directed or entry.directed)


def _compiled_rules() -> tuple[re.Pattern[str], tuple[tuple[tuple[str, ...], Tier, bool], ...]]:
    meta = tuple((tuple(lang.split()), tier, directed) for lang, tier, directed, _ in _RULES)
    rules = re.compile("|".join(f"(?P<r{i}>{p})" for i, (*_, p) in enumerate(_RULES)))
    return rules, meta


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """Built once per process from the installed dictionaries, the rules and the phrases."""
    rules, meta = _compiled_rules()
    tiers = Lexicon({}, {}, {}, {}, rules, meta, frozenset())  # only its rules, to tier entries
    exact: dict[str, Entry] = {}
    plain: dict[str, Entry] = {}
    squeezed: dict[str, Entry] = {}
    phrases: dict[str, list[tuple[tuple[str, ...], Entry]]] = {}
    for language, tier, directed, text in _PHRASES:  # first: they outrank the lists' own
        words = read(text)
        entry = Entry(text, (language,), tier, directed)
        phrases.setdefault(words[0].plain, []).append((tuple(w.plain for w in words[1:]), entry))
    for language in _DICTIONARIES:
        dropped = _DROPPED[language]
        for raw in glin_words(language):
            words = read(raw)
            if len(words) > 1 and all(len(w.plain) <= 2 for w in words):
                words = read("".join(w.plain for w in words))  # "a.q" is "aq", not a phrase
            if len(words) > 1:
                key = " ".join(w.plain for w in words)
                if key in _DROPPED_PHRASES or all(w.plain in dropped for w in words):
                    continue
                entry = Entry(" ".join(w.form for w in words), (language,), "swear", False)
                ruled = [tiers.classify(w.plain) for w in words]
                worst = max((e.tier for e in ruled if e), key=_TIER_RANK.__getitem__, default=None)
                if worst is not None and worst != "weak":
                    entry = entry._replace(tier=worst)
                rest = tuple(w.plain for w in words[1:])
                phrases.setdefault(words[0].plain, []).append((rest, entry))
                continue
            if not words or words[0].form in dropped or words[0].plain in _ALLOWED:
                continue
            word = words[0]
            if len(word.plain) <= 3 and not _KEPT_SHORT.intersection((word.plain, word.form)):
                continue
            ruled_word = tiers.classify(word.plain)
            entry = Entry(word.form, (language,), "swear", False)
            if ruled_word is not None:
                entry = entry._replace(tier=ruled_word.tier, directed=ruled_word.directed)
            _merge(exact, word.form, entry)
            if word.plain not in dropped:
                _merge(plain, word.plain, entry)
                if word.squeezed not in dropped and word.squeezed not in _ALLOWED:
                    _merge(squeezed, word.squeezed, entry)
    starts = {first: tuple(found) for first, found in phrases.items()}
    # A phrase cannot match without its longest word: that one word stands for it.
    anchors = [max((first, *rest), key=len) for first, found in starts.items() for rest, _ in found]
    ascii_words = frozenset(k for k in [*plain, *anchors] if k.isascii())
    return Lexicon(exact, plain, squeezed, starts, rules, meta, ascii_words)


class Hit(NamedTuple):
    entry: Entry
    start: int  # its first word's place among the message's words
    width: int  # how many words it covers
    typed: str


def lookup(word: Word) -> Entry | None:
    """The entry one word is: a dictionary word (accented, accent-free, squeezed) or a stem."""
    lex = lexicon()
    found = lex.exact.get(word.form) or lex.plain.get(word.plain)
    if found is not None or word.plain in _ALLOWED:
        return found
    if word.squeezed == word.plain:
        return lex.classify(word.plain)
    return (
        lex.squeezed.get(word.squeezed) or lex.classify(word.plain) or lex.classify(word.squeezed)
    )


def find(words: tuple[Word, ...]) -> list[Hit]:
    """Every lexicon entry in `words`: phrases first, then the words they leave."""
    lex = lexicon()
    hits: list[Hit] = []
    covered: set[int] = set()
    plains = tuple(w.plain for w in words)
    for i, word in enumerate(words):
        for rest, entry in lex.phrases.get(word.plain, ()):
            end = i + 1 + len(rest)
            if plains[i + 1 : end] == rest:
                hits.append(Hit(entry, i, end - i, " ".join(w.typed for w in words[i:end])))
                covered.update(range(i, end))
                break
    for i, word in enumerate(words):
        if i not in covered:
            single = lookup(word)
            if single is not None:
                hits.append(Hit(single, i, 1, word.typed))
    return hits


# Traces of obfuscation in ASCII text: a digit or symbol inside a word, a letter three times,
# letters spaced out. An ASCII message without them is read word by word (`ascii_may_match`).
_ASCII_SUSPECT = re.compile(
    r"[a-z][0-9@$!*]+[a-z]|([a-z])\1\1"
    r"|(?<![a-z0-9])[a-z][ .\-_*+]{1,3}[a-z][ .\-_*+]{1,3}[a-z](?![a-z0-9])"
)
_ASCII_WORDS = re.compile(r"[a-z]+")
# Each ASCII word's verdict (stem rules, stretched dictionary words), learnt once: table chat
# reuses a small vocabulary, so a message's words are dict hits. Bounded: past the cap words are
# not learnt.
_ascii_rule_memo: dict[str, bool] = {}
_ASCII_MEMO_MAX = 65536


def ascii_may_match(lowered: str) -> bool:
    """False when an ASCII message (lower-cased) certainly holds nothing of the lexicon."""
    lex = lexicon()
    words = _ASCII_WORDS.findall(lowered)
    if not lex.ascii_words.isdisjoint(words) or _ASCII_SUSPECT.search(lowered) is not None:
        return True
    memo = _ascii_rule_memo
    for word in words:
        ruled = memo.get(word)
        if ruled is None:
            read_word = _word(word)  # a rule, or a stretched dictionary word ("kurrwa")
            ruled = read_word is not None and lookup(read_word) is not None
            if len(memo) < _ASCII_MEMO_MAX:
                memo[word] = ruled
        if ruled:
            return True
    return False


class Found(NamedTuple):
    """One piece of abuse in a message, and whether it was aimed at someone."""

    term: str
    typed: str
    tier: Tier
    languages: tuple[str, ...]
    aimed: bool
    family: bool = False  # an insult about the player's mother


# How far (in words) a second-person word may be from a swear word for the swearing to count
# as aimed ("ты сука", "du Arsch"), and from a weak insult ("eres un inútil").
_SWEAR_REACH = 2
_WEAK_REACH = 3


def _near(plains: tuple[str, ...], hit: Hit, vocabulary: frozenset[str], reach: int) -> bool:
    before = plains[max(0, hit.start - reach) : hit.start]
    after = plains[hit.start + hit.width : hit.start + hit.width + reach]
    return not vocabulary.isdisjoint(before) or not vocabulary.isdisjoint(after)


def _union(table: dict[str, frozenset[str]], languages: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*(table[language] for language in languages))


_ANY_SECOND = _union(SECOND_PERSON, tuple(SECOND_PERSON))
_ANY_MOTHER = _union(MOTHER, tuple(MOTHER))


def abuse_in(text: str) -> tuple[Found, ...]:
    """The abuse in `text` in the room's other languages, each piece aimed or not.

    Aimed: the term is aimed by its own form ("spierdalaj", a vocative, "siktir"), it is a
    threat, a second-person word or a mention is in the message (near the word, for swearing
    and for words that are insults only when aimed), Turkish "you are" is on the word, the
    player's mother is named beside vulgarity, or the insult is the whole message. An insult
    beside a first-person word and no second person is about the speaker ("я лох") and is
    dropped; words that are insults only when aimed are dropped when they are not.
    """
    if text.isascii() and not ascii_may_match(text.lower()):
        return ()
    words = read(text)
    hits = find(words)
    if not hits:
        return ()
    plains = tuple(w.plain for w in words)
    present = frozenset(plains)
    mention = any(w.mention for w in words)
    covered = sum(h.width for h in hits)
    bare = len(words) - covered <= 1
    last = len(words) - 1
    mother = not _ANY_MOTHER.isdisjoint(present)
    found: list[Found] = []
    for hit in hits:
        entry = hit.entry
        own = entry.languages
        context = tuple(
            lang
            for lang in own
            if not (SECOND_PERSON[lang] | FIRST_PERSON[lang] | MOTHER[lang]).isdisjoint(present)
        )
        languages = context or own
        second = not _ANY_SECOND.isdisjoint(present)
        first = not _union(FIRST_PERSON, own).isdisjoint(present)
        family = (
            mother
            and entry.tier in ("swear", "insult")
            and not _union(MOTHER, languages).isdisjoint(present)
        )
        turkish_you = "tr" in own and TURKISH_YOU.fullmatch(words[hit.start].plain) is not None
        if entry.tier == "weak":
            aimed = turkish_you or _near(plains, hit, _union(SECOND_PERSON, own), _WEAK_REACH)
            if not aimed:
                continue
        elif entry.tier == "slur":
            aimed = entry.directed or second or mention
        elif entry.tier == "insult":
            if first and not second and not entry.directed and not mention:
                continue
            # First or last word: where a message addresses someone ("pendejo, aprende").
            address = hit.start == 0 or hit.start + hit.width - 1 == last
            aimed = entry.directed or second or mention or turkish_you or bare or family or address
        elif entry.tier == "threat":
            aimed = True
        else:
            aimed = (
                entry.directed
                or mention
                or family
                or _near(plains, hit, _union(SECOND_PERSON, own), _SWEAR_REACH)
            )
        found.append(Found(entry.term, hit.typed, entry.tier, languages, aimed, family))
    return tuple(found)
