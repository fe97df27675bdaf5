from django import template

register = template.Library()


@register.filter
def one_decimal(value) -> str:
    """A points average with one decimal (12.25 -> "12.2", as Python rounds a float); "–" for none."""
    return "–" if value is None else f"{value:.1f}"
