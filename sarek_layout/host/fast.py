"""The API codecs' fast path: small encode/decode functions compiled per record and
constructor from its plan (``host.plan``), the way ``dataclasses`` and ``namedtuple`` build
theirs.

An element costs one ``struct`` ``pack``/``unpack_from`` call plus the lookups its value
needs. The encoders handle only the commonest exact shapes (plain ``dict``s with as many
keys as fields, attribute objects of classes known not to be mappings, plain tuples and
lists) and check each shape with a class test and a ``len`` comparison, never a loop over the
keys; on anything else they raise (``NotFast``, or whatever ``struct`` or an attribute read
raises), and the codec falls back to its checking walk (``host.codec``), which is the
definition. A nested record that its plan inlines is read in place; an opaque one is packed
by the nested record's own compiled encoder (and decoded by its decoder), so the functions
of a type stay as small as its plan. A repeated member (a fixed array, a vector, a matrix)
is one expression whatever its count: the runtime's ``_sarek_Repeat`` flattens its value
(splatted into the one ``pack`` call where its elements are back to back) or packs its rows;
an enum value is looked up in its enum's table.
"""

from __future__ import annotations

import keyword
import struct
from typing import Any, Callable, Dict, List, Sequence, Tuple

from ._runtime import _sarek_bool, _sarek_object, _sarek_OBJECTS, _sarek_unit
from ._runtime_kinds import _sarek_enum_int, _sarek_enum_member
from .enums import enum_spec, repeat_runtime
from .plan import CtorPlan, PlanMember, RecordPlan, Slot

__all__ = ["NotFast", "Compiled", "record_functions", "ctor_functions"]


class NotFast(Exception):
    """Raised by a fast encoder on a value whose shape it does not handle: the slow path
    decides (and explains a refusal)."""


class Compiled:
    """The fast functions of one record: ``enc_map`` (plain dicts), ``enc_attr``
    (attribute objects), ``build`` (unpacked tuple → value) and ``from_bytes``."""

    __slots__ = ("enc_map", "enc_attr", "build", "from_bytes")

    def __init__(self, ns: Dict[str, Any], unpack: Callable[[bytes], tuple]) -> None:
        self.enc_map: Callable[[object], bytes] = ns["enc_map"]
        self.enc_attr: Callable[[object], bytes] = ns["enc_attr"]
        build = self.build = ns["build"]

        def from_bytes(data: bytes) -> object:
            return build(unpack(data))

        self.from_bytes: Callable[[bytes], object] = from_bytes


class _Source:
    """A tiny line buffer with fresh temporary names, and the namespace of the generated
    functions: the builtins they call are bound here so each use is one dictionary lookup."""

    def __init__(self, packer: struct.Struct, nested: Callable[[RecordPlan], Compiled]) -> None:
        self.lines: List[str] = []
        self._n = 0
        self._nested = nested
        self._nested_names: Dict[int, str] = {}
        self.ns: Dict[str, Any] = {
            "_pack": packer.pack, "_bool": _sarek_bool, "_unit": _sarek_unit, "_NotFast": NotFast,
            "_attribute_classes": _sarek_OBJECTS, "_by_attribute": _sarek_object,
            "_enum_int": _sarek_enum_int, "_enum_member": _sarek_enum_member,
            **{f.__name__: f for f in (len, dict, tuple, list, bool)},
        }

    def temp(self) -> str:
        self._n += 1
        return f"_t{self._n}"

    def add(self, line: str) -> None:
        self.lines.append(line)

    def nested(self, plan: RecordPlan, what: str) -> str:
        """The name bound to ``what`` (``enc_map``, ``enc_attr``, ``from_bytes``) of the
        compiled functions of the opaque nested record ``plan``."""
        prefix = self._nested_names.get(id(plan))
        if prefix is None:
            prefix = self._nested_names[id(plan)] = f"_n{len(self._nested_names)}"
            compiled = self._nested(plan)
            for name in ("enc_map", "enc_attr", "from_bytes"):
                self.ns[f"{prefix}_{name}"] = getattr(compiled, name)
        return f"{prefix}_{what}"

    def repeat(self, k: int, m: PlanMember, slot: Slot) -> str:
        """The name bound to the runtime object of the repeated member ``m``, slot ``k``."""
        name = f"_r{k}"
        if name not in self.ns:
            self.ns[name] = repeat_runtime(m, slot.path)
        return name

    def enum(self, k: int, m: PlanMember) -> str:
        """The name bound to the checks of the enum of member ``m``, slot ``k``."""
        name = f"_e{k}"
        self.ns[name] = enum_spec(m.enum)  # type: ignore[arg-type]
        return name

    def compile(self, filename: str) -> Dict[str, Any]:
        exec(compile("\n".join(self.lines) + "\n", filename, "exec"), self.ns)
        return self.ns


