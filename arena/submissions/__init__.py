"""Bot folders submitted to a hosted arena as archives: packed on the author's side
(:mod:`.pack`), unpacked into a quarantine folder under :class:`Limits` (:mod:`.archive`)."""

from arena.submissions.archive import unpack
from arena.submissions.limits import ArchiveRefused, Limits
from arena.submissions.pack import pack

__all__ = ["ArchiveRefused", "Limits", "pack", "unpack"]
