"""The club's majority rule (§2.3, §2.11, §5.5.2, §5.5.3), for members' votes and the executive committee's. Pure,
in the core so that every app decides a majority the same way."""


def majority(*, yes: int, members: int) -> bool:
    """More than half of the members voted yes: ``yes * 2 > members``.

    Exactly half is not a majority.
    """
    return yes * 2 > members
