"""Players' names compared as a director reads them (issue 18 §3).

Two names that look the same on every screen are the same player to the
room: "Case" and "case", "Ada" and "Ada\\u200b" (a zero-width space),
"Rossi" with a Greek omicron.  So a name is

- refused when it holds a character that shows nothing or turns the text's
  direction (zero-width spaces and joiners, LRM/RLM, the bidi embeddings,
  overrides and isolates, the BOM, soft hyphens, variation selectors, tags,
  private-use and unassigned code points, C0/C1 controls): ``check_name``;
- compared by its *key*: Unicode NFKC, case-folded, runs of spaces as one
  (``name_key``): the same key is the same name;
- and by its *skeleton*, after Unicode TR39's confusable skeleton reduced to
  the look-alikes a tournament meets: Greek and Cyrillic letters that are
  drawn as Latin ones (ο/о for o, Α/А for A, ...), dotless ı, and the digits
  0 and 1 for O and l (``skeleton``).  A name whose skeleton is a registered
  player's is refused with the name it resembles (``NameIndex.check``).

Accents are not look-alikes here (TR39 keeps "José" and "Jose" apart; so do
we: they are two spellings a director can tell).  Pure functions; the table
is small and written out below, not loaded.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from ._errors import InvalidContest

#: Characters that draw nothing or change the direction of the text, refused
#: in a name whatever their category (those of category Cf, Cc, Co, Cs, Cn,
#: Zl and Zp are refused too).
INVISIBLE = frozenset(
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u3164\uffa0"
    + "".join(chr(c) for c in range(0x200B, 0x2010))   # ZWSP ZWNJ ZWJ LRM RLM
    + "".join(chr(c) for c in range(0x202A, 0x202F))   # LRE RLE PDF LRO RLO
    + "".join(chr(c) for c in range(0x2060, 0x2070))   # WJ, invisible operators, isolates
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))   # variation selectors
    + "\ufeff"
)
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})

#: Look-alikes of Latin letters (TR39 confusables, the Greek, Cyrillic and
#: Latin ones a player's name meets), applied before case folding so that a
#: capital maps to the capital it is drawn as.
CONFUSABLES: dict[str, str] = {
    # Greek
    "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H", "\u0399": "I",
    "\u039a": "K", "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T",
    "\u03a5": "Y", "\u03a7": "X", "\u03b1": "a", "\u03b9": "i", "\u03ba": "k", "\u03bd": "v",
    "\u03bf": "o", "\u03c1": "p", "\u03c5": "u", "\u03c7": "x", "\u03b3": "y",
    # Cyrillic
    "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H",
    "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0425": "X", "\u0423": "Y",
    "\u0405": "S", "\u0406": "I", "\u0408": "J", "\u051a": "Q", "\u051c": "W", "\u04ae": "Y",
    "\u04c0": "I", "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c",
    "\u0443": "y", "\u0445": "x", "\u0455": "s", "\u0456": "i", "\u0458": "j", "\u051b": "q",
    "\u051d": "w", "\u04bb": "h", "\u0501": "d", "\u04cf": "l", "\u04af": "y",
    # Latin
    "\u0261": "g", "\u0131": "i", "\u0237": "j", "\u0251": "a", "\u2113": "l",
    # digits
    "0": "O", "1": "l",
}


def _refused(c: str) -> bool:
    return c in INVISIBLE or unicodedata.category(c) in _REFUSED_CATEGORIES


def check_name(name: str, field: str = "name") -> str:
    """``name`` if it holds no invisible, direction or control character, else
    ``InvalidContest`` naming ``field`` and the first such character."""
    for c in name:
        if _refused(c):
            what = unicodedata.name(c, "") or unicodedata.category(c)
            raise InvalidContest(f"{field}: must not hold invisible or text-direction "
                                 f"characters (U+{ord(c):04X} {what})".replace(" )", ")"))
    return name


def _spaces(text: str) -> str:
    return " ".join(text.split())


@lru_cache(maxsize=16384)
def name_key(name: str) -> str:
    """The name as compared: NFKC, case-folded, spaces collapsed."""
    return _spaces(unicodedata.normalize("NFKC", name).casefold())


@lru_cache(maxsize=16384)
def skeleton(name: str) -> str:
    """What the name looks like: NFKC, look-alikes mapped to the Latin letter
    they are drawn as (decomposed, so that an accent stays an accent), then
    case-folded, spaces collapsed."""
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    mapped = "".join(CONFUSABLES.get(c, c) for c in text)
    return _spaces(unicodedata.normalize("NFC", mapped).casefold())


class NameIndex:
    """The names taken, by skeleton: ``check`` a new name, then ``add`` it."""

    __slots__ = ("_by_skeleton",)

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_skeleton: dict[str, str] = {}
        for n in names:
            self.add(n)

    def resembles(self, name: str) -> str | None:
        """The name taken that ``name`` is or looks like, or None."""
        return self._by_skeleton.get(skeleton(name))

    def check(self, name: str, field: str = "name", what: str = "player") -> str:
        """``name`` if it is neither invisible-laden nor a look-alike of a name
        taken; ``InvalidContest`` naming ``field`` and the name it resembles."""
        check_name(name, field)
        other = self.resembles(name)
        if other is None:
            return name
        if other == name:
            raise InvalidContest(f"{field}: {name} is already the name of a {what}")
        if name_key(other) == name_key(name):
            raise InvalidContest(f"{field}: {name} is the same name as the {what} {other} "
                                 "(names are compared ignoring case and width)")
        raise InvalidContest(f"{field}: {name} looks like the {what} {other} (letters of "
                             "another alphabet, or digits for letters): give a name that "
                             "can be told apart")

    def add(self, name: str) -> None:
        self._by_skeleton.setdefault(skeleton(name), name)


def check_new_names(names: Iterable[tuple[str, str]], taken: Iterable[str] = (), *,
                    what: str = "player") -> None:
    """Check each ``(field, name)`` in turn against the names ``taken`` and
    those before it (a CSV's rows, a list of couples): ``InvalidContest``
    naming the first bad one's field and the name it resembles.  Linear in
    the names (one skeleton each)."""
    index = NameIndex(taken)
    for field, name in names:
        index.check(name, field, what)
        index.add(name)


#: Words that belong to the surname they precede ("Mario De Luca" is filed
#: under D, "Anna van der Berg" under V): the Italian, French, Dutch and
#: German particles a register meets, compared case-folded.
PARTICLES = frozenset({
    "d'", "da", "dal", "dalla", "dalle", "de", "de'", "dei", "degli", "del", "della", "delle",
    "dello", "der", "des", "di", "du", "la", "le", "lo", "van", "von", "ten", "ter",
})


def surname(name: str) -> str:
    """The surname a list by name files ``name`` under: the register keeps a
    person's name whole ("Nome Cognome", the import joins them so), so the
    surname is the last word, with the particles before it ("De Luca", "van
    der Berg"); a one-word name is its own surname."""
    words = name.split()
    k = len(words) - 1
    while k > 1 and words[k - 1].casefold() in PARTICLES:
        k -= 1
    return " ".join(words[k:]) if words else ""


def _collation(text: str) -> str:
    """``text`` as a collation compares it at the first level: NFKD, accents
    and other combining marks dropped, case-folded, spaces collapsed (so "Nicolò"
    sorts with "Nicolo", "Ávila" with "Avila", "d'Amico" beside "Damiani")."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _spaces(bare.casefold().replace("'", "").replace("\u2019", ""))


@lru_cache(maxsize=16384)
def surname_key(name: str) -> tuple[str, str, str]:
    """The key a list by name sorts by (issue 32 §5, "lists by name sort by
    surname"): the surname, then the whole name, each collated without case
    or accents (``_collation``), then the name itself so that two spellings
    keep one order.  "Nicolò Rossi" sorts under R, after "Anna Ricci" and
    before "Bruno Russo"; no locale database is read, so every process (and
    the pages, kit/names.js) files a name alike."""
    return (_collation(surname(name)), _collation(name), name)
