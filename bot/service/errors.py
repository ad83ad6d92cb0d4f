"""Errors the service raises for people: their message is shown to the user as it is."""


class UserError(Exception):
    """A request refused for a reason the person can act on; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
