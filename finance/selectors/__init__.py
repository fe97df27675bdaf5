"""Reads about money that pages and other apps share, by what they serve: ``dues`` (dues accounts and good
standing), ``monthly_report``, ``door`` (an event night's door list), ``payouts`` (an event's prizes),
``ledger`` (balances, closed months, opening balances) and ``checks`` (checks awaiting approval)."""
