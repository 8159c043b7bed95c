"""Whether the owner of a claim is a process that is gone, so its tables need not wait for its lease.

A claim's owner is `process_owner()`: `host:pid:token`. On the same host the process table is the
proof: an owner whose pid no longer runs is dead, and one with this process's own pid but another
token is this pid's earlier life (a restart that got the same pid, as a container's first process
does), dead too. Nothing else proves anything: a pid that runs may be a stranger's, another host's
process cannot be seen, so those claims wait for their lease. A wrong "dead" could only come from two
hosts sharing a name and a pid namespace; even then the version guard keeps every turn applied once
(the slower of the two processes loses its commit), at the cost of work done twice.
"""

from __future__ import annotations

import os
import secrets
import socket

# The owners made in this process (a service each): with this pid, any other one is an earlier life.
_minted: set[str] = set()


def process_owner() -> str:
    """A service's claim owner: unique across hosts, processes, restarts and services."""
    owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
    _minted.add(owner)
    return owner


def proven_dead(owner: str) -> bool:
    """True only when `owner` (a `process_owner()`) is certainly not a running process."""
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or parts[0] != socket.gethostname() or not parts[1].isdigit():
        return False
    pid = int(parts[1])
    if pid == os.getpid():
        return owner not in _minted  # this pid, an earlier life
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the pid exists
    except ProcessLookupError:
        return True
    except OSError:
        return False  # it exists (PermissionError: someone else's process)
    return False

