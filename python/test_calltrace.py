# SPDX-License-Identifier: MIT
"""Tests of the Python module (python/calltrace.py) on a recording.

    CALLTRACE_TEST_DATA=DIR python3 python/test_calltrace.py

DIR is a recording of any program with calls (tests/e2e/reader.sh makes
one); the library is found as calltrace.py finds it ($CALLTRACE_READER_LIB).
"""
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calltrace  # noqa: E402

DATA = os.environ.get("CALLTRACE_TEST_DATA", "calltrace.data")


class TestRecording(unittest.TestCase):
    def setUp(self):
        self.rec = calltrace.Recording(DATA)

    def tearDown(self):
        self.rec.close()

    def test_version(self):
        self.assertGreaterEqual(calltrace.api_version(), calltrace.API_VERSION)

    def test_tables(self):
        rec = self.rec
        self.assertTrue(rec.processes and rec.threads)
        self.assertTrue(rec.info["complete"])
        for t in rec.threads:
            p = rec.processes[t.process]
            self.assertEqual(t.pid, p.pid)
            self.assertGreater(t.bytes, 0)
        p = rec.processes[0]
        self.assertTrue(p.modules and p.argv)
        self.assertTrue(all(m.lo < m.hi for m in p.modules))

    def test_records_match_events(self):
        """the fast tuples and the Event tuples are the same events"""
        rec = self.rec
        evs = list(rec.events())
        recs = list(rec.records(batch=7))  # batches that split the stream
        self.assertEqual(len(evs), len(recs))
        self.assertGreater(len(evs), 0)
        for e, r in zip(evs, recs):
            self.assertEqual((e.kind, e.depth, e.thread, e.time_ns, e.addr, e.name),
                             (r[calltrace.R_KIND], r[calltrace.R_DEPTH], r[calltrace.R_THREAD],
                              r[calltrace.R_TIME], r[calltrace.R_ADDR],
                              rec.names[r[calltrace.R_NAME]]))

    def test_nesting(self):
        """per thread, entries and exits nest, and an exit names its entry"""
        rec = self.rec
        for t in rec.threads:
            stack = []
            for e in rec.events(thread=t.index):
                self.assertEqual(e.thread, t.index)
                if e.kind == calltrace.ENTRY:
                    self.assertEqual(e.depth, len(stack))
                    self.assertEqual(e.start_ns, e.time_ns)
                    stack.append(e)
                else:
                    ent = stack.pop()
                    self.assertEqual((e.depth, e.name, e.addr, e.start_ns),
                                     (ent.depth, ent.name, ent.addr, ent.time_ns))
                    self.assertGreaterEqual(e.time_ns, ent.time_ns)
            self.assertEqual(stack, [])

    def test_resolve(self):
        rec = self.rec
        e = next(rec.events())
        s = rec.resolve(rec.threads[e.thread].process, e.addr)
        self.assertEqual(s.name, e.name)
        self.assertIsNotNone(s.module)

    def test_bad_arguments(self):
        rec = self.rec
        with self.assertRaises(calltrace.Error) as cm:
            list(rec.records(thread=len(rec.threads)))
        self.assertEqual(cm.exception.code, calltrace.Error.ARG)
        with self.assertRaises(calltrace.Error) as cm:
            rec.resolve(len(rec.processes), 0)
        self.assertEqual(cm.exception.code, calltrace.Error.ARG)
        with self.assertRaises(calltrace.Error):
            calltrace.Recording(DATA, demangle="sometimes")


class TestErrors(unittest.TestCase):
    def test_missing(self):
        with self.assertRaises(calltrace.Error) as cm:
            calltrace.Recording("/nonexistent/calltrace.data")
        self.assertEqual(cm.exception.code, calltrace.Error.OPEN)
        self.assertIn("/nonexistent/calltrace.data", cm.exception.message)

    def test_garbage(self):
        """a stream that returns from calls never made (EXIT records right
        after the header): an error naming the file and the offset, raised
        while walking"""
        tmp = tempfile.mkdtemp()
        try:
            d = os.path.join(tmp, "d")
            shutil.copytree(DATA, d)
            ev = sorted(f for f in os.listdir(d) if f.endswith(".ev"))[0]
            path = os.path.join(d, ev)
            with open(path, "r+b") as f:
                f.seek(32)
                f.write(b"\x05\x00\x00\x00" * 4)
            rec = calltrace.Recording(d)
            with self.assertRaises(calltrace.Error) as cm:
                for _ in rec.records():
                    pass
            self.assertEqual(cm.exception.code, calltrace.Error.DATA)
            self.assertIn(ev, cm.exception.message)
            self.assertIn("offset", cm.exception.message)
            rec.close()
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
