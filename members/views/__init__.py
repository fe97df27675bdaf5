"""The members app's pages, by what they serve: people, seats, signatures, governance, logins."""
