"""C integer constant expressions, as a header's enum values and array sizes write them.

``evaluate`` reads what a C compiler folds: integer literals (decimal, octal, hex, with
``u``/``l`` suffixes), earlier enum constants, ``sizeof`` of a type whose size is the same on
every ABI, casts to such an integer type, and the operators ``+ - * / % << >> & | ^ ~ !``,
comparisons, ``&&``, ``||`` and ``?:`` (macros are expanded already: ``float m[N * 4]``).
The expression is input, so it is evaluated without recursion, in a bounded number of steps,
within 64 bits, with shifts by 0 to 63 only: ``1 << 100000000000`` or a literal of 5,000
digits is refused in one line instead of taking the machine's memory, and a sum of 3,000
terms is evaluated instead of overflowing Python's stack.

Values are mathematical integers. Where C's unsigned arithmetic would wrap (``-1U``, ``~0U``,
``0U - 1``), the value is refused rather than guessed: its C value depends on the width of
the unsigned type, which is not the same on every ABI (``unsigned long``). What cannot be
evaluated (a variable, a function call, ``sizeof`` of an expression or of a struct, whose
size depends on the ABI's rules) is refused with what to write instead.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional, Tuple

from ...errors import SchemaError, quoted
from ...ir.types import Scalar

__all__ = ["evaluate", "MAX_STEPS", "integer_literal"]

_SUFFIX = re.compile(r"[uUlL]+$")
_INT32_MAX = (1 << 31) - 1
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_UINT32_MAX = (1 << 32) - 1
_UINT64_MAX = (1 << 64) - 1
#: Most nodes of one expression evaluated (real ones have a handful).
MAX_STEPS = 10_000
_ARITHMETIC = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "<<": lambda a, b: a << b,
    ">>": lambda a, b: a >> b,
    "|": lambda a, b: a | b,
    "&": lambda a, b: a & b,
    "^": lambda a, b: a ^ b,
}
_COMPARISONS = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}
_WHAT_TO_WRITE = ("write an integer, or an expression of integers, earlier enum constants, "
                  "sizeof of a fixed-width type and + - * / % << >> & | ^ ~")

Refuse = Callable[[str], SchemaError]
#: ``(value, unsigned)``: an integer and whether C computes it in an unsigned type.
Value = Tuple[int, bool]


def integer_literal(text: str, refuse: Refuse) -> Value:
    """A C integer literal (decimal, octal, hex, with suffixes) and whether its C type is
    unsigned (a ``u`` suffix, or an octal or hex literal too large for ``int``). Longer than
    any 64-bit value is refused before Python converts it (int() of 5,000 digits raises)."""
    digits = _SUFFIX.sub("", text)
    if len(digits) > 24:
        raise refuse("it is outside the 64-bit range")
    try:
        if re.match(r"0[0-7]+$", digits):
            value = int(digits, 8)
        else:
            value = int(digits, 0)
    except ValueError:
        raise refuse(f"{quoted(text)} is not an integer") from None
    if value > _UINT64_MAX:
        raise refuse("it is outside the 64-bit range")
    # C's type of the literal: the first of int, (unsigned int,) long, (unsigned long…) that
    # holds it; the unsigned ones only for a ``u`` suffix, or an octal or hex literal.
    octal_or_hex = digits[:1] == "0" and len(digits) > 1
    unsigned = ("u" in text[len(digits):].lower() or value > _INT64_MAX
                or (octal_or_hex and _INT32_MAX < value <= _UINT32_MAX))
    return value, unsigned


def _checked(value: int, unsigned: bool, refuse: Refuse) -> Value:
    if unsigned and value < 0:
        raise refuse("C computes it in an unsigned type, where it wraps around to a value that "
                     "depends on the type's width; write the value itself")
    if not _INT64_MIN <= value <= (_UINT64_MAX if unsigned else _INT64_MAX):
        raise refuse("it is outside the 64-bit range")
    return value, unsigned


def _divide(op: str, a: int, b: int, refuse: Refuse) -> int:
    if b == 0:
        raise refuse("it divides by zero")
    q = abs(a) // abs(b)  # C truncates toward zero
    q = q if (a < 0) == (b < 0) else -q
    return q if op == "/" else a - q * b


def evaluate(expr, known: Dict[str, int], refuse: Refuse,
             scalar_of: Optional[Callable[[object], Optional[Scalar]]] = None) -> int:
    """The value of the pycparser expression ``expr``; ``known`` gives the enum constants
    in scope, ``scalar_of(typename)`` the fixed-width scalar a ``sizeof`` or cast names (or
    ``None``); ``refuse(why)`` makes the error to raise."""
    # Post-order walk with an explicit stack: (expression, operands already evaluated?).
    stack: List[Tuple[object, bool]] = [(expr, False)]
    values: List[Value] = []
    steps = 0
    while stack:
        e, ready = stack.pop()
        steps += 1
        if steps > MAX_STEPS:
            raise refuse(f"its expression has more than {MAX_STEPS} terms")
        if ready:
            chosen = _combine(e, values, refuse, scalar_of)
            if chosen is not None:  # a conditional: the branch its condition chose
                stack.append((chosen, False))
            continue
        operands = _operands(e)
        if operands is None:
            values.append(_leaf(e, known, refuse, scalar_of))
        else:
            stack.append((e, True))
            stack.extend((o, False) for o in reversed(operands))
    return values[0][0]


def _operands(e) -> Optional[List[object]]:
    """What ``e`` needs evaluated first, or ``None`` for a leaf."""
    from pycparser import c_ast

    if isinstance(e, c_ast.Cast):
        return [e.expr]
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+", "~", "!"):
        return [e.expr]
    if isinstance(e, c_ast.BinaryOp) and (e.op in _ARITHMETIC or e.op in _COMPARISONS
                                          or e.op in ("/", "%", "&&", "||")):
        return [e.left, e.right]
    if isinstance(e, c_ast.TernaryOp):
        return [e.cond]
    return None


def _leaf(e, known: Dict[str, int], refuse: Refuse, scalar_of) -> Value:
    """A literal, an enum constant or a ``sizeof``."""
    from pycparser import c_ast

    if isinstance(e, c_ast.Constant) and re.match(r"[0-9]", e.value or ""):
        return _checked(*integer_literal(e.value, refuse), refuse)
    if isinstance(e, c_ast.ID):
        if e.name not in known:
            raise refuse(f"{quoted(e.name)} is no integer constant declared before it (a "
                         f"variable's value would make a variable-length array, which has no "
                         f"fixed layout)" if e.name != "*" else
                         "[*] is a variable-length array of unspecified size")
        return known[e.name], False
    if isinstance(e, c_ast.UnaryOp) and e.op == "sizeof":
        scalar = scalar_of(e.expr) if scalar_of is not None and isinstance(
            e.expr, c_ast.Typename) else None
        if scalar is None:
            raise refuse("sizeof here is not of a fixed-width scalar, whose size is the same "
                         "on every ABI (a long, a pointer or a struct is not); write the "
                         "number")
        return scalar.size, True  # a size_t
    raise refuse(_WHAT_TO_WRITE)


def _combine(e, values: List[Value], refuse: Refuse, scalar_of) -> Optional[object]:
    """Apply ``e`` to its evaluated operands (on top of ``values``); a conditional returns
    the branch to evaluate instead."""
    from pycparser import c_ast

    if isinstance(e, c_ast.TernaryOp):
        condition, _ = values.pop()
        return e.iftrue if condition else e.iffalse
    if isinstance(e, c_ast.Cast):
        scalar = scalar_of(e.to_type) if scalar_of is not None else None
        value, _ = values.pop()
        if scalar is None or scalar.int_range is None \
                or not scalar.int_range[0] <= value <= scalar.int_range[1]:
            raise refuse("it casts to a type that is not a fixed-width integer holding the "
                         "value; write the number")
        values.append((value, scalar.is_unsigned))
    elif isinstance(e, c_ast.UnaryOp):
        v, unsigned = values.pop()
        if e.op == "!":
            values.append((int(not v), False))
        else:
            values.append(_checked({"-": -v, "+": v, "~": ~v}[e.op], unsigned, refuse))
    else:
        b, b_unsigned = values.pop()
        a, a_unsigned = values.pop()
        values.append(_binary(e.op, a, b, a_unsigned, b_unsigned, refuse))
    return None


def _binary(op: str, a: int, b: int, a_unsigned: bool, b_unsigned: bool,
            refuse: Refuse) -> Value:
    if op in _COMPARISONS:
        if a_unsigned != b_unsigned and min(a, b) < 0:
            raise refuse("it compares a negative value with an unsigned one, which C converts; "
                         "write the value itself")
        return int(_COMPARISONS[op](a, b)), False
    if op == "&&":
        return int(bool(a) and bool(b)), False
    if op == "||":
        return int(bool(a) or bool(b)), False
    if op in ("<<", ">>"):
        if not 0 <= b < 64:
            raise refuse(f"it shifts by {b}, outside 0..63")
        return _checked(_ARITHMETIC[op](a, b), a_unsigned, refuse)
    unsigned = a_unsigned or b_unsigned
    if op in ("/", "%"):
        return _checked(_divide(op, a, b, refuse), unsigned, refuse)
    return _checked(_ARITHMETIC[op](a, b), unsigned, refuse)
