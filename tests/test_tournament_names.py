"""Players' names compared as a director reads them (issue 18 §3, pure):
invisible and direction characters refused, NFKC and case folded, and
look-alikes of another alphabet refused with the name they resemble."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgclock.tournament import InvalidContest
from bgclock.tournament._names import (
    CONFUSABLES,
    INVISIBLE,
    NameIndex,
    check_name,
    check_new_names,
    name_key,
    skeleton,
)

GREEK_O = "\u03bf"
CYRILLIC_A = "\u0430"
CYRILLIC_CAPITAL_ES = "\u0421"


@pytest.mark.parametrize("char, words", [
    ("\u200b", "ZERO WIDTH SPACE"),
    ("\u200c", "ZERO WIDTH NON-JOINER"),
    ("\u200d", "ZERO WIDTH JOINER"),
    ("\u200e", "LEFT-TO-RIGHT MARK"),
    ("\u200f", "RIGHT-TO-LEFT MARK"),
    ("\u202e", "RIGHT-TO-LEFT OVERRIDE"),
    ("\u2066", "LEFT-TO-RIGHT ISOLATE"),
    ("\u2069", "POP DIRECTIONAL ISOLATE"),
    ("\u061c", "ARABIC LETTER MARK"),
    ("\ufeff", "ZERO WIDTH NO-BREAK SPACE"),
    ("\u00ad", "SOFT HYPHEN"),
    ("\u2060", "WORD JOINER"),
    ("\ufe0f", "VARIATION SELECTOR-16"),
    ("\u0085", "U+0085"),
    ("\ue000", "U+E000"),
    ("\U000e0041", "TAG LATIN CAPITAL LETTER A"),
])
def test_invisible_and_direction_characters_are_refused_naming_the_field(
        char: str, words: str) -> None:
    with pytest.raises(InvalidContest) as caught:
        check_name(f"Ada{char}", "body.name")
    said = str(caught.value)
    assert said.startswith("body.name: must not hold invisible or text-direction characters")
    assert f"U+{ord(char):04X}" in said and words in said


def test_every_listed_invisible_character_is_refused() -> None:
    for char in INVISIBLE:
        with pytest.raises(InvalidContest):
            check_name(f"A{char}da")


@pytest.mark.parametrize("name", ["Ada", "José Ñúñez", "Ðorđe Šćepanović", "Zoë O'Neil",
                                  "Παπαδόπουλος", "Иванов", "山田 太郎", "Jean-Luc"])
def test_real_names_pass(name: str) -> None:
    assert check_name(name) == name
    assert NameIndex(["Bob", "Someone Else"]).check(name) == name


@pytest.mark.parametrize("taken, new, word", [
    ("Case", "case", "same name"),
    ("Case", "CASE", "same name"),
    ("Ada Rossi", "Ada  Rossi", "same name"),        # two spaces
    ("Ada", "\uff21da", "same name"),                # fullwidth A (NFKC)
    ("Rossi", f"R{GREEK_O}ssi", "looks like"),       # Greek omicron
    ("Maria", f"M{CYRILLIC_A}ria", "looks like"),    # Cyrillic a
    ("Carlo", f"{CYRILLIC_CAPITAL_ES}arlo", "looks like"),
    ("Rossi", "R0ssi", "looks like"),                # a zero for an O
    ("Rossi", f"R{GREEK_O}SSI", "looks like"),       # and another case
    ("Karl", "\u039aarl", "looks like"),             # Greek capital Kappa
    ("Nikos", "\u039d\u03b9\u03ba\u03bf\u03c2", None),  # Greek Nikos is not drawn as Nikos
])
def test_a_look_alike_is_refused_with_the_name_it_resembles(
        taken: str, new: str, word: str | None) -> None:
    index = NameIndex(["Somebody", taken])
    if word is None:
        assert index.check(new) == new
        return
    with pytest.raises(InvalidContest) as caught:
        index.check(new, "body.name")
    said = str(caught.value)
    assert said.startswith(f"body.name: {new} ") and word in said
    assert f" {taken} " in said or said.endswith(f" {taken}") or f"{taken} (" in said


def test_the_exact_name_is_refused_too() -> None:
    with pytest.raises(InvalidContest, match="body.name: Ada is already the name of a player"):
        NameIndex(["Ada"]).check("Ada", "body.name")


def test_accents_are_not_look_alikes() -> None:
    index = NameIndex(["Jose", "Muller"])
    assert index.check("José") == "José"
    assert index.check("Müller") == "Müller"
    # a decomposed accent is the same as a composed one
    with pytest.raises(InvalidContest, match="same name"):
        NameIndex(["José"]).check("Jose\u0301")


def test_a_batch_is_checked_against_itself_in_order() -> None:
    names = [("line 2: body.name", "Ada"), ("line 3: body.name", "Bob"),
             ("line 4: body.name", "ADA")]
    with pytest.raises(InvalidContest) as caught:
        check_new_names(names)
    assert str(caught.value).startswith("line 4: body.name: ADA is the same name as the "
                                        "player Ada")
    check_new_names(names[:2], ["Cy"])


def test_the_table_maps_to_latin_and_every_look_alike_is_another_script() -> None:
    for char, latin in CONFUSABLES.items():
        assert latin.isascii() and len(latin) == 1
        assert not char.isascii() or char.isdigit()
        assert skeleton(char) == latin.casefold()
    assert skeleton(f"R{GREEK_O}ssi") == skeleton("ROSSI") == "rossi"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_the_key_and_skeleton_are_stable(text: str) -> None:
    assert name_key(name_key(text)) == name_key(text)
    assert name_key(text.upper()) == name_key(text.upper().casefold())
    assert skeleton(text) == skeleton(unicodedata.normalize("NFKC", text))
