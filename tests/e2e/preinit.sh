# A program whose .preinit_array calls traced code before libc has set
# environ: the runtime reads its configuration from /proc/self/environ and
# traces everything (it used to turn itself off for good: "0 processes").
# Patched entries are written by the runtime's constructor, after the
# .preinit_array has run: there only main's calls are traced.
# variants: all
# aarch64: yes patch
# front-ends: all
build preinit "$E2E/preinit.c"
record d ./preinit
want_rc "record ./preinit" $RC 0 "$W/d.err"
section "stdout"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "summary: processes"
sed -n 's/^calltrace: exit 0: \([0-9]* process[es]*\),.*/\1/p' "$W/d.err" | add
