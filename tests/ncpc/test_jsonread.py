"""Reading JSON from outside: a clear message for text that is not JSON or nests too deep, never a
RecursionError (issue 34)."""

import pytest

from ncpc.core.jsonread import JsonReadError, json_depth, json_read


@pytest.mark.parametrize(
    "text, depth",
    [
        ("1", 0),
        ("[]", 1),
        ('{"a": [1, {"b": []}]}', 4),
        ('["[[[[", "]]"]', 1),  # brackets inside strings do not nest
        ('["a \\" [[["]', 1),  # nor after an escaped quote
        ("[" * 50_000, 50_000),
    ],
)
def test_json_depth_counts_brackets_outside_strings(text, depth):
    assert json_depth(text) == depth


def test_json_read_reads_what_the_app_sends():
    assert json_read(b'{"device": "p", "changes": [{"seen": {"results": 4}}]}', what="The body") == {
        "device": "p",
        "changes": [{"seen": {"results": 4}}],
    }


@pytest.mark.parametrize(
    "raw, message",
    [
        (b"[" * 50_000, "The body nests deeper than 64 levels: it is not something this app sends."),
        ("[" * 65 + "]" * 65, "The body nests deeper than 64 levels: it is not something this app sends."),
        (
            b"{not json",
            "The body is not valid JSON: Expecting property name enclosed in double quotes (line 1, column 2).",
        ),
        (b"\xff\xfe", "The body is not UTF-8 text."),
        (b"", "The body is not valid JSON: Expecting value (line 1, column 1)."),
    ],
)
def test_json_read_refuses_with_a_message(raw, message):
    with pytest.raises(JsonReadError) as exc:
        json_read(raw, what="The body")
    assert exc.value.message == message


def test_sixty_four_levels_are_read():
    assert json_read("[" * 64 + "]" * 64, what="The body") is not None
