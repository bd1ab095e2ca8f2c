# A program that closes every descriptor from 3 up (closefrom) and opens a
# file of its own, then dlopens and calls a library: the runtime never
# writes into that file (its .proc descriptor is held at a high number and
# its identity checked before each write), and the recording still has the
# module lines and the calls.  The same with the runtime linked in (its
# writer thread's .ev descriptors).  The runtime's files are private.
# variants: one
build libplugin.so "$E2E/plugin.c" -shared -fPIC
build closefrom "$E2E/closefrom.c"
record d ./closefrom ./libplugin.so "$W/own.txt"
want_rc "record ./closefrom" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "the program's file"; add <"$W/own.txt"
section "the .proc file lists the library, mapped and unmapped"
grep -c '^module .*libplugin\.so$' "$W"/d/*.proc | sed 's/^/module lines: /' | add
grep -c '^unmodule .*libplugin\.so$' "$W"/d/*.proc | sed 's/^/unmodule lines: /' | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "modes of the runtime's files"
stat -c '%a' "$W"/d/*.proc | sed 's/^/proc: /' | add

# linked in: the writer thread's .ev descriptors
LIBDIR=$(dirname "$CT")
build closefrom_l "$E2E/closefrom.c" -L"$LIBDIR" -lcalltrace -Wl,-rpath,"$LIBDIR"
guard env CALLTRACE_DIR="$W/l" CALLTRACE_BUFSIZE=4096 ./closefrom_l ./libplugin.so "$W/own_l.txt" \
	>"$W/l.out" 2>"$W/l.err"
want_rc "CALLTRACE_DIR=l ./closefrom_l" $RC 0 "$W/l.err"
section "linked: stdout (exit $RC)"; add <"$W/l.out"
section "linked: the program's file"; add <"$W/own_l.txt"
section "linked: report --format=csv (function,calls)"; ct report l --format=csv | csv_calls | add
section "linked: modes of the runtime's files"
stat -c '%a' "$W/l" | sed 's/^/dir: /' | add
stat -c '%a' "$W"/l/*.proc "$W"/l/*.ev | sort -u | sed 's/^/files: /' | add
