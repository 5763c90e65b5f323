"""`NamedTuple` for the engine's records, without importing typing (about 3 ms of every `rulespec` process).

    TYPE_CHECKING = False
    if TYPE_CHECKING:
        from typing import NamedTuple
    else:
        from rulespec.run.records import NamedTuple

    class Event(NamedTuple):
        kind: str
        seat: int = 0

makes the class typing.NamedTuple makes (typing's own steps, for the class form only): a
collections.namedtuple with the annotated fields, the defaults of the last ones, the class's module,
and the class body's methods, docstring and other names set on it. The one difference: the field
annotations stay as written (strings, under `from __future__ import annotations`) where typing turns
them into ForwardRef objects; typing.get_type_hints reads both. Type checkers see typing's.
tests/test_records.py compares classes made both ways.
"""
from collections import namedtuple

# As typing: names a NamedTuple's body may not set, and names it sets that are not copied to the class.
_PROHIBITED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                         "_make", "_replace", "_asdict", "_source"})
_SPECIAL = frozenset({"__module__", "__name__", "__annotations__"})


class _NamedTupleMeta(type):
    def __new__(mcls, typename, bases, ns):
        if bases != (_NamedTuple,):
            raise TypeError("can only inherit from a NamedTuple type")
        types = ns.get("__annotations__", {})
        default_names = []
        for name in types:
            if name in ns:
                default_names.append(name)
            elif default_names:
                raise TypeError(f"Non-default namedtuple field {name} cannot follow default field"
                                f"{'s' if len(default_names) > 1 else ''} {', '.join(default_names)}")
        cls = namedtuple(typename, list(types), defaults=[ns[n] for n in default_names], module=ns["__module__"])
        cls.__annotations__ = cls.__new__.__annotations__ = dict(types)
        for key in ns:
            if key in _PROHIBITED:
                raise AttributeError("Cannot overwrite NamedTuple attribute " + key)
            if key not in _SPECIAL and key not in cls._fields:
                setattr(cls, key, ns[key])
        return cls


_NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})


def NamedTuple(typename, fields=None, /, **kwargs):  # noqa: N802 - typing's name
    """Only the class form is supported: `class Name(NamedTuple): field: type ...`."""
    raise TypeError("rulespec.run.records.NamedTuple supports the class form only")


NamedTuple.__mro_entries__ = lambda bases: (_NamedTuple,)
