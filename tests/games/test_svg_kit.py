"""The drawing kit (referee/games/_svg.py): what it writes, and that every ruleset's board
draws through it, so no board spells SVG by hand."""

import ast
import re
from pathlib import Path

import pytest

from referee.games import _svg as svg

GAMES = Path(svg.__file__).parent
BOARDS = sorted(GAMES.glob("*/board*.py"))
# an element opened in a string: `<rect `, `<g>`, `<svg xmlns=...`
ELEMENT = re.compile(r"<(svg|g|rect|circle|line|polygon|path|text|title)[\s>/]")


def test_numbers_take_as_few_characters_as_they_need():
    assert [svg.number(v) for v in (12, 12.0, 12.5, 12.25, 12.35, -0.04, 1000.0)] == [
        "12",
        "12",
        "12.5",
        "12.2",
        "12.3",
        "-0",
        "1000",
    ]
    assert svg.number("4 3") == "4 3"


def test_every_text_and_attribute_is_escaped():
    drawn = svg.text(1, 2, '<b> & "q"', 12, fill='x" onload="y')
    assert drawn == (
        '<text x="1" y="2" font-size="12" fill="x&quot; onload=&quot;y">'
        "&lt;b&gt; &amp; &quot;q&quot;</text>"
    )


def test_elements_name_attributes_the_svg_way_and_leave_out_none():
    drawn = svg.group(
        "Horse #3",
        svg.rect(0, 0.5, 10, 20, "#fff", rx=4, stroke=None),
        class_="horse",
        data_horse=3,
    )
    assert drawn == (
        '<g class="horse" data-horse="3"><title>Horse #3</title>'
        '<rect x="0" y="0.5" width="10" height="20" fill="#fff" rx="4"/></g>'
    )
    assert svg.titled("line", "Rail", x1=1, y1=2, x2=3, y2=4, stroke="#000") == (
        '<line x1="1" y1="2" x2="3" y2="4" stroke="#000"><title>Rail</title></line>'
    )


def test_a_drawing_scales_with_its_page():
    drawn = svg.drawing(1000.0, 640, svg.title("Board"))
    assert drawn == (
        '<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 1000 640"'
        ' font-family="sans-serif"><title>Board</title></svg>'
    )


def test_true_and_one_are_written_apart():
    # the kit remembers what it wrote; equal keys of other types must not share an entry
    assert svg.text(0, 0, 1, 10) != svg.text(0, 0, True, 10)
    assert svg.element("g", "", data_x=1) != svg.element("g", "", data_x=True)


def test_wrapped_and_shortened():
    assert svg.wrapped("the line of horses moves on", 10) == ["the line", "of horses", "moves on"]
    assert svg.wrapped("unbreakable-word here", 5) == ["unbreakable-word", "here"]
    assert svg.shortened("Dark Horse West", 8) == "Dark Ho…"
    assert svg.shortened("Dark", 8) == "Dark"


def _written_strings(tree: ast.AST) -> list[str]:
    """Every string the module writes, docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


def test_the_boards_are_found():
    rulesets = {path.parent.name for path in BOARDS}
    assert rulesets == {
        "blackout_middle",
        "dark_horse",
        "dark_horse_west",
        "galloping_horse",
        "royal_turf",
    }


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_board_draws_through_the_kit(path):
    tree = ast.parse(path.read_text("utf-8"))
    spelled = [s for s in _written_strings(tree) if ELEMENT.search(s)]
    assert spelled == [], f"{path.name} writes SVG by hand; draw it with referee/games/_svg.py"


def test_the_check_sees_an_element_spelled_by_hand():
    tree = ast.parse("def f(x):\n    '''draws <rect>'''\n    return f'<rect x=\"{x}\"/>'\n")
    assert [s for s in _written_strings(tree) if ELEMENT.search(s)] == ['<rect x="']
