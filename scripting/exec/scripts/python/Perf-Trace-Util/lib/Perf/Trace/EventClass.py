# SPDX-License-Identifier: GPL-2.0
# prf's EventClass module for perf-style Python scripts (`prf script -s`),
# used when Linux perf's own Perf-Trace-Util is not installed: a sample as
# an object, with the register fields of Intel PEBS raw records decoded
# (the raw_buf sizes of a basic PEBS record, 144 bytes, and of one with
# load latency, 176 bytes).

import struct

EVTYPE_GENERIC = 0
EVTYPE_PEBS = 1
EVTYPE_PEBS_LL = 2
EVTYPE_IBS = 3


def create_event(name, comm, dso, symbol, raw_buf):
    kind = {144: PebsEvent, 176: PebsNHM}.get(len(raw_buf), PerfEvent)
    return kind(name, comm, dso, symbol, raw_buf)


class PerfEvent(object):
    event_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_GENERIC):
        self.name = name
        self.comm = comm
        self.dso = dso
        self.symbol = symbol
        self.raw_buf = raw_buf
        self.ev_type = ev_type
        PerfEvent.event_num += 1

    def show(self):
        print("PMU event: name=%12s, symbol=%24s, comm=%8s, dso=%12s" %
              (self.name, self.symbol, self.comm, self.dso))


class PebsEvent(PerfEvent):
    pebs_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_PEBS):
        (self.flags, self.ip, self.ax, self.bx, self.cx, self.dx, self.si,
         self.di, self.bp, self.sp) = struct.unpack('10Q', raw_buf[:80])
        PerfEvent.__init__(self, name, comm, dso, symbol, raw_buf, ev_type)
        PebsEvent.pebs_num += 1


class PebsNHM(PebsEvent):
    pebs_nhm_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_PEBS_LL):
        self.status, self.dla, self.dse, self.lat = struct.unpack('4Q', raw_buf[144:176])
        PebsEvent.__init__(self, name, comm, dso, symbol, raw_buf, ev_type)
        PebsNHM.pebs_nhm_num += 1
