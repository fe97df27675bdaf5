"""The core: what every app stands on (audit trail, data version and page cache, the club's clock,
the error family, money, mail, the permissions' vocabulary). Imports nothing above it."""
