"""The club-wide pages (ncpc/club): home, reports, the club identity, imports, mail, set-up, the installable night."""
