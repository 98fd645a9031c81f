"""Lists by name sort by surname (issue 32 §5): the register keeps a name
whole, so the surname is its last word with the particles before it, and
names are compared without case or accents (``surname_key``)."""

from __future__ import annotations

from bgclock.tournament import surname, surname_key


def test_the_surname_is_the_last_word_with_its_particles() -> None:
    assert surname("Nicolò Rossi") == "Rossi"
    assert surname("Mario De Luca") == "De Luca"
    assert surname("Anna van der Berg") == "van der Berg"
    assert surname("Gian Maria Volonté") == "Volonté"
    assert surname("Cher") == "Cher"
    assert surname("De Luca") == "Luca"  # a first word is never a particle: nothing before it


def test_a_list_by_name_files_each_player_under_the_surname() -> None:
    names = ["Nicolò Rossi", "Anna Ricci", "Bruno Russo", "Zeno Abate", "Mario De Luca",
             "Élodie Durand", "carla rossi"]
    assert sorted(names, key=surname_key) == [
        "Zeno Abate", "Mario De Luca", "Élodie Durand", "Anna Ricci", "carla rossi",
        "Nicolò Rossi", "Bruno Russo"]


def test_accents_and_case_do_not_move_a_name_and_two_spellings_keep_one_order() -> None:
    assert surname_key("Luca Àlberti")[0] == surname_key("Luca alberti")[0] == "alberti"
    twins = ["Nicolo Rossi", "Nicolò Rossi"]
    assert sorted(twins, key=surname_key) == sorted(reversed(twins), key=surname_key)
