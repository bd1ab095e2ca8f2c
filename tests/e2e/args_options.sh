# record -A/-R/-a options and their errors; a dlopen'ed library named with
# --args-lib; the spec saved in the recording still decodes after the
# binary is gone; a damaged spec file is reported, not fatal.
# variants: one
. "$E2E/args_lib.inc"
args_build libplugin.so fentry "$E2E/plugin.c" -shared -fPIC
args_build dlopen fentry "$E2E/dlopen.c"

section "usage errors (exit status, message)"
for spec in '@auto-args' 'gcd@arg0' 'gcd@arg1/q' 'gcd@fparg1/d' 'gcd@fmt="%d' '(@arg1'; do
	"$CT" record -d "$W/bad" -A "$spec" ./dlopen ./libplugin.so >/dev/null 2>"$W/bad.err"
	echo "-A '$spec': exit $? $(head -n 1 "$W/bad.err")" | add
done
"$CT" record -d "$W/bad" -R 'f@arg1' ./dlopen >/dev/null 2>"$W/bad.err"
echo "-R 'f@arg1': exit $? $(head -n 1 "$W/bad.err")" | add
"$CT" record -d "$W/bad" --str-max=0 -a ./dlopen >/dev/null 2>"$W/bad.err"
echo "--str-max=0: exit $? $(head -n 1 "$W/bad.err")" | add

section "a dlopen'ed library (--args-lib), a spec that matches nothing"
record d --args-lib ./libplugin.so -A '^plugin_entry$@arg1/d' -R '^plugin_entry$@retval/d' \
	-A '^call_plugin$@arg1/p,arg2/d' -A '^no_such_function$@arg1' ./dlopen ./libplugin.so
want_rc "record ./dlopen" $RC 0 "$W/d.err"
grep 'warning' "$W/d.err" | add
ct replay d --no-duration | normalize | add

section "linked-in runtime, no record: CALLTRACE_ARGS names the spec file"
(cd "$W" && LD_PRELOAD="$(dirname "$CT")/libcalltrace.so" CALLTRACE_DIR="$W/l" \
	CALLTRACE_ARGS="$W/d/args.spec" ./dlopen ./libplugin.so >/dev/null 2>"$W/l.err")
echo "exit $?" | add
ct replay l --no-duration -F plugin_entry | normalize | add

section "info: the functions with captured values"
ct info d | grep '^arguments:' | add

section "after the program and library are deleted"
rm -f "$W/dlopen" "$W/libplugin.so"
ct replay d --no-duration -F plugin_entry | normalize | add

section "records that do not fit their spec: skipped, counted, a warning"
cp "$W/d/args.spec" "$W/spec.orig"
# one more argument in every spec: no record fits any more
sed 's/^spec \([0-9]*\)$/spec \1\na r9 d64 - -/' "$W/spec.orig" >"$W/d/args.spec"
"$CT" replay -d "$W/d" --no-duration -F plugin_entry 2>"$W/nofit.err" | normalize | add
echo "exit $?" | add
sed "s|$W/||; s|/[0-9-]*\.ev:|/N.ev:|" "$W/nofit.err" | add
cp "$W/spec.orig" "$W/d/args.spec"

section "a damaged args.spec: a warning, no arguments"
echo "calltrace-args 1
spec 0
a rdi q9 - -
end" >"$W/d/args.spec"
"$CT" replay -d "$W/d" --no-duration -F plugin_entry 2>"$W/damaged.err" | normalize | add
echo "exit $?" | add
sed "s|$W/||" "$W/damaged.err" | add
