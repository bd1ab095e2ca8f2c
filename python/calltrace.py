# SPDX-License-Identifier: MIT
"""Read calltrace recordings from Python (doc/reader.md).

A ctypes layer over libcalltrace-reader.so.0, the library every calltrace
view reads through: the same events, names, arguments and errors.  Python 3
alone, no compiled extension.

    import calltrace
    with calltrace.Recording("calltrace.data") as rec:
        for t in rec.threads:
            print(t.tid, t.name)
        for ev in rec.events():                  # convenient: Event tuples
            print(ev.kind, ev.depth, ev.name, ev.args)
        names = rec.names
        for r in rec.records():                  # fast: plain tuples
            if r[calltrace.R_KIND] == calltrace.ENTRY:
                print(names[r[calltrace.R_NAME]])

The library is found through $CALLTRACE_READER_LIB, next to an installed
module (PREFIX/lib/python3/dist-packages -> PREFIX/lib), in the source
tree's build/, then by the dynamic loader's search (ldconfig,
LD_LIBRARY_PATH).
"""

import collections
import ctypes
import os
import struct

__all__ = ["Recording", "Error", "Event", "SiteEvent", "Process", "Thread", "Module", "Symbol",
           "ENTRY", "EXIT", "MARK", "API_VERSION"]

API_VERSION = 2  # CT_READER_API_VERSION this module was written for

# event kinds and flags (include/calltrace/reader.h)
ENTRY, EXIT, MARK = 0, 1, 2
KIND_NAMES = ("entry", "exit", "mark")
EV_SIGNAL, EV_SYNTHETIC, EV_UNFINISHED, EV_BEFORE, EV_LIBCALL = 0x1, 0x2, 0x4, 0x8, 0x10
_MARKS, _CORRECTED, _NO_ARGS, _CALLSITES = 0x1, 0x2, 0x4, 0x8
_DEMANGLE = {"full": 0, "simple": 0x1, "no": 0x2}
_ALL_THREADS = ctypes.c_size_t(-1).value
_NONE = 0xFFFFFFFF

# the fields of a record as Recording.records() gives it (struct ct_reader_rec)
REC = struct.Struct("<QQQQIIIBBHII")
(R_TIME, R_START, R_CTIME, R_ADDR, R_NAME, R_DEPTH, R_THREAD, R_KIND, R_FLAGS,
 R_RESERVED, R_ARGS, R_RET) = range(12)

Event = collections.namedtuple(
    "Event", "kind flags depth thread time_ns start_ns ctime_ns addr name args retval")
# events(callsites=True): an Event and its call's call site (record
# --callsite): the return address in the caller (0: none) and its line,
# "main.c:12" (None when unknown)
SiteEvent = collections.namedtuple("SiteEvent", Event._fields + ("callsite", "callsite_line"))
Process = collections.namedtuple(
    "Process", "index pid ppid gen exe argv start_ns modules")
Thread = collections.namedtuple("Thread", "index tid pid process name bytes")
Module = collections.namedtuple("Module", "path buildid base lo hi load_ns unload_ns")
Symbol = collections.namedtuple("Symbol", "name module offset file line")


class Error(Exception):
    """An error of the library: code (CT_READER_E_*) and message."""

    OPEN, DATA, COUNTS, ARG = 1, 2, 3, 4

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class _Err(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 512)]


class _Info(ctypes.Structure):
    _fields_ = [("dir", ctypes.c_char_p), ("command", ctypes.c_char_p),
                ("start_time", ctypes.c_char_p), ("clock", ctypes.c_char_p),
                ("clock_hz", ctypes.c_double), ("duration_ns", ctypes.c_uint64),
                ("complete", ctypes.c_int), ("exit_status", ctypes.c_char_p),
                ("lost", ctypes.c_uint64), ("events", ctypes.c_uint64),
                ("ev_bytes", ctypes.c_uint64)]


class _Process(ctypes.Structure):
    _fields_ = [("index", ctypes.c_size_t), ("pid", ctypes.c_int), ("ppid", ctypes.c_int),
                ("gen", ctypes.c_int), ("exe", ctypes.c_char_p), ("argc", ctypes.c_int),
                ("argv", ctypes.POINTER(ctypes.c_char_p)), ("start_ns", ctypes.c_uint64),
                ("nmodules", ctypes.c_size_t)]


class _Thread(ctypes.Structure):
    _fields_ = [("index", ctypes.c_size_t), ("tid", ctypes.c_int), ("pid", ctypes.c_int),
                ("process", ctypes.c_size_t), ("name", ctypes.c_char_p),
                ("bytes", ctypes.c_uint64)]


