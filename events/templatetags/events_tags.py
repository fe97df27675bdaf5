from django import template

register = template.Library()


@register.filter
def thousands(value) -> str:
    """12500 → '12,500' (chip counts)."""
    try:
        return f"{int(value):,}"
    except (TypeError, ValueError):
        return ""
