# SPDX-License-Identifier: GPL-2.0
# prf's Util module for perf-style Python scripts (`prf script -s`), used
# when Linux perf's own Perf-Trace-Util is not installed: time helpers,
# running min/max/average statistics, syscall names (from python3-audit
# when installed) and errno names, with the names perf scripts import.

import errno
import os

NSECS_PER_SEC = 1000000000

FUTEX_WAIT = 0
FUTEX_WAKE = 1
FUTEX_PRIVATE_FLAG = 128
FUTEX_CLOCK_REALTIME = 256
FUTEX_CMD_MASK = ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)


def avg(total, n):
    return total / n


def nsecs(secs, nsecs):
    return secs * NSECS_PER_SEC + nsecs


def nsecs_secs(nsecs):
    return nsecs / NSECS_PER_SEC


def nsecs_nsecs(nsecs):
    return nsecs % NSECS_PER_SEC


def nsecs_str(nsecs):
    # a one-element tuple, as the scripts written for perf receive it
    return ("%5u.%09u" % (nsecs_secs(nsecs), nsecs_nsecs(nsecs)),)


def add_stats(dict, key, value):
    """dict[key] = (min, max, avg, count) updated with value; avg is the
    mean of the previous avg and value, as perf's scripts print it."""
    if key in dict:
        lo, hi, mean, count = dict[key]
        dict[key] = (min(lo, value), max(hi, value), (mean + value) / 2, count + 1)
    else:
        dict[key] = (value, value, value, 1)


def clear_term():
    print("\x1b[H\x1b[2J")


_machine = None
try:
    import audit
    _machines = {'x86_64': 'MACH_86_64', 'alpha': 'MACH_ALPHA', 'ia64': 'MACH_IA64',
                 'ppc': 'MACH_PPC', 'ppc64': 'MACH_PPC64', 'ppc64le': 'MACH_PPC64LE',
                 's390': 'MACH_S390', 's390x': 'MACH_S390X', 'i386': 'MACH_X86',
                 'i586': 'MACH_X86', 'i686': 'MACH_X86', 'armeb': 'MACH_ARMEB'}
    _machine = getattr(audit, _machines[os.uname()[4]])
except Exception:
    print("No python3-audit here: system calls are shown by number.\n"
          "(Debian: apt-get install python3-audit)\n")


def syscall_name(id):
    """The name of system call id on this machine, else the number as text."""
    try:
        return audit.audit_syscall_to_name(id, _machine)
    except Exception:
        return str(id)


def strerror(nr):
    """The errno name of nr (or -nr), e.g. "ENOENT"."""
    try:
        return errno.errorcode[abs(nr)]
    except KeyError:
        return "Unknown %d errno" % nr
