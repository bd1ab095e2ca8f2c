# cxx_local_py: Python loads an instrumented C++ extension through ctypes
# (RTLD_LOCAL, as ctypes.CDLL does by default) that throws and catches its
# own exception: the same as cxx_local, from an interpreter that is not
# C++ at all.  It used to die of SIGSEGV under record.
# variants: one
PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -z "$PY" ] || [ ! -x "$PY" ]; then
	echo "cxx_local_py: skipped: no python3" >>"$W/skipped"
	exit 0
fi
build libcxxlocal.so "$E2E/cxx_local_lib.cc" -shared -fPIC
cat >"$W/load.py" <<'PYEOF'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
print("caught=%d" % lib.cxx_work(5))
print("caught=%d" % lib.cxx_work(7))
PYEOF
guard "$PY" "$W/load.py" "$W/libcxxlocal.so" >"$W/plain.out" 2>"$W/plain.err"
want_rc "python3 load.py (untraced)" $RC 0 "$W/plain.err"
record d "$PY" "$W/load.py" "$W/libcxxlocal.so"
want_rc "record python3 load.py" $RC 0 "$W/d.err"
cmp -s "$W/plain.out" "$W/d.out" || fail "stdout differs from the untraced run's"
section "stdout (exit $RC)"; add <"$W/d.out"
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
