# Imported by the browser tests and scripts/bench/flamegraph-large.sh
# (with this folder on sys.path): drive headless Chromium through its
# DevTools protocol over --remote-debugging-pipe (JSON messages ended by a
# NUL byte, the browser reads fd 3 and writes fd 4), standard library only.
#
#   b = cdp.Browser('/usr/bin/chromium', profile_dir, 1000, 900)
#   b.goto('file:///tmp/x.html')          # waits for the load event
#   b.js('document.title')                # the value of an expression
#   b.drag((x0, y0), (x1, y1))            # real mouse events
#   b.shot('/tmp/x.png', clip)            # a PNG of a page rectangle
#   b.close()
import base64
import fcntl
import json
import os
import subprocess
import time


class Error(Exception):
    pass


class Browser:
    def __init__(self, chromium, profile, width=1000, height=900, timeout=60):
        self.timeout = timeout
        to_child, self._w = os.pipe()
        self._r, from_child = os.pipe()
        args = [chromium, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                '--remote-debugging-pipe', '--user-data-dir=' + profile,
                '--window-size=%d,%d' % (width, height), 'about:blank']

        def fds():	# the child's fd 3 reads our commands, its fd 4 writes replies
            a = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        # close_fds=False: the pipes are close-on-exec, the dup2 copies not
        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False,
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(profile + '.log'), 'ab'))
        os.close(to_child)
        os.close(from_child)
        self._buf = b''
        self._id = 0
        self.events = []
        self.session = None
        tid = self.call('Target.createTarget', {'url': 'about:blank'}, browser=True)['targetId']
        self.session = self.call('Target.attachToTarget', {'targetId': tid, 'flatten': True},
                                 browser=True)['sessionId']
        self.call('Page.enable')
        self.call('Runtime.enable')
        self.call('Emulation.setDeviceMetricsOverride',
                  {'width': width, 'height': height, 'deviceScaleFactor': 1, 'mobile': False})

    def _read(self, deadline):
        while b'\0' not in self._buf:
            if time.time() > deadline:
                raise Error('no reply from chromium in %d s' % self.timeout)
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise Error('chromium closed its DevTools pipe')
            self._buf += chunk
        msg, self._buf = self._buf.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, params=None, browser=False):
        """Send a command, return its result; events met meanwhile are kept."""
        self._id += 1
        msg = {'id': self._id, 'method': method, 'params': params or {}}
        if self.session and not browser:
            msg['sessionId'] = self.session
        os.write(self._w, json.dumps(msg).encode() + b'\0')
        deadline = time.time() + self.timeout
        while True:
            m = self._read(deadline)
            if m.get('id') == self._id:
                if 'error' in m:
                    raise Error('%s: %s' % (method, m['error'].get('message')))
                return m.get('result', {})
            if 'method' in m:
                self.events.append(m)

    def wait_event(self, method):
        deadline = time.time() + self.timeout
        while True:
            for i, m in enumerate(self.events):
                if m['method'] == method:
                    return self.events.pop(i)
            m = self._read(deadline)
            if 'method' in m:
                self.events.append(m)

    def js(self, expr):
        """The value of a JavaScript expression in the page (JSON values)."""
        r = self.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True,
                                            'awaitPromise': True})
        if 'exceptionDetails' in r:
            raise Error('%s: %s' % (expr, r['exceptionDetails'].get('exception', {})
                                    .get('description', r['exceptionDetails'].get('text'))))
        return r['result'].get('value')

    def goto(self, url):
        """Load url and wait for its load event; the seconds it took."""
        self.events = [m for m in self.events if m['method'] != 'Page.loadEventFired']
        t = time.time()
        self.call('Page.navigate', {'url': url})
        self.wait_event('Page.loadEventFired')
        return time.time() - t

    def reload(self):
        self.events = [m for m in self.events if m['method'] != 'Page.loadEventFired']
        t = time.time()
        self.call('Page.reload')
        self.wait_event('Page.loadEventFired')
        return time.time() - t

    def mouse(self, kind, x, y, buttons=0):
        p = {'type': kind, 'x': x, 'y': y, 'buttons': buttons}
        if kind != 'mouseMoved' or buttons:
            p['button'] = 'left'
        if kind in ('mousePressed', 'mouseReleased'):
            p['clickCount'] = 1
        self.call('Input.dispatchMouseEvent', p)

    def drag(self, a, b, steps=10):
        """Press at a, move to b in steps, release there (viewport pixels)."""
        self.mouse('mouseMoved', a[0], a[1])
        self.mouse('mousePressed', a[0], a[1], 1)
        for i in range(1, steps + 1):
            self.mouse('mouseMoved', a[0] + (b[0] - a[0]) * i / steps,
                       a[1] + (b[1] - a[1]) * i / steps, 1)
        self.mouse('mouseReleased', b[0], b[1])

    def click(self, x, y):
        self.mouse('mouseMoved', x, y)
        self.mouse('mousePressed', x, y, 1)
        self.mouse('mouseReleased', x, y)

    def shot(self, path, clip=None):
        """A PNG of the page (clip: x, y, width, height in page pixels)."""
        p = {'format': 'png'}
        if clip:
            p['clip'] = {'x': clip[0], 'y': clip[1], 'width': clip[2], 'height': clip[3],
                         'scale': 1}
            p['captureBeyondViewport'] = True
        data = self.call('Page.captureScreenshot', p)['data']
        with open(path, 'wb') as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call('Browser.close', browser=True)
        except Error:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)


def heatmap_cell(b, s):
    """The viewport point at the middle of slice s's cell in the heatmap of a
    prf flamegraph page (a column per second, a row per slice of it, the
    cells right of a 40-pixel label margin, 14 pixels of labels below)."""
    tm = b.js('PRF_FG.time')
    x, y, cw, ch = b.js("(c=>{var r=c.getBoundingClientRect();return [r.left,r.top,c.width,c.height];})"
                        "(document.getElementById('hm-canvas'))")
    cols = -(-tm['nSlices'] // tm['perSec'])
    w, h = (cw - 40) / cols, (ch - 14) / tm['perSec']
    return (x + 40 + (s // tm['perSec']) * w + w / 2, y + (s % tm['perSec']) * h + h / 2)