class _Module(ctypes.Structure):
    _fields_ = [("path", ctypes.c_char_p), ("buildid", ctypes.c_char_p),
                ("base", ctypes.c_uint64), ("lo", ctypes.c_uint64), ("hi", ctypes.c_uint64),
                ("load_ns", ctypes.c_uint64), ("unload_ns", ctypes.c_uint64)]


class _Sym(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("module", ctypes.c_char_p),
                ("offset", ctypes.c_uint64), ("file", ctypes.c_char_p), ("line", ctypes.c_int)]


def _find_library():
    env = os.environ.get("CALLTRACE_READER_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "..", "..", "libcalltrace-reader.so.0"),
                 os.path.join(here, "..", "build", "libcalltrace-reader.so.0")):
        if os.path.exists(cand):
            return os.path.normpath(cand)
    return "libcalltrace-reader.so.0"


_lib = None


def _load():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_find_library())
    P, S, U32, I = ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_int
    E = ctypes.POINTER(_Err)
    sigs = {
        "ct_reader_api_version": (I, []),
        "ct_reader_open": (I, [ctypes.c_char_p, ctypes.c_uint, ctypes.POINTER(P), E]),
        "ct_reader_close": (None, [P]),
        "ct_reader_warning_count": (S, [P]),
        "ct_reader_warning": (ctypes.c_char_p, [P, S]),
        "ct_reader_info": (ctypes.POINTER(_Info), [P]),
        "ct_reader_process_count": (S, [P]),
        "ct_reader_process": (ctypes.POINTER(_Process), [P, S]),
        "ct_reader_thread_count": (S, [P]),
        "ct_reader_thread": (ctypes.POINTER(_Thread), [P, S]),
        "ct_reader_module": (ctypes.POINTER(_Module), [P, S, S]),
        "ct_reader_resolve": (I, [P, S, ctypes.c_uint64, ctypes.POINTER(_Sym), E]),
        "ct_reader_name_count": (U32, [P]),
        "ct_reader_name": (ctypes.c_char_p, [P, U32]),
        "ct_reader_iter_open": (I, [P, S, ctypes.c_uint, ctypes.POINTER(P), E]),
        "ct_reader_iter_close": (None, [P]),
        "ct_reader_read": (I, [P, P, S, E]),
        "ct_reader_batch_text": (P, [P, ctypes.POINTER(S)]),
        "ct_reader_batch_callsites": (P, [P, ctypes.POINTER(S)]),
        "ct_reader_callsite_line": (ctypes.c_char_p, [P, S, ctypes.c_uint64]),
    }
    for name, (res, args) in sigs.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    if lib.ct_reader_api_version() < API_VERSION:
        raise Error(Error.ARG, "%s: API version %d, this module needs %d"
                    % (_find_library(), lib.ct_reader_api_version(), API_VERSION))
    _lib = lib
    return lib


def _s(b):
    return None if b is None else b.decode("utf-8", "surrogateescape")


