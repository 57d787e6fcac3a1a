"""web.dataclass_methods: a class whose methods come from the table behaves as one whose methods
were compiled on the spot, a source the table lacks is compiled as before, and the table is
read from the bundle (scripts/precompile_app.mjs writes it; tests/e2e/test_dist.py checks in
the browser that the start compiles none)."""

import dataclasses
import marshal
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import app_bundle  # noqa: E402

from web import dataclass_methods  # noqa: E402


@pytest.fixture(autouse=True)
def plain_dataclasses():
    dataclass_methods.uninstall()
    yield
    dataclass_methods.uninstall()


def make_seat():
    """A frozen dataclass with the kinds of fields ours have: plain, defaulted, a factory."""
    @dataclasses.dataclass(frozen=True)
    class Seat:
        name: str
        score: int = 0
        cards: tuple = ()
        notes: list = dataclasses.field(default_factory=list, compare=False)
    return Seat


def behaviour(cls):
    seat = cls("Ann", 5, (1, 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        seat.score = 6
    return (repr(seat), seat == cls("Ann", 5, (1, 2)), seat == cls("Bob"), hash(seat) == hash(cls("Ann", 5, (1, 2))),
            cls("Cy").notes is not cls("Cy").notes, dataclasses.replace(seat, score=7).score,
            [field.name for field in dataclasses.fields(cls)])


def counted(table, make):
    before = dict(dataclass_methods.COUNTS)
    dataclass_methods.install(table)
    cls = make()
    return cls, {key: dataclass_methods.COUNTS[key] - before[key] for key in before}


def test_a_class_from_the_table_behaves_as_one_compiled_on_the_spot():
    compiled = make_seat()
    table = {}
    dataclass_methods.record(table)
    recorded = make_seat()
    assert table and all(isinstance(code, type(make_seat.__code__)) for code in table.values())
    from_table, counts = counted(table, make_seat)
    assert counts["compiled here"] == 0 and counts["from the table"] >= 1
    assert behaviour(from_table) == behaviour(compiled) == behaviour(recorded)
    assert behaviour(from_table)[0].endswith("Seat(name='Ann', score=5, cards=(1, 2), notes=[])")


def test_a_source_the_table_lacks_is_compiled_as_before():
    table = {}
    dataclass_methods.record(table)
    make_seat()

    def make_other():
        @dataclasses.dataclass(frozen=True)
        class Other:
            rank: int
        return Other

    other, counts = counted(table, make_other)
    assert counts["from the table"] == 0 and counts["compiled here"] >= 1
    assert other(3) == other(3) and repr(other(3)).endswith("Other(rank=3)")


def test_the_table_is_read_from_the_bundle(tmp_path):
    table = {}
    dataclass_methods.record(table)
    make_seat()
    dataclass_methods.uninstall()
    bundle, empty = tmp_path / "app.zip", tmp_path / "empty.zip"
    with zipfile.ZipFile(bundle, "w") as zout:
        zout.writestr(dataclass_methods.MEMBER, marshal.dumps(table))
    with zipfile.ZipFile(empty, "w") as zout:
        zout.writestr("game/__init__.pyc", b"")
    assert dataclass_methods.install_from(str(empty)) is False
    assert "exec" not in vars(dataclasses)   # nothing installed
    assert dataclass_methods.install_from(str(bundle)) is True
    before = dict(dataclass_methods.COUNTS)
    assert behaviour(make_seat())[1]
    assert dataclass_methods.COUNTS["from the table"] > before["from the table"]
    assert dataclass_methods.COUNTS["compiled here"] == before["compiled here"]


def test_the_bundle_check_knows_the_tables_member():
    assert app_bundle.DATACLASS_METHODS == dataclass_methods.MEMBER
