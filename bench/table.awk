# table.awk: "dotted.key<TAB>value" lines -> the benchmark's tables on stdout.
# Used by bench/run.sh.
function has(k) { return (k in v) && v[k] != "" }
function num(k) { return has(k) && v[k] ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ }
function ms(k) { return num(k) ? sprintf("%.1f", v[k] / 1e6) : "-" }
function f(k, fmt) { return num(k) ? sprintf(fmt, v[k]) : "-" }
function row(label, a, b, c, d, e, g) {
	printf "  %-28s %12s %12s %12s %12s %12s %12s\n", label, a, b, c, d, e, g
}
function row4(label, a, b, c, d) {
	printf "  %-28s %12s %12s %12s %12s\n", label, a, b, c, d
}
function timecell(w, m) {
	if (!has(w "." m ".status")) return "n/a"
	if (v[w "." m ".status"] != "0") return "FAIL(" v[w "." m ".status"] ")"
	return ms(w "." m ".time_ns")
}
function acell(k) {
	if (!has(k ".status")) return "n/a"
	if (v[k ".status"] != "0") return "FAIL(" v[k ".status"] ")"
	return ms(k ".time_ns")
}
function workload(w,    a) {
	if (has(w ".skipped")) {
		printf "\n== %s: skipped: %s\n", w, v[w ".skipped"]
		return
	}
	if (!has(w ".desc")) return
	printf "\n== %s: %s\n", w, v[w ".desc"]
	printf "   traced calls: %s (calltrace counted %s; uftrace counted %s, and %s in the -pg build)\n",
		f(w ".calls", "%d"), f(w ".ct.calls", "%d"), f(w ".uf.calls", "%d"), f(w ".ufpg.calls", "%d")
	row("", "uninstr.", "-finstr.", "calltrace", "uftrace", "-pg build", "uftrace")
	row("", "untraced", "untraced", "record", "record", "untraced", "record -pg")
	row("wall ms, best of " v["meta.runs"], timecell(w, "base"), timecell(w, "fi"), timecell(w, "ct"),
		timecell(w, "uf"), timecell(w, "pg"), timecell(w, "ufpg"))
	row("cpu ms (user+sys), best", ms(w ".base.cpu_ns"), ms(w ".fi.cpu_ns"), ms(w ".ct.cpu_ns"),
		ms(w ".uf.cpu_ns"), ms(w ".pg.cpu_ns"), ms(w ".ufpg.cpu_ns"))
	row("slowdown vs uninstrumented", f(w ".base.slowdown", "%.2fx"), f(w ".fi.slowdown", "%.2fx"),
		f(w ".ct.slowdown", "%.2fx"), f(w ".uf.slowdown", "%.2fx"), f(w ".pg.slowdown", "%.2fx"),
		f(w ".ufpg.slowdown", "%.2fx"))
	row("overhead ns per traced call", "", "(baseline)", f(w ".ct.ns_per_call", "%.1f"),
		f(w ".uf.ns_per_call", "%.1f"), "(baseline)", f(w ".ufpg.ns_per_call", "%.1f"))
	row("  same, from cpu time", "", "", f(w ".ct.cpu_ns_per_call", "%.1f"),
		f(w ".uf.cpu_ns_per_call", "%.1f"), "", f(w ".ufpg.cpu_ns_per_call", "%.1f"))
	row("bytes on disk per event", "", "", f(w ".ct.bytes_per_event", "%.2f"),
		f(w ".uf.bytes_per_event", "%.2f"), "", f(w ".ufpg.bytes_per_event", "%.2f"))
	row("MB of event data", "", "", f(w ".ct.bytes", "%.1f") == "-" ? "-" : sprintf("%.1f", v[w ".ct.bytes"] / 1e6),
		num(w ".uf.bytes") ? sprintf("%.1f", v[w ".uf.bytes"] / 1e6) : "-", "",
		num(w ".ufpg.bytes") ? sprintf("%.1f", v[w ".ufpg.bytes"] / 1e6) : "-")
	printf "\n"
	printf "  replay and report of a recording of %s, made by each tool\n", v[w ".an_desc"]
	row4("", "calltrace", "calltrace", "uftrace", "uftrace")
	row4("", "replay", "report", "replay", "report")
	row4("events", f(w ".ct_replay.events", "%d"), f(w ".ct_report.events", "%d"),
		f(w ".uf_replay.events", "%d"), f(w ".uf_report.events", "%d"))
	row4("wall ms, best of " v["meta.aruns"], acell(w ".ct_replay"), acell(w ".ct_report"),
		acell(w ".uf_replay"), acell(w ".uf_report"))
	row4("cpu ms (user+sys), best", ms(w ".ct_replay.cpu_ns"), ms(w ".ct_report.cpu_ns"),
		ms(w ".uf_replay.cpu_ns"), ms(w ".uf_report.cpu_ns"))
	row4("million events per second", f(w ".ct_replay.mevents_per_s", "%.2f"),
		f(w ".ct_report.mevents_per_s", "%.2f"), f(w ".uf_replay.mevents_per_s", "%.2f"),
		f(w ".uf_report.mevents_per_s", "%.2f"))
	row4("peak RSS, MiB", mib(w ".ct_replay.rss_kb"), mib(w ".ct_report.rss_kb"),
		mib(w ".uf_replay.rss_kb"), mib(w ".uf_report.rss_kb"))
}
function mib(k) { return num(k) ? sprintf("%.1f", v[k] / 1024) : (has(k) ? v[k] : "-") }
{ v[$1] = $2 }
END {
	printf "calltrace benchmark, %s\n", v["meta.date"]
	printf "  machine:   %s CPUs, %s, %s\n", v["meta.nproc"], v["meta.cpu"], v["meta.kernel"]
	printf "  gcc:       %s\n", v["meta.gcc"]
	printf "  uftrace:   %s\n", v["meta.uftrace"]
	printf "  lua:       %s\n", has("meta.lua") ? v["meta.lua"] : "-"
	printf "  calltrace: %s%s\n", v["meta.calltrace"],
		v["meta.calltrace_status"] != "ok" ? " -- not measured: " v["meta.calltrace_status"] : ""
	split(v["meta.load_start"], ld, " ")
	if (ld[1] + 0 > v["meta.nproc"] / 2)
		printf "  WARNING: load average %s at the start on %s CPUs: other work competes, figures are inflated\n",
			ld[1], v["meta.nproc"]
	printf "\n== micro: reading the clock (%s back-to-back reads)\n", v["micro.reads"]
	printf "  rdtsc %s ns, rdtscp %s ns, clock_gettime(MONOTONIC) %s ns; TSC %.3f GHz\n",
		v["micro.rdtsc_ns"], v["micro.rdtscp_ns"], v["micro.clock_gettime_ns"], v["micro.tsc_hz"] / 1e9
	printf "  floor of a traced call (two rdtsc): %.1f ns\n", 2 * v["micro.rdtsc_ns"]
	workload("fib")
	workload("lua")
	if (has("flight.fib.calls")) {
		printf "\n== flight recorder: record and record --flight (1M per thread), -finstrument-functions, run in turn (bench/flight.sh)\n"
		printf "   fib: %s calls; lua: %s calls; median of %s rounds (best in brackets); load %s -> %s\n",
			f("flight.fib.calls", "%d"), f("flight.lua.calls", "%d"), v["meta.runs"],
			v["flight.load.start"], v["flight.load.end"]
		printf "   ns per call: CPU (program + record) or wall, less the untraced build's and each command's own on a run of no calls\n"
		row4("", "fib record", "fib --flight", "lua record", "lua --flight")
		row4("ns per traced call (cpu)", f("flight.fib.ct.cpu_ns_per_call", "%.1f"),
			f("flight.fib.ctfl.cpu_ns_per_call", "%.1f"), f("flight.lua.ct.cpu_ns_per_call", "%.1f"),
			f("flight.lua.ctfl.cpu_ns_per_call", "%.1f"))
		row4("  (best)", f("flight.fib.ct.cpu_ns_per_call_min", "(%.1f)"),
			f("flight.fib.ctfl.cpu_ns_per_call_min", "(%.1f)"), f("flight.lua.ct.cpu_ns_per_call_min", "(%.1f)"),
			f("flight.lua.ctfl.cpu_ns_per_call_min", "(%.1f)"))
		row4("ns per traced call (wall)", f("flight.fib.ct.wall_ns_per_call", "%.1f"),
			f("flight.fib.ctfl.wall_ns_per_call", "%.1f"), f("flight.lua.ct.wall_ns_per_call", "%.1f"),
			f("flight.lua.ctfl.wall_ns_per_call", "%.1f"))
		row4("target (issue 18), cpu", "", "<= 17", "", "<= 16")
		printf "  the floor, two rdtsc (bench/tsc.c, same run): %s ns\n", f("flight.tsc.floor_ns", "%.1f")
		row4("bytes written by its end", f("fib.ct.bytes_during_run", "%d"),
			f("fib.ctfl.bytes_during_run", "%d"), "", "")
		row4("bytes of the recording", f("fib.ct.bytes", "%d"), f("fib.ctfl.bytes", "%d"), "", "")
	}
	if (has("callsite.fib.calls")) {
		printf "\n== call sites: record and record --callsite, fib(N) %s calls, run in turn (bench/callsite.sh)\n",
			f("callsite.fib.calls", "%d")
		row4("", "fi record", "fi --callsite", "fentry record", "fentry --callsite")
		row4("ns per traced call (cpu)", f("callsite.fi.ct.cpu_ns_per_call", "%.1f"),
			f("callsite.fi.cs.cpu_ns_per_call", "%.1f"), f("callsite.fentry.ct.cpu_ns_per_call", "%.1f"),
			f("callsite.fentry.cs.cpu_ns_per_call", "%.1f"))
		row4("--callsite adds (cpu)", "", f("callsite.fi.cs_minus_ct_cpu_ns", "%.1f"), "",
			f("callsite.fentry.cs_minus_ct_cpu_ns", "%.1f"))
		row4("  of which the hooks' (--flight)", "", f("callsite.fi.flight_cs_minus_ct_cpu_ns", "%.1f"), "",
			f("callsite.fentry.flight_cs_minus_ct_cpu_ns", "%.1f"))
		row4("target (issue 16)", "", "<= 2", "", "<= 2")
		row4("bytes per event", f("callsite.fib.bytes_per_event", "%.2f"),
			f("callsite.fib.cs_bytes_per_event", "%.2f"), "", "")
		row4("  the Lua workload", f("callsite.lua.bytes_per_event", "%.2f"),
			f("callsite.lua.cs_bytes_per_event", "%.2f"), "", "")
	}
	printf "\n== memory: peak RSS of the analysis (MiB) as the recording grows\n"
	row4("", v["mem.small.desc"], v["mem.mid.desc"], v["mem.big.desc"], "")
	row4("events", f("mem.small.events", "%d"), f("mem.mid.events", "%d"), f("mem.big.events", "%d"), "")
	split("ct_replay ct_report uf_replay uf_report", an, " ")
	split("calltrace replay|calltrace report|uftrace replay|uftrace report", lab, "|")
	for (i = 1; i <= 4; i++)
		row4(lab[i], mib("mem.small." an[i] ".rss_kb"), mib("mem.mid." an[i] ".rss_kb"),
			mib("mem.big." an[i] ".rss_kb"), "")
	if (has("frontends.fentry.ns_per_call")) {
		printf "\n== front ends: fib(%s), gcc -O2, ns per traced call vs the plain build (bench/frontends.sh)\n",
			v["frontends.fib_n"]
		row4("", "-finstr.", "-pg", "-pg -mfentry", "patchable=5")
		row4("calls", f("frontends.fi.calls", "%d"), f("frontends.pg.calls", "%d"),
			f("frontends.fentry.calls", "%d"), f("frontends.patch.calls", "%d"))
		row4("ns per call (wall)", f("frontends.fi.ns_per_call", "%.1f"), f("frontends.pg.ns_per_call", "%.1f"),
			f("frontends.fentry.ns_per_call", "%.1f"), f("frontends.patch.ns_per_call", "%.1f"))
		row4("ns per call (cpu)", f("frontends.fi.cpu_ns_per_call", "%.1f"),
			f("frontends.pg.cpu_ns_per_call", "%.1f"), f("frontends.fentry.cpu_ns_per_call", "%.1f"),
			f("frontends.patch.cpu_ns_per_call", "%.1f"))
		printf "  patchable build untraced / plain (min, median): fib, same alignment %s, %s; default alignment %s, %s; lua %s, %s\n",
			f("frontends.patch.untraced_vs_plain_min", "%.3f"), f("frontends.patch.untraced_vs_plain_median", "%.3f"),
			f("frontends.patch.untraced_vs_plain_default_min", "%.3f"),
			f("frontends.patch.untraced_vs_plain_default_median", "%.3f"),
			f("frontends.patch.lua_untraced_vs_plain_min", "%.3f"),
			f("frontends.patch.lua_untraced_vs_plain_median", "%.3f")
	}
	if (has("args.args_ns_per_call")) {
		printf "\n== argument capture: pair(a, b) %s times, -pg -mfentry (bench/args.sh)\n", f("args.calls", "%d")
		printf "  ns per call: no arguments %s, 2 arguments + return value %s (capture adds %s; runtime/args.c alone %s); %s bytes per call\n",
			f("args.fentry_ns_per_call", "%.1f"), f("args.args_ns_per_call", "%.1f"),
			f("args.capture_ns_per_call", "%.1f"), f("args.capture_alone_ns_per_call", "%.1f"),
			f("args.bytes_per_call", "%.1f")
	}
	if (has("libcall.strlen.ns_per_call")) {
		printf "\n== library calls: -pg -mfentry loops, ns per call (bench/libcall.sh; doc/libcall.md)\n"
		row4("", "strlen", "memcpy", "own function", "")
		row4("ns per call (wall)", f("libcall.strlen.ns_per_call", "%.1f"), f("libcall.memcpy.ns_per_call", "%.1f"),
			f("libcall.own.ns_per_call", "%.1f"), "")
		row4("ns per call (cpu)", f("libcall.strlen.cpu_ns_per_call", "%.1f"),
			f("libcall.memcpy.cpu_ns_per_call", "%.1f"), f("libcall.own.cpu_ns_per_call", "%.1f"), "")
		if (has("libcall.lua.libcall_slowdown"))
			printf "  Lua %s: library calls on %s, --no-libcall %s, uftrace (default: with library calls) %s; %s library calls\n",
				f("libcall.lua.plain_ms", "%.0f ms"), f("libcall.lua.libcall_slowdown", "%.2fx"),
				f("libcall.lua.nolibcall_slowdown", "%.2fx"), f("libcall.lua.uftrace_slowdown", "%.2fx"),
				f("libcall.lua.libcalls", "%d")
	}
	if (has("count.count.fi.ns_per_call")) {
		printf "\n== counting mode: fib(%s), CPU ns per call, fib's own work included (bench/count.sh)\n",
			v["count.fib_n"]
		row4("", "-finstr.", "-pg", "-pg -mfentry", "patchable=5")
		row4("calls", f("count.fi.calls", "%d"), f("count.pg.calls", "%d"), f("count.fentry.calls", "%d"),
			f("count.patch.calls", "%d"))
		row4("record --count", f("count.count.fi.ns_per_call", "%.2f"), f("count.count.pg.ns_per_call", "%.2f"),
			f("count.count.fentry.ns_per_call", "%.2f"), f("count.count.patch.ns_per_call", "%.2f"))
		row4("  over the plain build", f("count.count.fi.over_plain_ns", "%.2f"),
			f("count.count.pg.over_plain_ns", "%.2f"), f("count.count.fentry.over_plain_ns", "%.2f"),
			f("count.count.patch.over_plain_ns", "%.2f"))
		row4("full recording", f("count.full.fi.ns_per_call", "%.2f"), f("count.full.pg.ns_per_call", "%.2f"),
			f("count.full.fentry.ns_per_call", "%.2f"), f("count.full.patch.ns_per_call", "%.2f"))
		printf "  gprof (the -pg build untraced: glibc's mcount counting) %s ns per call (%s over the plain build, %s ms)\n",
			f("count.gprof.ns_per_call", "%.2f"), f("count.gprof.over_plain_ns", "%.2f"),
			f("count.plain.ms", "%.2f")
		if (has("count.lua.count.fi.ns_per_call")) {
			printf "  lua (script.lua, %s / %s calls): record --count %s ns per call -finstr. (%s over plain, %s over glibc's empty hooks), %s -pg (%s over plain); gprof %s (%s over plain); full recording %s -finstr.\n",
				f("count.lua.fi.calls", "%d"), f("count.lua.pg.calls", "%d"),
				f("count.lua.count.fi.ns_per_call", "%.2f"), f("count.lua.count.fi.over_plain_ns", "%.2f"),
				f("count.lua.count.fi.over_hooks_ns", "%.2f"), f("count.lua.count.pg.ns_per_call", "%.2f"),
				f("count.lua.count.pg.over_plain_ns", "%.2f"), f("count.lua.gprof.ns_per_call", "%.2f"),
				f("count.lua.gprof.over_plain_ns", "%.2f"), f("count.lua.full.fi.ns_per_call", "%.2f")
		}
	}
	if (has("filters.fentry.excluded_ns_per_call")) {
		printf "\n== record-time filters: fib(%s), every fib call left out (--hide '^fib$'), CPU time (bench/filters.sh)\n",
			v["filters.fib_n"]
		row4("", "-finstr.", "-pg", "-pg -mfentry", "patchable=5")
		row4("ns per left-out call vs plain", f("filters.fi.excluded_ns_per_call", "%.2f"),
			f("filters.pg.excluded_ns_per_call", "%.2f"), f("filters.fentry.excluded_ns_per_call", "%.2f"),
			f("filters.patch.excluded_ns_per_call", "%.2f"))
		row4("  vs the same build untraced", f("filters.fi.excluded_ns_per_call_own", "%.2f"), "-", "-",
			f("filters.patch.excluded_ns_per_call_own", "%.2f"))
		row4("run time / plain", f("filters.fi.excluded_vs_plain", "%.3f"), f("filters.pg.excluded_vs_plain", "%.3f"),
			f("filters.fentry.excluded_vs_plain", "%.3f"), f("filters.patch.excluded_vs_plain", "%.3f"))
		row4("full recording, ns per call", f("filters.fi.full_ns_per_call", "%.1f"),
			f("filters.pg.full_ns_per_call", "%.1f"), f("filters.fentry.full_ns_per_call", "%.1f"),
			f("filters.patch.full_ns_per_call", "%.1f"))
		row4("record -t 1us, ns per call", f("filters.fi.t1us_ns_per_call", "%.1f"),
			f("filters.pg.t1us_ns_per_call", "%.1f"), f("filters.fentry.t1us_ns_per_call", "%.1f"),
			f("filters.patch.t1us_ns_per_call", "%.1f"))
		if (has("filters.lua.t1us_s")) {
			printf "  lua, full recording and record -t 1us run in turn, median of %s rounds (best), load %s:\n",
				v["meta.runs"], v["filters.lua.load"]
			printf "  %-28s %12s %12s %12s\n", "", "full", "-t 1us", "-t / full"
			printf "  %-28s %12s %12s %12s\n", "wall s", f("filters.lua.full_s", "%.3f"),
				f("filters.lua.t1us_s", "%.3f"), f("filters.lua.t1us_vs_full_wall", "%.3f")
			printf "  %-28s %12s %12s\n", "  (best)", f("filters.lua.full_min_s", "(%.3f)"),
				f("filters.lua.t1us_min_s", "(%.3f)")
			printf "  %-28s %12s %12s %12s\n", "cpu s (program + record)", f("filters.lua.full_cpu_s", "%.3f"),
				f("filters.lua.t1us_cpu_s", "%.3f"), f("filters.lua.t1us_vs_full_cpu", "%.3f")
			printf "  %-28s %12s %12s %12s\n", "bytes", f("filters.lua.full_bytes", "%d"),
				f("filters.lua.t1us_bytes", "%d"), f("filters.lua.bytes_ratio", "1/%.0f")
			printf "  target (issue 12): -t / full at most 1 in wall and cpu time, bytes at least 100 x fewer\n"
		}
	}
	if (has("leveldb.full.events")) {
		printf "\n== record-time filters on leveldb db_bench (fillseq,readrandom; -finstrument-functions; bench/leveldb.sh)\n"
		row4("", "events", "bytes", "seconds", "views' filter keeps")
		row4("full recording", f("leveldb.full.events", "%d"), f("leveldb.full.bytes", "%d"),
			f("leveldb.full.s", "%.2f"), "")
		row4("-N 'std::|leveldb::Slice::'", f("leveldb.notrace.events", "%d"), f("leveldb.notrace.bytes", "%d"),
			f("leveldb.notrace.s", "%.2f"), f("leveldb.notrace.expected_events", "%d"))
		row4("--hide (same regex)", f("leveldb.hide.events", "%d"), f("leveldb.hide.bytes", "%d"),
			f("leveldb.hide.s", "%.2f"), f("leveldb.hide.expected_events", "%d"))
	}
	if (has("sqlite.skipped")) {
		printf "\n== record -a on sqlite3's shell: skipped: %s\n", v["sqlite.skipped"]
	} else if (has("sqlite.record_a_ns")) {
		printf "\n== record -a on sqlite3's shell loading %s rows, -g -O2 -pg -mfentry (bench/sqlite.sh)\n", f("sqlite.rows", "%d")
		printf "  %-28s %12s %12s\n", "", "wall ms", "cpu ms"
		printf "  %-28s %12s %12s\n", "untraced", ms("sqlite.untraced_ns"), ms("sqlite.untraced_cpu_ns")
		printf "  %-28s %12s %12s\n", "calltrace record", ms("sqlite.record_ns"), ms("sqlite.record_cpu_ns")
		printf "  %-28s %12s %12s\n", "calltrace record -a", ms("sqlite.record_a_ns"), ms("sqlite.record_a_cpu_ns")
		printf "  %-28s %12s %12s\n", "uftrace record", ms("sqlite.uftrace_ns"), ms("sqlite.uftrace_cpu_ns")
		printf "  %-28s %12s %12s\n", "uftrace record -a", ms("sqlite.uftrace_a_ns"), ms("sqlite.uftrace_a_cpu_ns")
		printf "  record -a / record: %sx (cpu %sx); uftrace -a / calltrace -a: %sx (cpu %sx); %s bytes per event, %s waits\n",
			f("sqlite.a_over_plain", "%.2f"), f("sqlite.a_over_plain_cpu", "%.2f"),
			f("sqlite.uftrace_a_over_a", "%.2f"), f("sqlite.uftrace_a_over_a_cpu", "%.2f"),
			f("sqlite.bytes_per_event", "%.2f"), f("sqlite.waits", "%d")
	}
	if (has("reader.events")) {
		printf "\n== reading library: fib(%s), %s events, M events/s, whole process, best (bench/reader.sh; doc/reader.md)\n",
			v["reader.fib_n"], v["reader.events"]
		row4("", "report", "C API", "C merged", "C one by one")
		row4("M events/s", f("reader.report.mev_s", "%.1f"), f("reader.capi.mev_s", "%.1f"),
			f("reader.capi_merged.mev_s", "%.1f"), f("reader.capi_next.mev_s", "%.1f"))
		printf "  C API / report %s; with corrected times %s M/s; Python records() %s, events() %s, pairs.py %s M/s\n",
			f("reader.capi.vs_report", "%.2f"), f("reader.capi_corrected.mev_s", "%.1f"),
			f("reader.python.mev_s", "%.2f"), f("reader.python_events.mev_s", "%.2f"),
			f("reader.python_pairs.mev_s", "%.2f")
	}
	if (has("diff.events0")) {
		printf "\n== report --diff: fib(%s) -O0 (%s events) against -O2 (%s events), whole process, best (bench/diff.sh)\n",
			v["diff.fib_n"], v["diff.events0"], v["diff.events1"]
		printf "  report on one %s M events/s; report --diff on both %s M events/s; --diff / report %s\n",
			f("diff.report.mev_s", "%.1f"), f("diff.diff.mev_s", "%.1f"), f("diff.diff.vs_report", "%.2f")
	}
	printf "  load average: %s at the start, %s at the end (%s CPUs)\n", v["meta.load_start"],
		v["meta.load_end"], v["meta.nproc"]
	printf "\n(bench took %s s)\n", v["meta.seconds"]
}
