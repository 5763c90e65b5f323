"""The classes written out as plain classes (so that a `rulespec` process need not import dataclasses)
behave as the dataclasses they were: the same constructor, defaults, repr, equality, hash, refusal to change
(frozen), pickling and copying. Each is compared with a dataclass declared here with its former fields."""
import copy
import dataclasses
import inspect
import pickle
import random
import sys
import typing

import pytest

from rulespec.bots.simulate import Stats
from rulespec.compiler.build import Compiled
from rulespec.errors import Span
from rulespec.run import records
from rulespec.run.declarations import Declaration
from rulespec.run.engine import DealSource, Event, ExplicitRound
from rulespec.run.pickling import RulesRef
from rulespec.run.runtime import BonusSpec

F = dataclasses.field

# Each class as its dataclass declaration was: (class, frozen, [(name, default or MISSING or factory)]).
SPECS = {
    "Span": (Span, True, [("file", None), ("line", None), ("column", None), ("end_line", (None,)),
                          ("end_column", (None,))]),
    "DealSource": (DealSource, False, [("order", (None,)), ("rounds", (None,)), ("rng", (None,)), ("pos", (0,)),
                                       ("round_no", (0,)), ("seen", (0,))]),
    "ExplicitRound": (ExplicitRound, False, [("table", None), ("hands", None), ("redeal", (False,)),
                                             ("span", (None,)), ("card_spans", (None,))]),
    "Stats": (Stats, False, [("sides", None), ("seats", None), ("categories", None)]
              + [(n, (0,)) for n in ("hands", "plays", "decisions", "legal_moves", "games", "game_hands")]
              + [(n, dict) for n in ("outcomes", "sums", "squares")] + [(n, list) for n in ("hand_wins", "game_wins")]
              + [(n, dict) for n in ("totals", "lengths", "scored")] + [("events", ((),))]
              + [(n, dict) for n in ("fired", "fired_hands", "fired_points", "captures", "sweeps")]),
    "Compiled": (Compiled, False, [("ruleset", None), ("source", None), ("module", None), ("line_map", ((),)),
                                   ("filename", ("",)), ("warnings", ((),))]),
}


def reference(name: str):
    """The dataclass the class was, with the same name and qualified name (so that reprs compare)."""
    cls, frozen, fields = SPECS[name]
    spec = []
    for field, default in fields:
        if default is None:
            spec.append((field, object))
        elif isinstance(default, tuple):
            spec.append((field, object, F(default=default[0])))
        else:
            spec.append((field, object, F(default_factory=default)))
    namespace = {}
    if name == "Stats":                 # its __post_init__, as it was
        def __post_init__(self):
            self.hand_wins = self.hand_wins or [0] * self.sides
            self.game_wins = self.game_wins or [0] * self.sides
        namespace["__post_init__"] = __post_init__
    ref = dataclasses.make_dataclass(name, spec, frozen=frozen, namespace=namespace)
    ref.__qualname__ = cls.__qualname__
    return ref


