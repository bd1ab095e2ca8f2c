# accuracy: the corrected times against a known-work ratio (doc/overhead.md),
# with every front end.  split() and whole() do the same work through the
# same 100 calls, tiny's traced and tiny_plain's not (accuracy.c): untraced
# they take the same time, so the corrected time of split must be near
# whole's, and the correction must have taken out a good part of what the
# hooks added to split's raw time.  Both figures are ratios of two
# functions timed in the same run, turn about, each the least of its 2000
# calls: what a busy machine disturbs least, and the same way for both.  No
# absolute time, nothing measured against another run.  (Fenced work: the
# hooks cost 20 to 40 ns a call, of which the correction takes out 40 to
# 90 %: the calibration's calls run back to back, overlapped by the core;
# see doc/overhead.md, "Limits".)
# variants: one
# front-ends: few
build prog "$E2E/accuracy.c"
record d ./prog
want_rc "record ./prog" $RC 0 "$W/d.err"
ct report d --format=csv >"$W/corr.csv"
ct report d --raw --format=csv >"$W/raw.csv"

section "split against whole, the same work untraced (least time of a call; corrected)"
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
		printf "corrected split / whole: %s\n", (ratio > 2 / 3 && ratio < 1.5) ? "within 50 % of 1" : "off"
		printf "of what the hooks added to split, taken out: %s\n",
			(taken >= 0.25) ? "a quarter or more" : "less than a quarter"
		printf "split %d ns, whole %d ns corrected (%.2fx); raw %d and %d ns (%.2fx); %.0f %% of the hooks'"'"' cost taken out\n",
			s[1], w[1], ratio, s[2], w[2], s[2] / w[2], 100 * taken >"/dev/stderr"
	}' "$W/corr.csv" "$W/raw.csv" 2>"$W/figures" | add
