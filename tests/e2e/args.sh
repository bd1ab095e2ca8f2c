# Arguments and return values captured by -A/-R specs, in every format
# (d with sizes, u, x, c, p, s, f, printf form, stack-passed arguments),
# with each register-seeing front end; replay shows them, --no-args hides.
# variants: all
. "$E2E/args_lib.inc"
for fr in $(args_fronts); do
	args_build args.$fr $fr "$E2E/args.c"
	record d.$fr --str-max=16 \
		-A '^gcd$@arg1/d,arg2/d' -R '^gcd$@retval/d' \
		-A '^ints$@arg1/d8,arg2/d16,arg3/d64,arg4/u,arg5/x' -R '^ints$@retval/u' \
		-A '^chars$@arg1/c,arg2/c,arg3/c' -R '^chars$@retval/c' \
		-A '^callback$@arg1' \
		-A '^pointers$@arg1/p,arg2/p' -R '^pointers$@retval/p' \
		-A '^strings$@arg1/s,arg2/s,arg3/s,arg4/s,arg5/s' -R '^strings$@retval/u64' \
		-A '^name_of$@arg1/d' -R '^name_of$@retval/s' \
		-A '^floats$@fparg1/f,fparg2/f32,fparg3/f64' -R '^floats$@retval/f' \
		-A '^halve$@fparg1/f32' -R '^halve$@retval/f32' \
		-A '^many$@arg1/d64,arg6/d64,arg7/d64,arg8/d64,arg9/d64' -R '^many$@retval/d64' \
		-A '^printf_form$@fmt="a=%d s=%s x=%#x d=%.2f"' -R '^printf_form$@fmt="<%d>"' \
		./args.$fr
	want_rc "record ./args.$fr" $RC 0 "$W/d.$fr.err"
	ct replay d.$fr --no-duration | normalize >"$W/replay.$fr"
	ct replay d.$fr --no-duration --no-args | normalize >"$W/noargs.$fr"
	args_same $fr "$W/replay.$fr"
	[ -z "$first" ] && first=$fr
done
section "stdout"; add <"$W/d.$first.out"
section "replay"; add <"$W/replay.$first"
section "replay --no-args"; add <"$W/noargs.$first"
section "report --by-args --format=csv (function,calls)"
ct report d.$first --by-args --format=csv | csv_calls | add
section "export --format=chrome: args of the slices that have them (parsed back)"
ct export d.$first --format=chrome -o "$W/trace.json"
python3 - "$W/trace.json" <<'PY' 2>&1 | add
import json, sys
d = json.load(open(sys.argv[1]))
# (time_ns and self_ns, the call's times, differ from run to run)
rows = sorted("%s %s" % (e["name"], json.dumps({k: v for k, v in e["args"].items()
                                                  if k not in ("time_ns", "self_ns")},
                                                 sort_keys=True))
              for e in d["traceEvents"]
              if e["ph"] == "X" and ("arguments" in e.get("args", {}) or "return" in e.get("args", {})))
print("\n".join(rows))
PY
