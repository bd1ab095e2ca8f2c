# A -pg program writes gmon.out when run plainly (glibc's gprof start-up);
# traced, the gprof start-up and gmon.out writing are neutralised: no
# gmon.out, no profil() timer, same output.  -pg and -pg -mfentry, gcc and
# clang.
# variants: one
for cc in gcc clang; do
	for fl in "-pg" "-pg -mfentry"; do
		name=g-$cc$(echo "$fl" | tr -d ' ')
		mkdir -p "$W/$name" && cd "$W/$name" || die "cd $name"
		# shellcheck disable=SC2086
		$cc -g -O2 $fl -I"$E2E" -o "$W/$name/basic" "$E2E/basic.c" >"$W/$name/build.log" 2>&1 ||
			die "build $name: $(head -3 "$W/$name/build.log")"
		guard ./basic >plain.out 2>plain.err
		section "$cc $fl untraced: gmon.out written: $([ -f gmon.out ] && echo yes || echo no)"
		rm -f gmon.out
		record "$name/d" ./basic
		want_rc "record $name/basic" $RC 0 "$W/$name/d.err"
		cmp -s plain.out "$W/$name/d.out" || fail "$name: traced output differs"
		section "$cc $fl traced: gmon.out written: $([ -f gmon.out ] && echo yes || echo no)"
		ct report "$name/d" --format=csv | csv_calls | add
		cd "$W" || die "cd $W"
	done
done