def _access(base: str, step: object, attr: bool) -> str:
    if isinstance(step, int):
        return f"{base}[{step}]"
    if not attr:
        return f"{base}[{step!r}]"
    # A schema name may be a Python keyword (``from``): read it with getattr.
    return f"{base}.{step}" if not keyword.iskeyword(str(step)) else f"getattr({base}, {step!r})"


def _check_record(src: _Source, holder: str, plan: RecordPlan, attr: bool) -> None:
    """The shape test of one record value: a class test and, for a dict, a ``len`` check.

    ``len(d) == len(fields)`` and every field found means the keys are exactly the fields,
    so unknown keys are caught without looping over them.
    """
    if attr:
        src.add(
            f"    if {holder}.__class__ not in _attribute_classes and not _by_attribute({holder}): "
            f"raise _NotFast"
        )
    else:
        src.add(f"    if {holder}.__class__ is not dict or len({holder}) != {len(plan.members)}: raise _NotFast")


def _pack_args(src: _Source, members: Sequence[PlanMember], root: str, attr: bool,
               slots: Sequence[Slot]) -> List[str]:
    """Statements (into ``src``) and the ``pack`` argument expressions reading ``members``
    from ``root``, in the plan's slot order (one expression per slot).

    Each inlined record is fetched once into a temporary and its shape tested there; an
    opaque one is handed to its own encoder, which tests its shape. Bool leaves go through a
    temporary so that the fast check (``is bool``) reads the value once.
    """
    exprs: List[str] = []
    flavour = "enc_attr" if attr else "enc_map"

    def member(expr: str, m: PlanMember) -> None:
        k = len(exprs)
        if m.repeat is not None:
            r = src.repeat(k, m, slots[k])
            if m.repeat.inline:
                exprs.append(f"*{r}.flat({expr})")
            elif m.record is not None:
                exprs.append(f"{r}.pack({expr}, {src.nested(m.record, flavour)})")
            else:
                exprs.append(f"{r}.pack({expr})")
        elif m.enum is not None:
            exprs.append(f"_enum_int({src.enum(k, m)}, {expr})")
        elif m.record is not None and m.inline:
            holder = src.temp()
            src.add(f"    {holder} = {expr}")
            _check_record(src, holder, m.record, attr)
            for inner in m.record.members:
                member(_access(holder, inner.step, attr), inner)
        elif m.record is not None:
            exprs.append(f"{src.nested(m.record, flavour)}({expr})")
        elif m.scalar.kind == "bool":  # type: ignore[union-attr]
            name = src.temp()
            src.add(f"    {name} = {expr}")
            exprs.append(f"({name} if {name}.__class__ is bool else _bool({name}))")
        elif m.scalar.kind == "unit":  # type: ignore[union-attr]
            exprs.append(f"(0 if {expr} is None else _unit({expr}))")
        else:
            exprs.append(expr)

    for m in members:
        member(_access(root, m.step, attr), m)
    # The walk and the plan must agree on the slots, or bytes would land in the wrong place.
    if len(exprs) != len(slots):
        raise AssertionError(f"fast encoder packs {len(exprs)} values, the plan {len(slots)}")
    return exprs


