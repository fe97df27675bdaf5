"""The core: what every app stands on (audit trail, the request memo, the club's clock,
the error family, money, mail, the permissions' vocabulary). Imports nothing above it."""