class Recording:
    """An open recording (a calltrace.data directory).

    demangle: "full" (default), "simple" or "no", as calltrace's --demangle.
    Raises Error when it cannot be opened."""

    def __init__(self, path="calltrace.data", demangle="full"):
        self._r = None
        lib = _load()
        self._lib = lib
        if demangle not in _DEMANGLE:
            raise Error(Error.ARG, "demangle: want full, simple or no, not %r" % (demangle,))
        err = _Err()
        h = ctypes.c_void_p()
        if lib.ct_reader_open(os.fsencode(path), _DEMANGLE[demangle], ctypes.byref(h),
                              ctypes.byref(err)) < 0:
            raise Error(err.code, _s(err.message))
        self._r = h
        self.names = []  # name ids -> names, kept current by the walks
        inf = lib.ct_reader_info(h).contents
        self.info = {f: (_s(getattr(inf, f)) if isinstance(getattr(inf, f), bytes)
                         else getattr(inf, f)) for f, _ in _Info._fields_}
        self.processes = []
        for i in range(lib.ct_reader_process_count(h)):
            p = lib.ct_reader_process(h, i).contents
            mods = []
            for j in range(p.nmodules):
                m = lib.ct_reader_module(h, i, j).contents
                mods.append(Module(_s(m.path), _s(m.buildid), m.base, m.lo, m.hi,
                                   m.load_ns, m.unload_ns))
            argv = [_s(p.argv[k]) for k in range(p.argc)]
            self.processes.append(Process(p.index, p.pid, p.ppid, p.gen, _s(p.exe), argv,
                                          p.start_ns, mods))
        self.threads = []
        for i in range(lib.ct_reader_thread_count(h)):
            t = lib.ct_reader_thread(h, i).contents
            self.threads.append(Thread(t.index, t.tid, t.pid, t.process, _s(t.name), t.bytes))

    def close(self):
        if self._r is not None:
            self._lib.ct_reader_close(self._r)
            self._r = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    @property
    def warnings(self):
        """The warnings met so far (the commands print them)."""
        lib, r = self._lib, self._r
        return [_s(lib.ct_reader_warning(r, i)) for i in range(lib.ct_reader_warning_count(r))]

    def resolve(self, process, addr):
        """The Symbol at addr in the process of that index."""
        sym, err = _Sym(), _Err()
        if self._lib.ct_reader_resolve(self._r, process, addr, ctypes.byref(sym),
                                       ctypes.byref(err)) < 0:
            raise Error(err.code, _s(err.message))
        return Symbol(_s(sym.name), _s(sym.module), sym.offset, _s(sym.file), sym.line)

    def _sync_names(self):
        lib, r, names = self._lib, self._r, self.names
        n = lib.ct_reader_name_count(r)
        for i in range(len(names), n):
            names.append(_s(lib.ct_reader_name(r, i)))

    def _batches(self, thread, flags, batch):
        """(memoryview of the records, texts) for each batch read."""
        lib = self._lib
        err = _Err()
        it = ctypes.c_void_p()
        t = _ALL_THREADS if thread is None else thread
        if t < 0 or (thread is not None and t >= len(self.threads)):
            raise Error(Error.ARG, "no thread of index %r (the recording has %d)"
                        % (thread, len(self.threads)))
        if lib.ct_reader_iter_open(self._r, t, flags, ctypes.byref(it), ctypes.byref(err)) < 0:
            raise Error(err.code, _s(err.message))
        buf = bytearray(REC.size * batch)
        cbuf = (ctypes.c_char * len(buf)).from_buffer(buf)
        addr = ctypes.addressof(cbuf)
        view = memoryview(buf)
        tlen = ctypes.c_size_t()
        try:
            while True:
                n = lib.ct_reader_read(it, addr, batch, ctypes.byref(err))
                if n < 0:
                    raise Error(err.code, _s(err.message))
                if n == 0:
                    return
                self._sync_names()
                text = None
                if not flags & _NO_ARGS:
                    p = lib.ct_reader_batch_text(it, ctypes.byref(tlen))
                    if tlen.value:
                        text = ctypes.string_at(p, tlen.value)
                if flags & _CALLSITES:
                    p = lib.ct_reader_batch_callsites(it, ctypes.byref(tlen))
                    self._sites = list((ctypes.c_uint64 * tlen.value).from_address(p)) \
                        if p and tlen.value else [0] * n
                yield view[:n * REC.size], text
        finally:
            lib.ct_reader_iter_close(it)

    def records(self, thread=None, marks=False, corrected=False, batch=8192):
        """The events as plain tuples, the fast way (millions a second):
        fields R_TIME, R_START, R_CTIME, R_ADDR, R_NAME (an index in
        self.names), R_DEPTH, R_THREAD (an index in self.threads), R_KIND,
        R_FLAGS, then three fields left unused here.  thread: an index, or
        None for all threads merged in time order."""
        flags = _NO_ARGS | (_MARKS if marks else 0) | (_CORRECTED if corrected else 0)
        unpack = REC.iter_unpack
        for view, _ in self._batches(thread, flags, batch):
            yield from unpack(view)

    def events(self, thread=None, marks=False, corrected=False, batch=8192, callsites=False):
        """The events as Event tuples with names, captured arguments and
        return values ("48, 18", "6"; None when not captured) as replay
        shows them.  callsites: SiteEvent tuples instead, with each call's
        call site (record --callsite) and its line."""
        flags = (_MARKS if marks else 0) | (_CORRECTED if corrected else 0) | \
            (_CALLSITES if callsites else 0)
        names = self.names
        for view, text in self._batches(thread, flags, batch):
            sites = self._sites if callsites else None
            for i, (tm, st, ct, addr, name, depth, th, kind, fl, _, a, r) in \
                    enumerate(REC.iter_unpack(view)):
                args = ret = None
                if text is not None:
                    if a != _NONE:
                        args = _s(text[a:text.index(b"\0", a)])
                    if r != _NONE:
                        ret = _s(text[r:text.index(b"\0", r)])
                if sites is None:
                    yield Event(kind, fl, depth, th, tm, st, ct, addr, names[name], args, ret)
                else:
                    yield SiteEvent(kind, fl, depth, th, tm, st, ct, addr, names[name], args,
                                    ret, sites[i], self.callsite_line(th, sites[i]))

    def callsite_line(self, thread, site):
        """The line of call site `site` of a thread (its index), "main.c:12",
        or None (each address resolved once)."""
        if not site:
            return None
        key = (self.threads[thread].process, site)
        cache = self.__dict__.setdefault("_lines", {})
        if key not in cache:
            cache[key] = _s(self._lib.ct_reader_callsite_line(self._r, key[0], site))
        return cache[key]


def api_version():
    """The version of the library loaded."""
    return _load().ct_reader_api_version()
