"""The club's majority rule (§2.3, §2.11, §5.5.3). Pure: the vote model and every command use it."""


def majority(*, yes: int, members: int) -> bool:
    """More than half of the members voted yes: ``yes * 2 > members``.

    Exactly half is not a majority.
    """
    return yes * 2 > members
