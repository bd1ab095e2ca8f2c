# accuracy: the corrected times against a known-work ratio (doc/overhead.md),
# with every front end.  split() and whole() do the same work through the
# same 100 calls, tiny's traced and tiny_plain's not (accuracy.c): untraced
# they take the same time, so the correction must bring split's time
# towards whole's, taking out a good part of what the hooks added to
# split's raw time.  The figure is the median, over the 2000 pairs, of a
# split call's time over the whole call's that follows it, 10 us later:
# the two of a pair see the same machine (a busy hyperthread sibling
# slows both alike), which the least time of each over the run did not
# (in a CI run at a load of 2 the least whole call came out 2.6 % slower
# than the least split call, hooks and all).  No absolute time, nothing
# measured against another run.  It fails with --raw times and with
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
# one line per call of split or whole, in time order: "  9.677 us | split();"
ct replay d -F '^(split|whole)$' -D 1 -f duration --no-pager >"$W/corr.txt"
ct replay d -F '^(split|whole)$' -D 1 -f duration --no-pager --raw >"$W/raw.txt"

section "split against whole, the same work untraced (median of the pairs)"
awk 'function ns(v, u) {
		return v * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1)
	}
	function median(a, n,    i, j, t) {
		for (i = 2; i <= n; i++) {	# insertion sort: 2000 figures
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--)
				a[j + 1] = a[j]
			a[j + 1] = t
		}
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	FNR == 1 { f++; have = 0 }
	/\| split\(\);$/ { t = ns($1, $2); have = t > 0; next }
	/\| whole\(\);$/ {
		w = ns($1, $2)
		if (have && w > 0) { n[f]++; r[f, n[f]] = have ? t / w : 0 }
		have = 0
	}
	END {
		# f 1: corrected, 2: raw
		for (k = 1; k <= 2; k++) {
			delete a
			for (i = 1; i <= n[k]; i++)
				a[i] = r[k, i]
			m[k] = median(a, n[k])
		}
		if (!(n[1] == 2000 && n[2] == 2000 && m[1] > 0 && m[2] > 1)) {
			print "no figures: " n[1] " and " n[2] " pairs, medians " m[1] ", " m[2]
			exit
		}
		# what the hooks of tiny'"'"'s calls added (raw ratio - 1), and how
		# much of it is left after the correction
		taken = 1 - (m[1] - 1) / (m[2] - 1)
		printf "corrected split / whole: %s\n", (m[1] < m[2]) ? "below the raw ratio" : "not below the raw ratio"
		printf "of what the hooks added to split, taken out: %s\n",
			(taken >= 0.1) ? "a tenth or more" : "less than a tenth"
		printf "split / whole, median of %d pairs: %.3f corrected, %.3f raw; %.0f %% of the hooks'"'"' cost taken out\n",
			n[1], m[1], m[2], 100 * taken >"/dev/stderr"
	}' "$W/corr.txt" "$W/raw.txt" 2>"$W/figures" | add
