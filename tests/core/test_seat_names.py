"""One convention for seat names (issue 17): a person reads "Seat N" counted from 1, as the
web page shows it; the API's integer `seat` stays a 0-based index (`seat: 0` is Seat 1).
These tests hold the server's messages to it: the names themselves, a real table's
refusals, and a scan of the source for a message that still prints a bare index."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from core.engine import create_table
from core.errors import IllegalAction, NotYourTurn, UnknownSeat
from core.seats import no_such_seat, seat_name, seat_names
from core.state import Action

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("core", "api", "schema", "plugins")

# A text that prints a value right after the word "seat": `seat {x}` in an f-string or a
# str.format template, `seat %s` for %-formatting, `"seat " + x` for concatenation.
BARE_INDEX = re.compile(r"\b[Ss]eat (\{(?!seat_name\()|%[sdir])")
CONCATENATED = re.compile(r"""\b[Ss]eat ["']\s*\+""")

# Where a bare "seat {...}" may stay, with the reason: (path, the offending text).
ALLOWED = {
    ("core/seats.py", "Seat {index + 1}"): "the one place that turns an index into a seat's name",
}


def test_seat_names_count_from_one():
    assert seat_name(0) == "Seat 1"
    assert seat_name(1) == "Seat 2"
    assert seat_name(11) == "Seat 12"


def test_what_names_no_seat_says_so():
    """None is the spectator's view; a negative index or a value that is not an int names no
    seat, and the text shows what was given instead of inventing a Seat number."""
    assert seat_name(None) == "a spectator"
    assert seat_name(-1) == "seat index -1"
    assert seat_name("2") == "'2'"
    assert seat_name(True) == "True"  # a bool is not a seat index, though Python counts it an int
    assert seat_names([2, 0]) == "Seat 3, Seat 1"
    assert seat_names([]) == "nobody"
    assert no_such_seat(4, 2) == "there is no seat at index 4 (this table's seats are indexes 0-1, Seat 1 to Seat 2)"


def drafted_by_second_seat():
    """A real New Capital table (2 players, seed 1) after index 1 drafted its leader: only
    index 0 (Seat 1) has a decision left."""
    table = create_table("new-capital", 2, seed=1)
    table.act(1, table.legal(1)[0])
    return table


def test_an_engine_refusal_names_seats_as_the_page_does():
    table = drafted_by_second_seat()
    with pytest.raises(NotYourTurn) as refused:
        table.act(1, Action("draft_leader", {"card": "DL01"}))
    assert refused.value.message == "Seat 2 has no decision to make now (waiting for Seat 1)"
    with pytest.raises(IllegalAction) as refused:
        table.act(0, Action("pass"))
    assert refused.value.message == "'pass' is not legal now; Seat 1 may: draft_leader"
    assert not re.search(r"\bseat [0-9]", refused.value.message)


def test_an_index_the_table_lacks_is_refused_in_terms_of_the_integer_sent():
    table = drafted_by_second_seat()
    for index in (2, -1):
        with pytest.raises(UnknownSeat) as refused:
            table.act(index, Action("pass"))
        assert refused.value.message == no_such_seat(index, 2)
        assert f"index {index}" in refused.value.message and "Seat 1 to Seat 2" in refused.value.message


def texts(tree: ast.AST):
    """Every string literal of a module as (line, text); an f-string's fields appear as
    `{source}`, so `f"seat {p.seat}"` reads "seat {p.seat}"."""
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = [v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                     for v in node.values]
            yield node.lineno, "".join(str(p) for p in parts)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def bare_indexes(path: Path) -> list[tuple[int, str]]:
    source = path.read_text()
    found = [(line, m.string[m.start():m.start() + 40]) for line, text in texts(ast.parse(source))
             for m in BARE_INDEX.finditer(text)]
    found += [(n, line.strip()) for n, line in enumerate(source.splitlines(), 1) if CONCATENATED.search(line)]
    return found


def test_the_scan_catches_each_way_of_printing_a_bare_index(tmp_path):
    """The scanner is not blind: each pattern it hunts is caught in a sample module, and a
    message written with seat_name is not."""
    sample = tmp_path / "sample.py"
    sample.write_text('a = f"seat {seat} is taken"\nb = "Seat {seat} of {table}"\nc = "seat %d" % 1\n'
                      'd = "seat " + str(1)\ne = f"{seat_name(seat)}\'s Flagship"\n'
                      'f = f"the Seat of cluster {c}"\n')
    assert [line for line, _ in bare_indexes(sample)] == [1, 2, 3, 4]


def test_no_server_message_prints_a_bare_seat_index():
    offenders, used = [], set()
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for line, text in bare_indexes(path):
                key = next((k for k in ALLOWED if k[0] == rel and k[1] in text), None)
                if key:
                    used.add(key)
                else:
                    offenders.append(f"{rel}:{line}: {text}")
    assert not offenders, "seats named by a bare index; use core.seats.seat_name:\n" + "\n".join(offenders)
    assert used == set(ALLOWED), f"allow-list entries that match nothing any more: {set(ALLOWED) - used}"