ARGS = {
    "Span": [("a.yaml", 3, 4), ("a.yaml", 3, 4, 5, 6), ("b.yaml", 1, 1, None, 9)],
    "DealSource": [(), ([3, 1, 2],), (None, [("t", {0: [1]})], random.Random(1), 3, 1, 2)],
    "ExplicitRound": [([1, 2], {0: [3]}), (None, {1: [4, 5]}, True, Span("x", 1, 2)),
                      ([1], {0: [2]}, False, None, {(None, 1): Span("x", 2, 3)})],
    "Stats": [(2, 4, ("scope", "total")), (3, 3, ("a",), 5, 6, 7, 8, 1, 2, {"x": 1}, {(0, "a"): 3}, {(0, "a"): 9},
                                          [1, 0, 0], [0, 1, 0], {(0, 3): 1}, {36: 1}, {(0, "a"): 1})],
    "Compiled": [("rs", "src", sys), ("rs", "src", sys, (None, Span("f", 1, 1)), "<f>", ("w",))],
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_the_plain_class_is_its_dataclass(name):
    cls, frozen, fields = SPECS[name]
    ref = reference(name)
    assert cls.__match_args__ == ref.__match_args__
    assert [p.name for p in inspect.signature(cls).parameters.values()] == \
        [p.name for p in inspect.signature(ref).parameters.values()]
    for field, default in fields:       # defaults stay class attributes, as a dataclass leaves them
        assert getattr(cls, field, "absent") == getattr(ref, field, "absent"), field
    assert (cls.__hash__ is None) == (ref.__hash__ is None)
    made = []
    for args in ARGS[name]:
        a, b = cls(*args), ref(*args)
        assert repr(a) == repr(b)
        assert [getattr(a, f) for f, _ in fields] == [getattr(b, f) for f, _ in fields]
        assert a == cls(*args) and not (a != cls(*args))
        assert a != b and b != a       # another class: never equal, as between two dataclasses
        assert a.__eq__(b) is NotImplemented and a.__eq__(1) is NotImplemented
        if frozen:
            assert hash(a) == hash(b)
            for field, _ in fields:
                with pytest.raises(dataclasses.FrozenInstanceError):
                    setattr(a, field, 1)
                with pytest.raises(dataclasses.FrozenInstanceError):
                    delattr(a, field)
        else:
            with pytest.raises(TypeError):
                hash(a)
        made.append(a)
    for a, b in zip(made, made[1:]):
        assert a != b
    # keyword arguments, and defaults (a factory makes a new object for each instance)
    kw = {f: v for (f, _), v in zip(fields, ARGS[name][-1])}
    assert cls(**kw) == cls(*ARGS[name][-1])
    required = [v for (f, d), v in zip(fields, ARGS[name][0]) if d is None]
    x, y = cls(*required), ref(*required)
    assert repr(x) == repr(y)
    for field, default in fields:
        if default in (dict, list):         # a new object for each instance, never shared
            assert getattr(x, field) == getattr(y, field) and getattr(x, field) is not getattr(cls(*required), field)


@pytest.mark.parametrize("name", ["Span", "DealSource", "ExplicitRound", "Stats"])
def test_pickled_and_copied_as_before(name):
    cls = SPECS[name][0]
    for args in ARGS[name]:
        a = cls(*args)
        for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
            assert type(b) is cls and vars(b).keys() == vars(a).keys()
            for field, value in vars(a).items():      # a random.Random equals only itself: its state then
                got = getattr(b, field)
                assert got.getstate() == value.getstate() if isinstance(value, random.Random) else got == value
    assert copy.deepcopy(Span("f", 1, 2)) is not None


def test_a_frozen_span_made_from_a_subclass_takes_new_attributes():
    class Located(Span):
        pass
    s = Located("f", 1, 2)
    s.note = "n"                        # only the fields are frozen in a subclass, as a dataclass's are
    assert s.note == "n"
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.line = 3


def test_deal_source_clone_copies_the_order_only():
    rng = random.Random(1)
    rounds = [ExplicitRound([1], {0: [2]})]
    src = DealSource([1, 2, 3], rounds, rng, 1, 2, 3)
    twin = src.clone()
    assert twin == src and twin.order is not src.order and twin.rounds is src.rounds and twin.rng is rng
    twin.order.pop()
    assert src.order == [1, 2, 3]


def _record(base):
    """The same class body on typing's NamedTuple or on records.NamedTuple."""
    class Rec(base):
        """A record."""

        a: int
        b: "str | None" = "x"
        c: tuple = ()

        def twice(self) -> int:
            return 2 * self.a

        @property
        def doubled(self) -> str:
            return self.b * 2

        LIMIT = 3
    return Rec


def test_records_namedtuple_makes_typings_class():
    mine, theirs = _record(records.NamedTuple), _record(typing.NamedTuple)
    assert mine.__mro__[1:] == theirs.__mro__[1:] == (tuple, object)
    for name in ("_fields", "_field_defaults", "__doc__", "__module__", "__qualname__", "__name__", "LIMIT",
                 "__slots__", "__match_args__"):
        assert getattr(mine, name) == getattr(theirs, name), name
    assert list(mine.__annotations__) == list(theirs.__annotations__) == ["a", "b", "c"]
    assert typing.get_type_hints(mine) == typing.get_type_hints(theirs)
    later = {"__orig_bases__", "__annotate__", "__annotate_func__", "__annotations_cache__"}   # newer typing's
    assert sorted(set(vars(mine)) - later) == sorted(set(vars(theirs)) - later)
    for args in ((1,), (2, "y"), (3, None, (1,))):
        m, t = mine(*args), theirs(*args)
        assert repr(m) == repr(t) and m == t and tuple(m) == tuple(t) and hash(m) == hash(t)
        assert m.twice() == t.twice() and m._asdict() == t._asdict() and m._replace(a=9) == t._replace(a=9)
    assert mine(1).doubled == theirs(1).doubled == "xx"
    assert mine._make([5, "z", ()]) == theirs._make([5, "z", ()])
    for base, error in ((records.NamedTuple, TypeError), (typing.NamedTuple, TypeError)):
        with pytest.raises(error, match="Non-default namedtuple field c cannot follow default field b"):
            class Bad(base):
                a: int
                b: int = 1
                c: int
        with pytest.raises(AttributeError, match="Cannot overwrite NamedTuple attribute _replace"):
            class Worse(base):
                a: int

                def _replace(self):
                    pass


@pytest.mark.parametrize("cls, args", [(Declaration, ("napola", 7)), (Declaration, ("napola", 7, 3)),
                                       (Event, (1, 0, 0, "scopa", 1, "scope")), (RulesRef, ("cirulla", {"a": 1})),
                                       (BonusSpec, None)])
def test_the_engines_records_are_namedtuples(cls, args):
    assert cls.__mro__ == (cls, tuple, object) and cls.__module__.startswith("rulespec.run.")
    assert cls.__doc__ and cls._fields == tuple(cls.__annotations__)
    if args is not None:
        value = cls(*args)
        assert pickle.loads(pickle.dumps(value)) == value and repr(value).startswith(cls.__name__ + "(")
        assert value._replace() == value and copy.deepcopy(value) == value
