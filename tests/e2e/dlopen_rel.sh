# dlopen_rel: a program changes directory, dlopens "./libplugin.so" there
# and comes back.  The loader names the module by that relative path; the
# module map (.proc) used to keep it, so record could not save its
# symbols and the views, run elsewhere, showed "libplugin.so+0x...".  The
# runtime now records the file the kernel mapped (/proc/self/maps), an
# absolute path: names resolve, also without the symbol cache
# (CALLTRACE_NO_CACHE=1).
# variants: all
# aarch64: yes patch
# front-ends: all
mkdir -p "$W/sub"
build libplugin.so "$E2E/plugin.c" -shared -fPIC
mv "$W/libplugin.so" "$W/sub/"
build dlopen_rel "$E2E/dlopen_rel.c"
export CALLTRACE_NO_CACHE=1
record d ./dlopen_rel sub ./libplugin.so
want_rc "record ./dlopen_rel sub ./libplugin.so" $RC 0 "$W/d.err"
section "stdout (exit $RC)"; add <"$W/d.out"
section "warnings of record"; grep -i 'warning' "$W/d.err" | sed "s|$W/||g" | add
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "the module line of the library names it by its absolute path"
sed -n 's/^module .* \([^ ]*libplugin\.so\)$/\1/p' "$W"/d/*.proc | sed "s|^$W/|W/|" | add
