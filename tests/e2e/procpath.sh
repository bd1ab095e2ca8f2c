# A program and a dlopen'd library in a directory whose name holds a
# newline and a backslash ("lib\n", newline, "arg injected"): the .proc
# file's exe, module, unmodule and patch lines escape their paths as arg
# lines do (\\, \n), so no line is injected ("arg injected/..." used to be
# one, and the module paths were cut at the newline: no names); the views
# name every function, from the files and from the symbols saved in the
# recording; info shows the paths whole (doc/format.md).
# variants: all
# aarch64: yes patch
# front-ends: few
dir="$W/lib\\n
arg injected"
mkdir "$dir" || die "cannot make a directory with a newline in its name"
build libplugin.so "$E2E/plugin.c" -shared -fPIC
build dlopen "$E2E/dlopen.c"
mv "$W/libplugin.so" "$W/dlopen" "$dir/" || die "cannot move the programs"
record d "$dir/dlopen" "$dir/libplugin.so"
want_rc "record dlopen libplugin.so" $RC 0 "$W/d.err"
# the paths as the views show them, the work dir named W
show() { sed "s|$W|W|g"; }
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "info: the executable, the arguments, the modules in that directory"
ct info d >"$W/info"
grep -E '^  (exe|argv):' "$W/info" | show | add
grep -E '^    .*arg injected/' "$W/info" | sed 's/^ *[^ ]* [^ ]* //' | show | add
section "the .proc file: lines of its keywords only; the library mapped and unmapped"
cat "$W"/d/*.proc | grep -cvE '^(calltrace-proc|pid|ppid|gen|exe|arg|clock|overhead|overhead-hook|frontend|module|unmodule|libcall|patched|patch-hooked|patch-filtered|thread-name|fork) ' |
	sed 's/^/other lines: /' | add
grep -c '^module .*/lib\\\\n\\narg injected/libplugin\.so$' "$W"/d/*.proc | sed 's/^/module lines: /' | add
grep -c '^unmodule .*/lib\\\\n\\narg injected/libplugin\.so$' "$W"/d/*.proc | sed 's/^/unmodule lines: /' | add
section "replay with the programs gone (the symbols saved in the recording)"
rm -rf "$dir"
ct replay d --no-duration 2>/dev/null | normalize | add
