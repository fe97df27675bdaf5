"""The club's references to its rule book in templates (a builtin: no ``{% load %}`` needed).

``{% rule_ref "2.12" %}`` writes " (§2.12)" after a sentence's words, or nothing when the club shows no
reference for it; several keys give " (§2.12, §5.5.3.1)". ``{% rule_ref_after "6.3" %}`` gives ", §6.3" to end a bracket that says more, and
``{% rule_ref_text "6.3" as r %}`` the bare
reference ("§6.3" or "") for a sentence that words it itself.
"""

from django import template

from ncpc.core.identity import reference_join, reference_paren

register = template.Library()


@register.simple_tag
def rule_ref(*keys: str) -> str:
    return reference_paren(*keys)


@register.simple_tag
def rule_ref_text(*keys: str) -> str:
    return reference_join(*keys)


@register.simple_tag
def rule_ref_after(*keys: str) -> str:
    """ ", §6.3" to close a bracket that says more ("(the first hour, §6.3)"), or nothing."""
    joined = reference_join(*keys)
    return f", {joined}" if joined else ""
