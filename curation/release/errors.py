"""The one error a release target raises, in its own module so that the targets and `open_target` share it."""

from __future__ import annotations


class PublishError(Exception):
    """A release could not be written to its target; the message says where and what to do.

    target_changed: the target already holds part of the release (e.g. a Hub commit without its tag).
    state: when set, one line saying exactly what the target was left as (after a rollback, say).
    exit_code: what the command exits with.
    """

    def __init__(self, message: str, target_changed: bool = False, state: str | None = None, exit_code: int = 1):
        super().__init__(message)
        self.target_changed = target_changed
        self.state = state
        self.exit_code = exit_code  # 2: the target itself is unusable (a path that cannot be written)


class TargetBusy(PublishError):
    """Another command is publishing to the same target, or published there while this release was being built.

    The message is the whole story (nothing was published by this command, and what to do): no state line follows,
    since the target may be changing under the other command.
    """

    def __init__(self, message: str):
        super().__init__(message, exit_code=2)
