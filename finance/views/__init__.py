"""Money pages: thin views over finance.services and finance.selectors, a module per part of the money pages
(``finance.urls`` maps them)."""
