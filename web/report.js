/* SPDX-License-Identifier: MIT */
/*
 * calltrace's HTML report (export --format=html): the page's own script.
 * The data is the JSON in <script id="ct-data"> (see builtin/export_html.c):
 *   fns    [name, calls, total_ns, self_ns, incl_sum_ns, "file:line",
 *          mostly_cost], the most total time first; a function's id is its
 *          index; mostly_cost: its recorded total is more than 5 times its
 *          corrected one (the time is mostly the tracer's: marked)
 *   tree   [parent, fn, calls, total_ns, self_ns, mostly_cost] (the same for
 *          the path), parents first; parent -1 for an outermost call; fn -1
 *          for "(other)", whose sixth element is the number of paths summed
 *   edges  [caller, callee, calls, time_ns, time_fn_ns]; caller -1 for an
 *          outermost call; time_ns counts the outermost activation of the
 *          edge (the callees table), time_fn_ns that of the callee (the
 *          callers table: it adds up to the callee's total); with export
 *          --callsite a sixth element, the call site's index in sites (-1:
 *          none): a pair has a row per call site
 *   sites  (export --callsite) the call sites, "main.c:12"
 *   timeline  each thread's calls in time: {start, end, min_ns, left,
 *          longest_left, max_calls, marks_left, threads: [{pid, tid, name,
 *          cmd (its process's command line), calls_all, calls: [[fn, depth,
 *          start_ns, dur_ns, time_ns]], marks:
 *          start and dur on the recorded clock (one axis for every
 *          thread), time the call's duration as the other views show it
 *          [[t_ns, text]]}]}
 *   limits what was left out to bound the page's size
 *   info   the recording
 * d3 and d3-flame-graph (globals d3 and flamegraph) are inlined before it.
 */
