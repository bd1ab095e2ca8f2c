# dlclose of one library and dlopen of another at the same address: every
# call named after the library that held the address at its time (liba's
# calls were shown as libb's: libb.so+0x1119, bar_b+0x36), in replay,
# report, coverage and callgrind.
# variants: all
# aarch64: yes patch
# front-ends: all
build libdla.so "$E2E/dlswap_a.c" -shared -fPIC
build libdlb.so "$E2E/dlswap_b.c" -shared -fPIC
build dlswap "$E2E/dlswap.c"
record d ./dlswap ./libdla.so ./libdlb.so
want_rc "record ./dlswap" $RC 0 "$W/d.err"
grep -q 'same base: yes' "$W/d.err" ||
	echo "(the loader put the libraries at different addresses: the case is weaker)" >&2
section "stdout (exit $RC)"; add <"$W/d.out"
section "replay"; ct replay d --no-duration | normalize | add
section "report --format=csv (function,calls)"; ct report d --format=csv | csv_calls | add
section "coverage: each library's own functions"
# (the modules by their absolute paths: the runtime records them so)
ct coverage d | grep -E "^$W/libdl|^  [^ ].*dlswap_" | sed "s|$E2E/||; s|^$W/|W/|" | sort | add
section "callgrind: the functions' files"
ct export d --format=callgrind -o "$W/out.cg"
grep -E '^(fl|cfi|cfl)=\([0-9]+\) ' "$W/out.cg" | sed 's/^[a-z]*=([0-9]*) //; s|.*/||' | sort | add
