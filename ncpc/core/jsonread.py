"""Reading JSON that comes from outside (a device's sync body, a season file) with a clear message on bad input.

``json.loads`` recurses once per level of nesting: 50,000 ``[`` raise ``RecursionError`` (a 500, or a traceback
from a management command). The nesting is measured first, without recursion, and refused above ``max_depth``
— far deeper than any file or body the app writes (a season file nests 5 levels, a sync body 4).
"""

import json
import re
from typing import Any

from ncpc.core.errors import NcpcError

MAX_DEPTH = 64
# A JSON string (with its escapes), or one bracket: brackets inside strings do not nest.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class JsonReadError(NcpcError):
    """The text is not JSON, or nests deeper than the app reads."""


def json_depth(text: str) -> int:
    """How deep the brackets of ``text`` nest, brackets inside strings skipped."""
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        found = match.group()
        if found in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif found in "]}":
            depth -= 1
    return deepest


def json_read(raw: bytes | str, *, what: str, max_depth: int = MAX_DEPTH) -> Any:
    """The value of ``raw`` read as JSON, or ``JsonReadError`` naming ``what`` ("The body", "The season file")."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonReadError(f"{what} is not UTF-8 text.") from None
    else:
        text = raw
    if json_depth(text) > max_depth:
        raise JsonReadError(
            f"{what} nests deeper than {max_depth} levels: it is not something this app sends."
        )
    try:
        return json.loads(text)
    except RecursionError:  # never expected below max_depth; kept so no input can make a 500
        raise JsonReadError(f"{what} nests too deeply to be read.") from None
    except json.JSONDecodeError as exc:
        raise JsonReadError(
            f"{what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
        ) from None