class _Reader:
    """Where the decoder's walk is: the next item of the unpacked tuple ``t_`` and the next
    slot."""

    def __init__(self, item: int, slots: Sequence[Slot]) -> None:
        self.item = item
        self.slot = 0
        self.slots = slots

    def next(self) -> Tuple[int, int, Slot]:
        """``(tuple item, slot number, slot)`` of the next slot, moving past its values."""
        i, k = self.item, self.slot
        slot = self.slots[k]
        self.item += slot.count
        self.slot += 1
        return i, k, slot


def _value_expr(src: _Source, m: PlanMember, at: _Reader) -> str:
    """The expression rebuilding member ``m`` from the unpacked tuple ``t_`` (``at`` is the
    next item and slot)."""
    if m.record is not None and m.inline:
        return "{" + ", ".join(f"{inner.name!r}: {_value_expr(src, inner, at)}"
                               for inner in m.record.members) + "}"
    i, k, slot = at.next()
    if m.repeat is not None:
        r = src.repeat(k, m, slot)
        if m.repeat.inline:
            return f"{r}.unflat(t_[{i}:{i + slot.count}])"
        if m.record is not None:
            return f"{r}.unpack(t_[{i}], {src.nested(m.record, 'from_bytes')})"
        return f"{r}.unpack(t_[{i}])"
    if m.enum is not None:
        return f"_enum_member({src.enum(k, m)}, t_[{i}], {slot.path!r})"
    if m.record is not None:
        return f"{src.nested(m.record, 'from_bytes')}(t_[{i}])"
    kind = m.scalar.kind  # type: ignore[union-attr]
    if kind == "bool":
        return f"(t_[{i}] != 0)"
    if kind == "unit":
        return "None"
    return f"t_[{i}]"


def record_functions(plan: RecordPlan, packer: struct.Struct, label: str,
                     nested: Callable[[RecordPlan], Compiled]) -> Compiled:
    """The fast functions of a record; ``nested`` gives those of an opaque nested record."""
    src = _Source(packer, nested)
    for flavour, attr in (("map", False), ("attr", True)):
        src.add(f"def enc_{flavour}(v):")
        _check_record(src, "v", plan, attr)
        exprs = _pack_args(src, plan.members, "v", attr, plan.slots)
        src.add(f"    return _pack({', '.join(exprs)})")
    at = _Reader(0, plan.slots)
    fields = ", ".join(f"{m.name!r}: {_value_expr(src, m, at)}" for m in plan.members)
    src.add("def build(t_):")
    src.add(f"    return {{{fields}}}")
    return Compiled(src.compile(f"<sarek codec {label}>"), packer.unpack)


def ctor_functions(ctor: CtorPlan, packer: struct.Struct, label: str,
                   nested: Callable[[RecordPlan], Compiled]) -> Tuple[Dict[str, Any], Any]:
    """``(namespace, build)`` of one constructor: ``enc_map``/``enc_attr`` take its
    arguments (a tuple or list of its arity), ``build`` gives ``(name, arguments)``."""
    src = _Source(packer, nested)
    arity = len(ctor.members)
    for flavour, attr in (("map", False), ("attr", True)):
        src.add(f"def enc_{flavour}(a):")
        # The arguments: a tuple or a list of the constructor's arity, nothing else.
        src.add(f"    if (a.__class__ is not tuple and a.__class__ is not list) or len(a) != {arity}: raise _NotFast")
        exprs = _pack_args(src, ctor.members, "a", attr, ctor.slots)
        src.add(f"    return _pack({', '.join([str(ctor.tag)] + exprs)})")
    at = _Reader(1, ctor.slots)  # t_[0] is the tag
    args = [_value_expr(src, m, at) for m in ctor.members]
    tuple_expr = "(" + "".join(a + ", " for a in args) + ")" if args else "()"
    src.add("def build(t_):")
    src.add(f"    return ({ctor.name!r}, {tuple_expr})")
    ns = src.compile(f"<sarek codec {label}.{ctor.name}>")
    return ns, ns["build"]
