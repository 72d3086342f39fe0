"""The values of C enum constants, as C gives them, for the tags of tagged variants.

An enumerator without a value is one more than the one before it in its enum (0 for the
first); one with a value is an integer expression of literals and the enum's earlier
constants. The expression is input, so it is evaluated without recursion, in a bounded
number of steps, within 64 bits, with shifts by 0 to 63 only: ``1 << 100000000000`` or a
literal of 5,000 digits is refused in one line instead of taking the machine's memory, and a
sum of 3,000 terms is evaluated instead of overflowing Python's stack.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional

from ...errors import SchemaError, quoted

__all__ = ["enum_value"]

_SUFFIX = re.compile(r"[uUlL]+$")
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
#: Most nodes of one enumerator's expression evaluated (real ones have a handful).
_MAX_ENUM_STEPS = 10_000
_ENUM_OPERATORS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "<<": lambda a, b: a << b,
    ">>": lambda a, b: a >> b,
    "|": lambda a, b: a | b,
    "&": lambda a, b: a & b,
}


def _integer_literal(text: str, refuse: Callable[[str], SchemaError]) -> int:
    """A C integer literal (decimal, octal, hex, with suffixes). Longer than any 64-bit
    value is refused before Python converts it (int() of 5,000 digits raises)."""
    digits = _SUFFIX.sub("", text)
    if len(digits) > 24:
        raise refuse("it is outside the 64-bit range (tags are 0, 1, …, n-1)")
    try:
        if re.match(r"0[0-7]+$", digits):
            return int(digits, 8)
        return int(digits, 0)
    except ValueError:
        raise refuse(f"{quoted(text)} is not an integer") from None


def enum_value(
    node, previous: Optional[int], known: Dict[str, int], refuse: Callable[[str], SchemaError]
) -> int:
    """The value of the enumerator ``node`` (a pycparser ``Enumerator``): one more than
    ``previous`` (the enumerator before it in its enum; None for the first) when it has no
    expression, else its expression with ``known`` constants. ``refuse(why)`` makes the
    error to raise."""
    from pycparser import c_ast

    def checked(value: int) -> int:
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise refuse("it is outside the 64-bit range (tags are 0, 1, …, n-1)")
        return value

    if node.value is None:
        return checked(previous + 1 if previous is not None else 0)
    # Post-order walk with an explicit stack: (expression, operands already pushed?).
    stack = [(node.value, False)]
    values: List[int] = []
    steps = 0
    while stack:
        e, ready = stack.pop()
        steps += 1
        if steps > _MAX_ENUM_STEPS:
            raise refuse(f"its expression has more than {_MAX_ENUM_STEPS} terms")
        if isinstance(e, c_ast.Constant) and (
            e.type in ("int", "long int", "unsigned int", "long long int")
            or re.match(r"[0-9]", e.value or "")
        ):
            values.append(checked(_integer_literal(e.value, refuse)))
        elif isinstance(e, c_ast.ID) and e.name in known:
            values.append(known[e.name])
        elif isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+", "~"):
            if not ready:
                stack += [(e, True), (e.expr, False)]
                continue
            v = values.pop()
            values.append(checked({"-": -v, "+": v, "~": ~v}[e.op]))
        elif isinstance(e, c_ast.BinaryOp) and e.op in _ENUM_OPERATORS:
            if not ready:
                stack += [(e, True), (e.right, False), (e.left, False)]
                continue
            b = values.pop()
            a = values.pop()
            if e.op in ("<<", ">>") and not 0 <= b < 64:
                raise refuse(f"it shifts by {b}, outside 0..63")
            values.append(checked(_ENUM_OPERATORS[e.op](a, b)))
        else:
            raise refuse(
                "write an integer, or an expression of integers and the enum's earlier "
                "constants with + - * << >> | & ~"
            )
    return values[0]
