# accuracy: the corrected times against a known-work ratio (doc/overhead.md),
# with every front end.  split() and whole() do the same work through the
# same 100 calls, tiny's traced and tiny_plain's not (accuracy.c): untraced
# they take the same time, so the correction must bring split's time
# towards whole's, taking out a good part of what the hooks added to
# split's raw time.  Both figures are ratios of two functions timed in the
# same run, turn about, each the least of its 2000 calls: what a busy
# machine disturbs least, and the same way for both.  No absolute time,
# nothing measured against another run.  It fails with --raw times and with
# calibration figures of zero or a tenth of the measured ones.
# How close the corrected time comes to the untraced one is a measurement,
# not a test: it depends on the machine's load (the hooks cost a call more
# in a busy program than in the calibration's loop: 40 to 90 % of it taken
# out on a quiet machine, 27 to 42 % in a make check at a load of 2);
# bench/accuracy.sh measures it (doc/overhead.md, "Accuracy").
# variants: one
# front-ends: few
build prog "$E2E/accuracy.c"
record d ./prog
want_rc "record ./prog" $RC 0 "$W/d.err"
ct report d --format=csv >"$W/corr.csv"
ct report d --raw --format=csv >"$W/raw.csv"

section "split against whole, the same work untraced (least time of a call)"
# function,calls,total_ns,self_ns,avg_ns,min_ns,...
awk -F, 'FNR == 1 { f++; next }
	$1 == "split" { s[f] = $6 } $1 == "whole" { w[f] = $6; n[f] = $2 }
	END {
		# f 1: corrected, 2: raw
		if (!(s[1] > 0 && w[1] > 0 && s[2] > w[2] && n[1] == 2000)) {
			print "no figures: split " s[1] ", " s[2] ", whole " w[1] ", " w[2] " (" n[1] " calls)"
			exit
		}
		ratio = s[1] / w[1]
		# what the hooks of tiny'"'"'s calls added (raw split - raw whole),
		# and how much of it is left after the correction
		taken = 1 - (s[1] - w[1]) / (s[2] - w[2])
		printf "corrected split / whole: %s\n", (ratio < s[2] / w[2]) ? "below the raw ratio" : "not below the raw ratio"
		printf "of what the hooks added to split, taken out: %s\n",
			(taken >= 0.1) ? "a tenth or more" : "less than a tenth"
		printf "split %d ns, whole %d ns corrected (%.2fx); raw %d and %d ns (%.2fx); %.0f %% of the hooks'"'"' cost taken out\n",
			s[1], w[1], ratio, s[2], w[2], s[2] / w[2], 100 * taken >"/dev/stderr"
	}' "$W/corr.csv" "$W/raw.csv" 2>"$W/figures" | add