(function () {
	"use strict";

	var D = JSON.parse(document.getElementById("ct-data").textContent);
	var fns = D.fns, info = D.info, lim = D.limits;
	var total = lim.total_ns || 1;
	var FIRST_SECTIONS = 150; /* caller/callee sections made at load */
	var PAGE_ROWS = 300;      /* flat profile rows shown at first */

	function el(tag, attrs, kids) {
		var e = document.createElement(tag);
		if (attrs)
			for (var k in attrs) {
				if (k === "text")
					e.textContent = attrs[k];
				else if (k === "cls")
					e.className = attrs[k];
				else
					e.setAttribute(k, attrs[k]);
			}
		(kids || []).forEach(function (c) {
			if (c !== null && c !== undefined)
				e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
		});
		return e;
	}

	function fmtTime(ns) {
		if (ns < 1000) return ns + " ns";
		if (ns < 1e6) return (ns / 1e3).toFixed(3) + " us";
		if (ns < 1e9) return (ns / 1e6).toFixed(3) + " ms";
		return (ns / 1e9).toFixed(3) + " s";
	}
	function fmtPct(ns) { return (100 * ns / total).toFixed(2) + "%"; }
	function fmtInt(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
	function fnName(id) { return id < 0 ? "(outermost)" : fns[id][0]; }
	/* a function whose time is mostly the tracer's own: marked, so that
	 * nobody optimises the tracer's cost (doc/overhead.md) */
	var COST_TITLE = "mostly the tracer's own cost: recorded more than 5x the corrected " +
		"time, which is then mostly estimate";
	function costMark() { return el("span", {cls: "cost", title: COST_TITLE, text: " *"}); }
	function fnLink(id) {
		if (id < 0) return el("span", {cls: "root", text: "(outermost call)"});
		return el("a", {href: "#fn-" + id, cls: "fn", title: fns[id][5] || fns[id][0],
				text: fns[id][0]});
	}

	var app = document.getElementById("app");

	/* ---- header and navigation ------------------------------------- */
	app.appendChild(el("header", null, [
		el("h1", null, ["calltrace report: ", el("code", {text: info.command || "?"})]),
		el("nav", null, [
			el("a", {href: "#flame", text: "Flame graph"}), " · ",
			D.sampled ? el("a", {href: "#sflame", text: "Sampled"}) : "",
			D.sampled ? " · " : "",
			el("a", {href: "#timeline", text: "Timeline"}), " · ",
			el("a", {href: "#flat", text: "Flat profile"}), " · ",
			el("a", {href: "#callers", text: "Callers and callees"}), " · ",
			el("a", {href: "#info", text: "Recording"})])]));
	/* the sticky header's height, for what scrolls under it (a section
	 * reached by a link starts below it): it wraps on narrow windows */
	var header = app.lastChild;
	function headerHeight() {
		document.documentElement.style.setProperty("--ct-head", header.offsetHeight + "px");
	}
	headerHeight();
	window.addEventListener("resize", headerHeight);

	/* which times the report holds (doc/overhead.md) */
	app.appendChild(el("p", {id: "times", cls: "times", text: info.times === "recorded" ?
		"Times are as recorded (--raw): they include the tracer's own cost, which " +
		"calltrace report, graph and callers take out by default." :
		"Times are corrected for the tracer's own cost, as calltrace report, graph and " +
		"callers show them (export --raw: as recorded)."}));

	/* ---- flame graph ----------------------------------------------- */
	var flameSec = el("section", {id: "flame"});
	app.appendChild(flameSec);
	flameSec.appendChild(el("h2", {text: "Flame graph"}));
	flameSec.appendChild(el("p", {cls: "help", text:
		"Each box is a call path; its width is the path's total time (all threads, " +
		"all calls). Click a box to zoom into it, Reset to see everything again. " +
		"Search highlights matching functions."}));
	var search = el("input", {type: "search", id: "search",
				  placeholder: "search functions (substring)", size: "32"});
	var resetBtn = el("button", {type: "button", id: "reset", text: "Reset zoom"});
	var clearBtn = el("button", {type: "button", id: "clear", text: "Clear search"});
	var details = el("div", {id: "details", cls: "details"});
	var sel = el("div", {id: "selected", cls: "details"});
	flameSec.appendChild(el("div", {cls: "controls"}, [search, " ", resetBtn, " ", clearBtn]));
	var chartDiv = el("div", {id: "chart"});
	flameSec.appendChild(chartDiv);
	flameSec.appendChild(details);
	flameSec.appendChild(sel);
	if (lim.paths_folded > 0 || lim.paths_shown < lim.paths) {
		flameSec.appendChild(el("p", {cls: "note", text:
			"To keep the page small, the flame graph shows " + fmtInt(lim.paths_shown) +
			" of " + fmtInt(lim.paths) + " call paths: those with the most time, up to " +
			fmtInt(lim.max_paths) + (lim.min_fraction ? ", none under " +
			(100 * lim.min_fraction) + "% of the total time" : "") +
			", none deeper than " + lim.max_depth + " calls. The " +
			fmtInt(lim.paths_folded) + " others are summed into \"(other)\" boxes, " +
			"one under each parent."}));
	}

	if (lim.paths_capped)
		flameSec.appendChild(el("p", {cls: "note", text:
			"The trace has more distinct call paths than the " + fmtInt(lim.max_paths_held) +
			" calltrace holds in memory: the paths first seen after those are counted in " +
			"the \"(other)\" box of their parent path, with all they call."}));

	/* the tree: build the nested nodes without recursion */
	var rootNode = {name: "all", value: 0, calls: 0, self: 0, fn: -2, children: []};
	var made = new Array(D.tree.length);
	D.tree.forEach(function (r, i) {
		var n = {name: r[1] < 0 ? "(other)" : fns[r[1]][0], fn: r[1], calls: r[2],
			 value: r[3], self: r[4], paths: r[1] < 0 ? r[5] || 0 : 0,
			 cost: r[1] >= 0 && r[5] === true, children: []};
		made[i] = n;
		(r[0] < 0 ? rootNode : made[r[0]]).children.push(n);
	});
	rootNode.children.forEach(function (c) { rootNode.value += c.value; });

	var chart = null;
	var lastSearch = "";
	function drawFlame() {
		if (typeof flamegraph === "undefined" || typeof d3 === "undefined") {
			chartDiv.textContent = "(the flame graph library is missing)";
			return;
		}
		var width = Math.max(600, chartDiv.clientWidth || 960);
		/* the UMD build's global: the module (default export) */
		var make = typeof flamegraph === "function" ? flamegraph : flamegraph.default;
		chart = make()
			.width(width)
			.cellHeight(18)
			.minFrameSize(1)
			.transitionDuration(250)
			.selfValue(false)
			/* the height of what is shown: no blank area above a
			 * zoomed graph */
			.resetHeightOnZoom(true)
			.setDetailsElement(details)
			.setLabelHandler(function (d) {
				var x = d.data;
				var s = x.name + ": " + fmtTime(x.value) + " (" + fmtPct(x.value) +
					"), " + fmtInt(x.calls) + " calls, self " + fmtTime(x.self);
				if (x.fn === -1)
					s += " — " + x.paths + " call paths summed";
				if (x.cost)
					s += " — " + COST_TITLE;
				return s;
			})
			.setSearchMatch(function (d, term) {
				return !!term && d.data.name.toLowerCase().indexOf(term.toLowerCase()) >= 0;
			})
			.setSearchHandler(function (results, sum) {
				details.textContent = results.length ? "search: " + results.length +
					" boxes match, " + fmtTime(sum) + " (" + fmtPct(sum) + ")" :
					(lastSearch ? "search: nothing matches" : "");
			})
			.onClick(function (d) {
				sel.textContent = "";
				if (d && d.data && d.data.fn >= 0)
					sel.appendChild(el("span", null, ["zoomed into ",
						fnLink(d.data.fn), " — its callers and callees: follow the link"]));
			});
		d3.select(chartDiv).datum(rootNode).call(chart);
	}
	drawFlame();
	search.addEventListener("input", function () {
		lastSearch = search.value;
		if (!chart) return;
		if (search.value) chart.search(search.value);
		else { chart.clear(); details.textContent = ""; }
	});
	resetBtn.addEventListener("click", function () {
		if (chart) chart.resetZoom();
		sel.textContent = "";
	});
	clearBtn.addEventListener("click", function () {
		search.value = "";
		lastSearch = "";
		if (chart) chart.clear();
		details.textContent = "";
	});

	/* ---- sampled flame graph (record --sample) ------------------------ */
	/* the same call paths, each box as wide as the CPU time the samples
	 * charged to it (samples x period): no tracer's cost to take out */
	if (D.sampled) {
		var sSec = el("section", {id: "sflame"});
		app.appendChild(sSec);
		sSec.appendChild(el("h2", {text: "Sampled flame graph"}));
		sSec.appendChild(el("p", {cls: "help", text:
			"The recording was made with record --sample: each box is a call path, " +
			"its width the CPU time sampled in it (samples x period, " +
			fmtTime(D.sampled.total_ns) + " in all; the error of a box is about " +
			"1/sqrt(its samples)). Click a box to zoom, click the bottom one to go back."}));
		var sChartDiv = el("div", {id: "schart", cls: "chart"});
		var sDetails = el("div", {id: "sdetails", cls: "details"});
		sSec.appendChild(sChartDiv);
		sSec.appendChild(sDetails);
		var sRoot = {name: "all", value: 0, fn: -2, children: []};
		var sMade = new Array(D.tree.length);
		D.tree.forEach(function (r, i) {
			var v = r[6] || 0;
			var parent = r[0] < 0 ? sRoot : sMade[r[0]];
			if (!v || !parent)
				return; /* (its callees have no samples either) */
			var n = {name: r[1] < 0 ? "(other)" : fns[r[1]][0], fn: r[1], value: v,
				 children: []};
			sMade[i] = n;
			parent.children.push(n);
		});
		sRoot.children.forEach(function (c) { sRoot.value += c.value; });
		var sTotal = sRoot.value || 1;
		if (typeof flamegraph !== "undefined" && typeof d3 !== "undefined") {
			var sMake = typeof flamegraph === "function" ? flamegraph : flamegraph.default;
			var sChart = sMake()
				.width(Math.max(600, sChartDiv.clientWidth || 960))
				.cellHeight(18)
				.minFrameSize(1)
				.transitionDuration(250)
				.selfValue(false)
				.resetHeightOnZoom(true)
				.setDetailsElement(sDetails)
				.setLabelHandler(function (d) {
					var x = d.data;
					var self = x.value;
					(x.children || []).forEach(function (c) { self -= c.value; });
					return x.name + ": sampled " + fmtTime(x.value) + " (" +
						(100 * x.value / sTotal).toFixed(2) + "%), self " +
						fmtTime(self);
				});
			d3.select(sChartDiv).datum(sRoot).call(sChart);
		} else {
			sChartDiv.textContent = "(the flame graph library is missing)";
		}
	}

	/* ---- timeline: each thread's calls in time (a flame chart) ------- */
	var TL = D.timeline || {threads: [], start: 0, end: 0, left: 0};
	var tlSec = el("section", {id: "timeline"});
	app.appendChild(tlSec);
	tlSec.appendChild(el("h2", {text: "Timeline"}));
	tlSec.appendChild(el("p", {cls: "help", text:
		"Each thread's calls at their place in time, outermost on top, and its marks " +
		"(calltrace_mark) as red lines. Choose a thread or all of them. Scroll the wheel " +
		"over the chart to zoom, drag to pan, click a box to zoom to that call, Reset to " +
		"see everything again." + (info.times === "recorded" ? "" : " Boxes are placed " +
		"on the recorded clock, so that threads and processes stay in step; a box's " +
		"tooltip gives its corrected time, as the flat profile counts it.")}));
	var tlSelect = el("select", {id: "tl-thread"});
	tlSelect.appendChild(el("option", {value: "-1", text: "all threads"}));
	/* with several processes, a thread's label names its process's
	 * command too (a thread's name alone is often the program's) */
	var tlPids = {};
	TL.threads.forEach(function (t) { tlPids[t.pid] = true; });
	var tlManyProcs = Object.keys(tlPids).length > 1;
	function tlLabel(t) {
		return t.name + (tlManyProcs && t.cmd ? " · " + (t.cmd.length > 60 ?
			t.cmd.slice(0, 59) + "…" : t.cmd) : "");
	}
	TL.threads.forEach(function (t, i) {
		tlSelect.appendChild(el("option", {value: String(i),
			text: tlLabel(t) + " — " + fmtInt(t.calls_all) + " calls"}));
	});
	var tlReset = el("button", {type: "button", id: "tl-reset", text: "Reset zoom"});
	tlSec.appendChild(el("div", {cls: "controls"}, ["thread: ", tlSelect, " ", tlReset]));
	var tlDiv = el("div", {id: "tl-chart"});
	tlSec.appendChild(tlDiv);
	var tlDetails = el("div", {id: "tl-details", cls: "details"});
	tlSec.appendChild(tlDetails);
	if (TL.left > 0)
		tlSec.appendChild(el("p", {cls: "note", id: "tl-note", text:
			"To keep the page small, the timeline leaves out the " + fmtInt(TL.left) +
			" calls shorter than " + fmtTime(TL.min_ns) + " (about a pixel when zoomed in " +
			"40 times; the longest left out took " + fmtTime(TL.longest_left) + "): their " +
			"time is inside their caller's box."}));
	if (TL.threads.some(function (t) { return t.off && t.off.length; }))
		tlSec.appendChild(el("p", {cls: "note", id: "tl-offcpu", text:
			"Grey bands behind a thread's calls: the thread was off a CPU then (blocked, " +
			"sleeping or preempted; record --sched)."}));
	if (TL.marks_left > 0)
		tlSec.appendChild(el("p", {cls: "note", text: "The timeline shows the first marks only: " +
			fmtInt(TL.marks_left) + " more were left out."}));

	var TL_ROW = 17, TL_HEAD = 18, TL_MAX_BOXES = 4000;
	var tlState = null; /* the drawn chart: scales, zoom, lanes */
	function tlColor(name) {
		var h = 0;
		for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
		h = Math.abs(h);
		return "hsl(" + (10 + h % 40) + ",80%," + (55 + (h >> 6) % 15) + "%)";
	}
	function tlLanes() {
		var v = +tlSelect.value;
		var idx = v < 0 ? TL.threads.map(function (_, i) { return i; }) : [v];
		var y = 0;
		return idx.map(function (i) {
			var t = TL.threads[i], depth = 0;
			t.calls.forEach(function (c) { if (c[1] > depth) depth = c[1]; });
			var lane = {i: i, t: t, y: y, rows: t.calls.length ? depth + 1 : 0};
			y += TL_HEAD + lane.rows * TL_ROW + 6;
			return lane;
		});
	}
	function tlDraw() {
		var st = tlState, xz = st.xz, width = st.width;
		var boxes = [], marks = [], tiny = 0;
		st.lanes.forEach(function (lane) {
			lane.t.calls.forEach(function (c) {
				var x0 = xz(c[2]), x1 = xz(c[2] + c[3]);
				if (x1 < 0 || x0 > width) return;
				if (x1 - x0 < 1) { tiny++; return; }
				boxes.push({lane: lane, c: c, x0: Math.max(x0, -1), x1: Math.min(x1, width + 1)});
			});
			lane.t.marks.forEach(function (m) {
				var x = xz(m[0]);
				if (x >= 0 && x <= width) marks.push({lane: lane, m: m, x: x});
			});
		});
		/* record --sched: the spans each thread was off a CPU, shaded
		 * across its lane, behind its calls */
		var offs = [];
		st.lanes.forEach(function (lane) {
			(lane.t.off || []).forEach(function (o) {
				var x0 = xz(o[0]), x1 = xz(o[0] + o[1]);
				if (x1 < 0 || x0 > width || x1 - x0 < 1 || !lane.rows) return;
				offs.push({lane: lane, o: o, x0: Math.max(x0, -1), x1: Math.min(x1, width + 1)});
			});
		});
		var og = st.goff.selectAll("rect.offcpu").data(offs);
		og.exit().remove();
		og = og.enter().append("rect").attr("class", "offcpu").merge(og);
		og.attr("x", function (d) { return d.x0; })
			.attr("y", function (d) { return d.lane.y + TL_HEAD; })
			.attr("width", function (d) { return d.x1 - d.x0; })
			.attr("height", function (d) { return d.lane.rows * TL_ROW; })
			.attr("data-thread", function (d) { return d.lane.t.tid; })
			.attr("data-start", function (d) { return d.o[0]; })
			.attr("data-dur", function (d) { return d.o[1]; });
		var shown = boxes;
		if (boxes.length > TL_MAX_BOXES) {
			shown = boxes.slice().sort(function (a, b) { return (b.x1 - b.x0) - (a.x1 - a.x0); })
				.slice(0, TL_MAX_BOXES);
			tiny += boxes.length - TL_MAX_BOXES;
		}
		var g = st.g.selectAll("g.call").data(shown);
		g.exit().remove();
		var ge = g.enter().append("g").attr("class", "call");
		ge.append("rect");
		ge.append("text");
		ge.append("title");
		g = ge.merge(g);
		g.attr("transform", function (d) {
			return "translate(" + d.x0 + "," + (d.lane.y + TL_HEAD + d.c[1] * TL_ROW) + ")";
		})
			.attr("data-name", function (d) { return fns[d.c[0]][0]; })
			.attr("data-thread", function (d) { return d.lane.t.tid; })
			.attr("data-depth", function (d) { return d.c[1]; })
			.attr("data-start", function (d) { return d.c[2]; })
			.attr("data-dur", function (d) { return d.c[3]; });
		g.select("rect").attr("width", function (d) { return Math.max(1, d.x1 - d.x0); })
			.attr("height", TL_ROW - 1)
			.attr("fill", function (d) { return tlColor(fns[d.c[0]][0]); });
		g.select("text").attr("x", 3).attr("y", TL_ROW - 5)
			.text(function (d) {
				var w = d.x1 - d.x0, n = fns[d.c[0]][0];
				if (w < 24) return "";
				var fit = Math.floor((w - 6) / 7);
				return n.length <= fit ? n : n.slice(0, Math.max(fit - 1, 1)) + "…";
			});
		g.select("title").text(function (d) {
			var c = d.c, t = c.length > 4 ? c[4] : c[3];
			return fns[c[0]][0] + ": " + fmtTime(t) +
				(t !== c[3] ? " (recorded " + fmtTime(c[3]) + ")" : "") + " at " +
				fmtTime(c[2]) + " (" + tlLabel(d.lane.t) + ")";
		});
		var mk = st.g.selectAll("g.mark").data(marks);
		mk.exit().remove();
		var me = mk.enter().append("g").attr("class", "mark");
		me.append("line");
		me.append("title");
		mk = me.merge(mk);
		mk.attr("transform", function (d) { return "translate(" + d.x + "," + d.lane.y + ")"; })
			.attr("data-text", function (d) { return d.m[1]; })
			.attr("data-thread", function (d) { return d.lane.t.tid; });
		mk.select("line").attr("y1", 0).attr("y2", function (d) {
			return TL_HEAD + d.lane.rows * TL_ROW; });
		mk.select("title").text(function (d) { return "mark: " + d.m[1] + " at " + fmtTime(d.m[0]); });
		var dom = xz.domain();
		/* times since the start of the recording, as export -r takes them */
		tlDetails.textContent = "shown: " + fmtTime(Math.max(0, Math.round(dom[0]))) + " to " +
			fmtTime(Math.max(0, Math.round(dom[1]))) + " since the start of the recording (" +
			fmtTime(Math.max(0, Math.round(dom[1] - dom[0]))) + "); " + fmtInt(shown.length) +
			" boxes drawn" + (tiny ? ", " + fmtInt(tiny) + (tiny === 1 ? " call" : " calls") +
			" too narrow to draw at this zoom" : "");
	}
	function tlBuild() {
		tlDiv.textContent = "";
		if (typeof d3 === "undefined") { tlDiv.textContent = "(d3 is missing)"; return; }
		var width = Math.max(600, (tlDiv.clientWidth || 960) - 2);
		var lanes = tlLanes();
		var height = lanes.reduce(function (h, l) { return h + TL_HEAD + l.rows * TL_ROW + 6; }, 0);
		if (!lanes.length || TL.end <= TL.start) {
			tlDiv.textContent = "(no calls in the timeline)";
			tlState = null;
			return;
		}
		var x = d3.scaleLinear().domain([TL.start, TL.end]).range([0, width]);
		var svg = d3.select(tlDiv).append("svg").attr("width", width).attr("height", height);
		svg.append("rect").attr("class", "tl-bg").attr("width", width).attr("height", height);
		var heads = svg.selectAll("g.lane").data(lanes).enter().append("g").attr("class", "lane")
			.attr("data-thread", function (l) { return l.t.tid; })
			.attr("transform", function (l) { return "translate(0," + l.y + ")"; });
		heads.append("text").attr("x", 2).attr("y", TL_HEAD - 5).attr("class", "lane-name")
			.text(function (l) {
				return tlLabel(l.t) + (l.rows ? "" : " (no call long enough to draw)");
			});
		var goff = svg.append("g");
		var g = svg.append("g");
		var span = TL.end - TL.start;
		var zoom = d3.zoom().scaleExtent([1, Math.max(1, span / width * 20)])
			.extent([[0, 0], [width, height]])
			.translateExtent([[0, 0], [width, height]])
			.filter(function (ev) { return !ev.button && ev.type !== "dblclick"; })
			.on("zoom", function (ev) {
				tlState.xz = ev.transform.rescaleX(x);
				tlDraw();
			});
		tlState = {x: x, xz: x, width: width, lanes: lanes, g: g, goff: goff, svg: svg, zoom: zoom};
		svg.call(zoom);
		g.on("click", function (ev) {
			var d = d3.select(ev.target.closest("g.call")).datum();
			if (!d) return;
			tlZoomTo(d.c[2], d.c[2] + d.c[3]);
		});
		tlDraw();
	}
	/* show [a, b) across the chart's width */
	function tlZoomTo(a, b) {
		var st = tlState;
		if (!st || b <= a) return;
		var k = Math.min(st.zoom.scaleExtent()[1], st.width / (st.x(b) - st.x(a)));
		st.svg.call(st.zoom.transform, d3.zoomIdentity.scale(k).translate(-st.x(a), 0));
	}
	tlSelect.addEventListener("change", tlBuild);
	tlReset.addEventListener("click", function () {
		if (tlState) tlState.svg.call(tlState.zoom.transform, d3.zoomIdentity);
	});
	tlBuild();

	/* ---- flat profile ---------------------------------------------- */
	var flatSec = el("section", {id: "flat"});
	app.appendChild(flatSec);
	flatSec.appendChild(el("h2", {text: "Flat profile"}));
	flatSec.appendChild(el("p", {cls: "help", text:
		"Total: inclusive time, counted once per outermost activation (recursive calls " +
		"add nothing). Self: total minus the direct callees. Avg: mean inclusive time " +
		"of a call. %: total time of all threads. Click a column to sort."}));
	var anyCost = fns.some(function (f) { return f[6] === true; });
	if (lim.functions_shown < lim.functions)
		flatSec.appendChild(el("p", {cls: "note", text: "The " + fmtInt(lim.functions_shown) +
			" functions with the most time of " + fmtInt(lim.functions) + " are listed."}));
	var cols = [
		{key: "name", label: "Function", get: function (f) { return f[0]; }, num: false},
		{key: "calls", label: "Calls", get: function (f) { return f[1]; }, num: true},
		{key: "total", label: "Total", get: function (f) { return f[2]; }, num: true},
		{key: "self", label: "Self", get: function (f) { return f[3]; }, num: true},
		{key: "avg", label: "Avg", get: function (f) { return f[1] ? f[4] / f[1] : 0; }, num: true},
		{key: "pct", label: "%", get: function (f) { return f[2]; }, num: true}];
	var table = el("table", {id: "flat-table", cls: "profile"});
	var thead = el("thead"), hrow = el("tr");
	var tbody = el("tbody");
	table.appendChild(thead);
	thead.appendChild(hrow);
	table.appendChild(tbody);
	flatSec.appendChild(table);
	var moreBtn = el("button", {type: "button", id: "flat-more"});
	flatSec.appendChild(moreBtn);
	if (anyCost)
		flatSec.appendChild(el("p", {cls: "note", id: "cost-legend", text: "* " + COST_TITLE +
			": the tracer's cost is estimated (measured when recording) and taken out, so " +
			"little of what is left is known; see doc/overhead.md before optimising it."}));
	var sortCol = 2, sortDesc = true, shown = PAGE_ROWS;
	var order = fns.map(function (_, i) { return i; });
	cols.forEach(function (c, ci) {
		var th = el("th", {"data-key": c.key, cls: c.num ? "num sortable" : "sortable",
				   title: "sort by " + c.label, text: c.label});
		th.addEventListener("click", function () {
			if (sortCol === ci) sortDesc = !sortDesc;
			else { sortCol = ci; sortDesc = c.num; }
			renderFlat();
		});
		hrow.appendChild(th);
	});
	function renderFlat() {
		var c = cols[sortCol];
		order.sort(function (a, b) {
			var x = c.get(fns[a]), y = c.get(fns[b]);
			var r = c.num ? x - y : (x < y ? -1 : x > y ? 1 : 0);
			if (r === 0) r = a - b;
			else if (sortDesc) r = -r;
			return r;
		});
		Array.prototype.forEach.call(hrow.children, function (th, i) {
			th.classList.toggle("sorted", i === sortCol);
			th.setAttribute("aria-sort", i === sortCol ? (sortDesc ? "descending" : "ascending") : "none");
			th.textContent = cols[i].label + (i === sortCol ? (sortDesc ? " ▼" : " ▲") : "");
		});
		tbody.textContent = "";
		var n = Math.min(shown, order.length);
		var frag = document.createDocumentFragment();
		for (var k = 0; k < n; k++) {
			var id = order[k], f = fns[id];
			frag.appendChild(el("tr", {"data-fn": id, "data-cost": f[6] === true ? "1" : "0"}, [
				el("td", null, [fnLink(id), f[6] === true ? costMark() : null]),
				el("td", {cls: "num", text: fmtInt(f[1])}),
				el("td", {cls: "num", text: fmtTime(f[2])}),
				el("td", {cls: "num", text: fmtTime(f[3])}),
				el("td", {cls: "num", text: fmtTime(f[1] ? Math.round(f[4] / f[1]) : 0)}),
				el("td", {cls: "num", text: fmtPct(f[2])})]));
		}
		tbody.appendChild(frag);
		moreBtn.style.display = order.length > shown ? "" : "none";
		moreBtn.textContent = "show all " + fmtInt(order.length) + " functions";
	}
	moreBtn.addEventListener("click", function () { shown = order.length; renderFlat(); });
	renderFlat();

	/* ---- callers and callees --------------------------------------- */
	var callers = fns.map(function () { return []; });
	var callees = fns.map(function () { return []; });
	D.edges.forEach(function (e) {
		callees[e[0]] && callees[e[0]].push(e);
		callers[e[1]].push(e);
	});
	var byTime = function (a, b) { return b[3] - a[3] || b[2] - a[2]; };
	callers.forEach(function (l) { l.sort(function (a, b) { return b[4] - a[4] || b[2] - a[2]; }); });
	callees.forEach(function (l) { l.sort(byTime); });

	var ccSec = el("section", {id: "callers"});
	app.appendChild(ccSec);
	ccSec.appendChild(el("h2", {text: "Callers and callees"}));
	ccSec.appendChild(el("p", {cls: "help", text:
		"For each function: who called it and the time spent in it on their behalf, " +
		"and what it called with the time spent there (the outermost activation of " +
		"each pair counts). The most expensive callee is marked ★: follow it to drill down."}));
	if (lim.edges_shown < lim.edges)
		ccSec.appendChild(el("p", {cls: "note", text: "The " + fmtInt(lim.edges_shown) +
			" caller/callee pairs with the most time of " + fmtInt(lim.edges) + " are listed."}));
	var ccList = el("div", {id: "cc-list"});
	ccSec.appendChild(ccList);
	var sections = {};

	/* the callers table counts the time in the function once per outermost
	 * activation of the function (e[4]): a recursive call adds calls but
	 * no time, so the rows add up to its total; the callees table the
	 * time in each callee once per outermost activation of the pair */
	function edgeTable(cls, title, rows, whoIdx, parentTotal) {
		var ti = cls === "callers" ? 4 : 3;
		var t = el("table", {cls: "cc " + cls});
		t.appendChild(el("caption", {text: title + " (" + rows.length + ")"}));
		t.appendChild(el("tr", null, [el("th", {text: cls === "callers" ? "caller" : "callee"}),
			el("th", {cls: "num", text: "calls"}), el("th", {cls: "num", text: "time"}),
			el("th", {cls: "num", text: "% of this function"})]));
		if (!rows.length)
			t.appendChild(el("tr", null, [el("td", {colspan: "4", cls: "none", text: "none"})]));
		rows.forEach(function (e, i) {
			var who = e[whoIdx];
			var tr = el("tr", {"data-fn": who}, [
				el("td", null, [fnLink(who), e.length > 5 && e[5] >= 0 ?
					el("span", {cls: "site", title: "called from", text: " [" + D.sites[e[5]] + "]"}) : null,
					cls === "callees" && i === 0 && e[3] > 0 ?
					el("span", {cls: "star", title: "the most expensive callee", text: " ★"}) : null]),
				el("td", {cls: "num", text: fmtInt(e[2])}),
				el("td", {cls: "num", text: fmtTime(e[ti])}),
				el("td", {cls: "num", text: parentTotal ? (100 * e[ti] / parentTotal).toFixed(1) + "%" : "-"})]);
			t.appendChild(tr);
		});
		return t;
	}

	function makeSection(id) {
		if (sections[id]) return sections[id];
		var f = fns[id];
		var s = el("section", {id: "fn-" + id, cls: "fn-section"}, [
			el("h3", null, [el("a", {href: "#fn-" + id, cls: "self", text: f[0]}),
				f[6] === true ? costMark() : null]),
			el("p", {cls: "stats", text: fmtInt(f[1]) + (f[1] === 1 ? " call" : " calls") + ", total " + fmtTime(f[2]) +
				" (" + fmtPct(f[2]) + "), self " + fmtTime(f[3]) +
				(f[5] ? ", " + f[5] : "")}),
			el("div", {cls: "cc-pair"}, [
				edgeTable("callers", "Called by", callers[id], 0, f[2]),
				edgeTable("callees", "Calls", callees[id], 1, f[2])])]);
		/* in the order of the flat profile's default (total time) */
		var next = null;
		for (var k in sections)
			if (+k > id && (!next || +k < +next.getAttribute("data-id"))) next = sections[k];
		s.setAttribute("data-id", id);
		ccList.insertBefore(s, next);
		sections[id] = s;
		return s;
	}
	for (var i = 0; i < fns.length && i < FIRST_SECTIONS; i++)
		makeSection(i);
	if (fns.length > FIRST_SECTIONS)
		ccSec.appendChild(el("p", {cls: "note", text: "Sections of the " +
			fmtInt(fns.length - FIRST_SECTIONS) + " functions with less time are made " +
			"when a link to them is followed."}));

	function go() {
		var m = /^#fn-(\d+)$/.exec(location.hash);
		if (!m || +m[1] >= fns.length) return;
		var s = makeSection(+m[1]);
		var prev = document.querySelector(".fn-section.current");
		if (prev) prev.classList.remove("current");
		s.classList.add("current");
		s.scrollIntoView();
	}
	window.addEventListener("hashchange", go);

	/* ---- the recording --------------------------------------------- */
	var infoSec = el("section", {id: "info"});
	app.appendChild(infoSec);
	infoSec.appendChild(el("h2", {text: "Recording"}));
	var rows = [
		["command", info.command],
		["start time", info.start_time || "(unknown)"],
		["duration", info.duration_ns ? fmtTime(info.duration_ns) : "(unknown)"],
		["exit status", info.exit_status || "(unknown)"],
		["complete", info.complete ? "yes" : "no (calltrace record did not finish)"],
		["clock", info.clock + ", " + (info.clock_hz / 1e6).toFixed(3) + " MHz"],
		["processes", info.pids.map(function (p) {
			return p.pid + " " + p.exe + " (" + p.threads + " thread" +
				(p.threads === 1 ? "" : "s") + ")";
		}).join("; ")],
		["threads", info.threads + (info.threads_shown !== info.threads ?
			" (" + info.threads_shown + " exported)" : "")],
		["thread names", (info.tlist || []).slice(0, 64).map(function (t) {
			return t.tid + " " + (t.name || "(the process's name)");
		}).join(", ") + ((info.tlist || []).length > 64 ? ", ..." : "")],
		["events", info.events ? fmtInt(info.events) : "(not recorded)"],
		["event streams", fmtInt(info.event_bytes) + " bytes"],
		["lost / unmatched", info.lost + " / " + info.unmatched],
		["time in the report", fmtTime(lim.total_ns) + " (all threads)"],
		["functions", fmtInt(lim.functions)],
		["call paths", fmtInt(lim.paths)],
		["exported with", info.export]];
	var itab = el("table", {cls: "info"});
	rows.forEach(function (r) {
		itab.appendChild(el("tr", null, [el("th", {text: r[0]}), el("td", {text: String(r[1])})]));
	});
	infoSec.appendChild(itab);
	infoSec.appendChild(el("p", {cls: "help", text: "Made by calltrace with d3 (ISC licence) " +
		"and d3-flame-graph (Apache License 2.0); their licence texts are in a comment " +
		"at the top of this file."}));

	if (location.hash) go();
	window.ctReport = {chart: chart, data: D, timeline: {zoomTo: tlZoomTo,
		state: function () { return tlState; }}};
})();
