# accuracy: the corrected times match the untraced program within a
# generous bound (doc/overhead.md), with every front end.  parent spins a
# loop of known length and calls tiny 100 times: the hooks' cost is a good
# part of its time (raw: about 1.7 to 2.5 times the untraced), which the
# correction must take out.  The untraced cost is timed in the same
# program built without the front end's flags; the least corrected total
# of a call of parent must lie within +-50 % of the least untraced one (the
# least: what a loaded machine disturbs least), and the raw one does not.
# variants: one
# front-ends: few
build prog "$E2E/accuracy.c"
# the plain build: the variant's flags less the instrumentation
PLAIN=$(echo "$CFLAGS" | sed -e 's/-finstrument-functions[^ ]*//g' -e 's/-fpatchable-function-entry=[0-9,]*//g' \
	-e 's/-mfentry//g' -e 's/-pg//g')
$CC $PLAIN -o "$W/plain" "$E2E/accuracy.c" >"$W/build-plain.log" 2>&1 || die "plain build failed"
truth=$("$W/plain" time)
record d ./prog
want_rc "record ./prog" $RC 0 "$W/d.err"
ct report d --format=csv >"$W/corr.csv"
ct report d --raw --format=csv >"$W/raw.csv"

section "parent's least total per call against its least untraced cost (within 50 %)"
# function,calls,total_ns,self_ns,avg_ns,min_ns,...
for f in corr raw; do
	awk -F, -v t="$truth" -v f="$f" '$1 == "parent" {
		r = $6 / t
		printf "%s: %s\n", f, (r > 0.5 && r < 1.5) ? "within" : "outside"
		printf "%s: calls %d, least %d ns, untraced %d ns (%.2fx)\n", f, $2, $6, t, r >"/dev/stderr"
	}' "$W/$f.csv" 2>>"$W/figures"
done | add
golden
