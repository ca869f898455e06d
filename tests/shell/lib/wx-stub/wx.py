# A stand-in for wxPython, so that sched-migration.py's GUI (SchedGui.py)
# builds without wx and a display: every wx class and call is an inert
# object, and App.MainLoop() prints, instead of drawing, the time slices
# and per-CPU runqueues of the frames made.
_frames = []


class _Inert:
	def __init__(self, *args, **kwargs):
		if isinstance(self, Frame):
			_frames.append(self)

	def __getattr__(self, name):
		return _Inert()

	def __call__(self, *args, **kwargs):
		return _Inert()


class Frame(_Inert):
	pass


def GetDisplaySize():
	return (1024, 768)


def _event(ev):
	return "%s%s" % (type(ev).__name__, sorted(vars(ev).items()))


class App(_Inert):
	def MainLoop(self):
		for frame in _frames:
			for ts in frame.sched_tracer.data:
				print("%d-%d load %d cpus %s" % (ts.start, ts.end, ts.total_load, ts.event_cpus))
				for cpu in sorted(ts.rqs):
					rq = ts.rqs[cpu]
					print("\tcpu %d: tasks %s %s" % (cpu, list(rq.tasks), _event(rq.event)))


def __getattr__(name):
	return _Inert
