# ruff: noqa: RUF001, RUF003
# (Cyrillic and Latin look-alike letters are the point of the reading tables below.)
"""The other languages' abuse words: stem rules, phrases, what is dropped from glin-profanity's
dictionaries and the person words that aim an insult.

Data only, kept apart from the matcher (`multilingual_terms`) so a moderator who reads the
language can review and edit the words without reading matching code. The dictionaries
themselves are glin-profanity's (MIT), read from the installed package at first use
(`multilingual_terms.glin_words`), never copied here. They are noisy for a poker room:
"regina" (queen), "pesce" (fish), "trio" (trips), "comer", "venire", "destek", "oyna" are
ordinary words, and several entries are English or another language's ordinary word ("con",
"pot", "got", "mal"). So entries of three letters or fewer go unless kept on purpose, entries
in `DROPPED` go (found by running the lexicon over clean table talk in every language and
English chat), and tiers come from per-language stem rules, which also catch the inflected
forms Slavic and Turkish chat uses ("заебал", "wypierdalaj", "siktirgit").
"""

from __future__ import annotations

import re
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
    "el": "Greek",
    "ar": "Arabic",
}
# glin-profanity has no Greek list, and its Arabic one is mostly ordinary words ("حمام" bath,
# "شعر" hair, "مراتي" my wife): both languages are read by the stem rules below alone.
DICTIONARIES: dict[str, str] = {
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
RULES: tuple[tuple[str, Tier, bool, str], ...] = (
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
    # Online and political name-calling the glin list lacks (VK and Telegram comment threads).
    ("ru", "slur", False, r"пиндос\w*|укроп(?:ы|ов|ам|ами)|укрофашист\w*|жидобандер\w*"),
    ("ru", "insult", False, r"быдл\w*|ватник\w*|ватан(?:ы|ов|ам|ами)|кремлебот\w*|либераст\w*"),
    ("ru", "insult", False, r"подон(?:ок|ка|ку|ком|ки|ков)|проститутк\w*|пратитутк\w*|шмар\w*"),
    ("ru", "insult", False, r"дебилоид\w*|петушар\w*|дурач(?:ок|ка|ку|ком|ки|ье)|дурочк\w*"),
    ("ru", "weak", False, r"крыс(?:а|ы|у|ой)|овощ(?:|и)|тряпк(?:а|и|у)|шут"),
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
    ("pl", "insult", True, r"ssij\w*|wypad|wypadaj|pajacu|frajerze|leszczu|glabie|cwelu"),
    ("pl", "insult", False, r"idiot(?:a|ow|om|ami|y|em|ce|ka|ki|ko|ko)|kretyn\w*|dzban\w*"),
    ("pl", "insult", False, r"skurw\w*|kurwiszon\w*|(?:z|po)jeb(?:|any|ana|ani|us|ie)"),
    (
        "pl",
        "insult",
        False,
        r"popierdolen\w*|kretyn\w*|dziwk\w*|cwel\w*|ciot(?:a|o|y|e|om|ami|ach)|gnoj\w*|scierw\w*",
    ),
    ("pl cs", "insult", False, r"debil(?:a|em|e|ami|om|ow|ny|na|ne|ni|izm|ko|ek|ku)|dupek\w*"),
    ("pl", "insult", False, r"matol\w*"),
    ("pl", "slur", False, r"czarnuch\w*"),
    ("pl cs", "weak", False, r"debil|baran\w*|osiol|osly|osle|szmat\w*|pedal|smiec|frajer\w*"),
    (
        "pl",
        "weak",
        False,
        r"smie(?:cia|ciem|ciu|cie|ci)|leszcz\w*|pajac\w*|glab|glaba|glabem|zalosn\w*|cienias\w*"
        r"|nieudacznik\w*|ofiar(?:a|o|y)|lamus\w*|wiesniak\w*|burak\w*|matol\w*",
    ),
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
    ("es", "insult", True, r"callate|chupamela|chupala|chupame|largate|mamamela"),
    ("es", "insult", False, r"culer[oa]s?|pringad[oa]s?|comemierda\w*|mamahuevo\w*|mamaguevo\w*"),
    ("es", "insult", False, r"malnacid[oa]s?|desgraciad[oa]s?|zopenc[oa]s?|mierdas"),
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
        r"retrasad[oa]s?|tont[oa]s?|bobo|inutil|basura|zorra|perra|boludo|huev?on|marica|weon"
        r"|payas[oa]s?|perdedor(?:a|es)?|lloron(?:a|es)?|manc[oa]s?|rata|ratas|cerd[oa]s?"
        r"|mediocre|mediocres|fracasad[oa]s?|patetic[oa]s?|ignorante|ignorantes",
    ),
    ("es pt", "weak", False, r"burr[oa]s?"),
    ("es", "swear", False, r"\w*mierd\w*|put(?:a|as|o|os|ita|itas|ada|adas)|joder|jodid[oa]s?"),
    ("es", "swear", False, r"jod(?:as|an|e|es|iendo)|hostias?|ostias?"),
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
    # Greek (accents dropped, final sigma as σ), and Greeklish. "μαλακό" is "soft": only the
    # insult's own endings; "κωλυμα" is an obstacle: only the word's own forms.
    ("el", "insult", True, r"γαμησου|γαμιεσαι|σκασε|βουλωσ\w*|μαλακα"),
    ("el", "slur", False, r"πουστ\w*|γυφτ\w*|αραπ(?:α|ας|ηδες|ες)|τουρκοσπορ\w*"),
    ("el", "insult", False, r"μαλακ(?:ας|ες|ισμεν\w*|ιστηρι\w*)|πουταν\w*|τσουλ\w*|καριολ\w*"),
    (
        "el",
        "insult",
        False,
        r"κερατα\w*|κερατ(?:ας|α|ε|αδες)|κοπροσκυλ\w*|μπασταρδ\w*|σκυλ(?:α|ες)",
    ),
    (
        "el",
        "insult",
        False,
        r"ηλιθι\w*|βλακ(?:α|ας|ες|εντι\w*)|καθυστερημεν\w*|αχρηστ(?:ε|ος|οι|η)",
    ),
    ("el", "insult", False, r"παλιο(?:μαλακ|πουταν|καριολ|σκυλ|γυφτ|πουστ)\w*|αρχιδ(?:ι|ια|ε)"),
    (
        "el",
        "swear",
        False,
        r"γαμω\w*|γαμη(?:μεν|θ|σ)\w*|γαμιολ\w*|σκατ(?:α|ο|ου)\w*|μουν(?:ι|ια|ακι)\w*",
    ),
    (
        "el",
        "swear",
        False,
        r"πουτσ\w*|καυλ\w*|κωλ(?:ος|ο|ου|α|ε|οπαιδ\w*|οφαρδ\w*|ομερ\w*)|μαλακια\w*",
    ),
    ("el", "insult", True, r"malaka|gamisou|gamiese"),
    ("el", "insult", False, r"malakas|poutana\w*|kariol\w*|pousti\w*|malakismen\w*|mounopan\w*"),
    ("el", "swear", False, r"gamw|gamo(?:to|tos)|skata|mouni|arxidia|poutsa\w*"),
    # Arabic (hamza, alef maqsura and ta marbuta folded; a prefixed "wa", "fa", "bi", "li" or
    # the article "al" taken with the word). Animals are insults only at someone ("يا كلب").
    ("ar", "threat", True, r"(?:ساقتلك|راح اقتلك|هقتلك|موت يا\w*)"),
    ("ar", "insult", True, r"(?:يلعن|الله يلعن|لعنه الله علي)\w*|انقلع|اخرس|اسكت يا\w*"),
    (
        "ar",
        "swear",
        False,
        r"(?:و|ف)?(?:كس|كسم|كسمك|كسك|كسختك|كسها|زب|زبي|زبك|زبر|طيزك|طيز)|(?:و|ف)?(?:ا|ي|ن|ت|م)?نيك\w*|منيوك\w*|متناك\w*",
    ),
    (
        "ar",
        "insult",
        False,
        r"(?:و|ف|يا)?(?:ال)?(?:شرموط|قحب|عرص|عاهر|ديوث|دياث|منايك|خول|لوطي|متناك|حقير|سافل|واطي|نذل|قذر|وسخ|زبال|تافه|منافق|خاين|خائن|اغبي|اغبياء|غبي)\w*",
    ),
    (
        "ar",
        "weak",
        False,
        r"(?:و|يا)?(?:ال)?(?:كلب|كلاب|حمار|حمير|خنزير|خنازير|حيوان|بهيم|جحش|بقره|غبي)",
    ),
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
PHRASES: tuple[tuple[str, Tier, bool, str], ...] = (
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
    ("pl", "threat", True, "idz sie powies"),
    ("pl", "insult", True, "pierdol sie"),
    ("pl", "insult", True, "odpierdol sie"),
    ("pl", "insult", True, "wal sie"),
    ("pl", "insult", True, "spierdalaj stad"),
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
    ("es", "threat", True, "te voy a partir la cara"),
    ("es", "threat", True, "te voy a romper la cara"),
    ("es", "threat", True, "te parto la cara"),
    ("es", "threat", True, "te rompo la cara"),
    ("es", "insult", True, "que te den por culo"),
    ("es", "insult", True, "que te jodan"),
    ("es", "insult", True, "vete a la verga"),
    ("es", "insult", True, "vete a cagar"),
    ("es", "insult", True, "anda a cagar"),
    ("es", "insult", True, "andate a la mierda"),
    ("es", "insult", False, "pedazo de mierda"),
    ("es", "insult", False, "tonto del culo"),
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
DROPPED: dict[str, frozenset[str]] = {
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
        "kro kiro sisme kiç kic oglanci dinci "
        # the accented spellings of religion, politics and drink, which the accent-free
        # entries above do not take with them (and the lexicon fired on in Turkish tweets)
        "terör terörist müslüman oruç rakı faşist faşizm iğrenç yahudi hıristiyan fırsat oğlan "
        "ülkücü"
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
DROPPED_PHRASES = frozenset(
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
KEPT_SHORT = _words("хуй бля чмо amk amq aq oç hdp vsf fdp krl crl pqp ntm ftg tnc huj")
# Ordinary words that a stem rule would take, or English words a rule shares (accent-free).
ALLOWED = _words(
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
        "was wam jestescie ci idz naucz zamknij spadaj"
    ),
    "cs": _words("ty te tebe tobe tobe tvoje tvuj tvoji tvoje jsi ses jses vy vas vam"),
    "de": _words("du dich dir dein deine deinen deinem deiner bist ihr euch euer eure"),
    "es": _words(
        "tu te ti eres vos sos usted tus contigo sois ustedes vosotros vosotras os tuyo tuya "
        "vete largate callate aprende"
    ),
    "pt": _words("voce vc vcs voces tu te teu tua seu sua seus suas es"),
    "fr": _words("tu t toi te ta ton tes vous votre vos"),
    "tr": _words("sen seni sana senin sende senden siz sizi size sizin lan"),
    "it": _words("tu ti te sei tuo tua tuoi tue voi siete"),
    "el": _words("εσυ σου σας εσεις εισαι εισαστε esy esu sou eisai"),
    "ar": _words("يا انت انتي انتم انتو انتوا ياك"),
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
    "el": _words("εγω μου με ειμαι ego egw"),
    "ar": _words("انا"),
}
# Object forms of the first person: "me robas" (you rob me) speaks of the speaker as the one
# wronged, not as the one insulted, so these never make an insult about its speaker.
FIRST_PERSON_OBJECTS = _words("me mich mir beni bana меня мне мной")
# Mother words that carry "your" themselves (Turkish "ananı", "anneni"): the rest insult a
# player's family only with a second person beside them ("tu madre", "twoja stara"), not in
# the exclamations "puta madre", "chingada madre", "твою мать" at the cards.
MOTHER_WITH_YOUR = _words("anan anani ananin anana anneni annen annenin bacini")
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
    "el": _words("μανα μανας μανουλα μητερα μανα σου"),
    "ar": _words("امك امه"),
}
# Turkish puts "you are" on the word itself: "salaksın", "aptalsin".
TURKISH_YOU = re.compile(r"\w+(?:sin|sun|siniz|sunuz)")
