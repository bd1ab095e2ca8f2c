// SPDX-License-Identifier: MIT
// The browser test of "calltrace export --format=html": opens the report in
// Debian's headless Chromium, driven by playwright-core (web/node_modules),
// and checks what a person would do with it.
//
//   node tests/browser/html_report.js REPORT.html SCREENSHOT.png [RAW.html [FORK.html]]
//
// It expects a report of tests/e2e/html.c: main > run > {parse, compute},
// compute > {heavy (most time), cheap (most calls)}, then a mark
// "computed", then recurse > recurse > recurse > recurse; a thread
// "worker" > tick x5.  RAW.html: the same recording exported with --raw
// (the page must say its times are as recorded).  FORK.html: a report of
// "html fork" (two processes: each timeline lane names its command).  Prints one line per
// check ("ok ..." or "FAIL ...") and exits 1 if any failed.
"use strict";

const fs = require("fs");
const path = require("path");

const TOP = path.resolve(__dirname, "../..");
let chromium;
try {
	chromium = require(path.join(TOP, "web/node_modules/playwright-core")).chromium;
} catch (e) {
	console.log("FAIL playwright-core is missing (sh tools/install-deps.sh runs npm ci in web/)");
	process.exit(1);
}
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

const [report, shot, rawReport, forkReport] = process.argv.slice(2);
if (!report || !shot) {
	console.error("usage: node html_report.js REPORT.html SCREENSHOT.png");
	process.exit(2);
}

let failed = 0;
function check(ok, what, detail) {
	console.log((ok ? "ok   " : "FAIL ") + what + (ok || detail === undefined ? "" : ": " + detail));
	if (!ok) failed++;
	return ok;
}

// ---- the file itself: nothing loaded from elsewhere -------------------
const html = fs.readFileSync(report, "utf8");
const external = [];
// attributes that load something, CSS url() and @import, <link>, <iframe>...
const patterns = [
	/\b(?:src|href|srcset|action|poster|data)\s*=\s*["']?\s*(?:https?:)?\/\/[^"'\s>]*/gi,
	/url\(\s*["']?\s*(?:https?:)?\/\/[^)]*\)/gi,
	/@import\s+[^;]*/gi,
	/<link\b[^>]*>/gi,
	/<(?:iframe|embed|object)\b[^>]*>/gi,
	/<script\b[^>]*\bsrc\s*=/gi,
];
for (const re of patterns) {
	const m = html.match(re);
	if (m) external.push(...m.slice(0, 3));
}
check(external.length === 0, "the file references no external resource", external.join(" | "));
check(/d3-flame-graph/.test(html) && /Apache License/.test(html) && /ISC/.test(html),
      "the file carries the libraries' licence notices");
check(!/<\/script/i.test(html.slice(html.indexOf('id="ct-data">') + 13,
				   html.indexOf("</script>", html.indexOf('id="ct-data">')))) ,
      "the embedded data does not end its element early");

(async () => {
	// playwright gives the browser a fresh profile in a temporary directory
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		       "--no-first-run", "--disable-background-networking",
		       "--disable-component-update", "--disable-sync"],
	});
	const errors = [];
	const requests = [];
	try {
		const context = await browser.newContext({viewport: {width: 1280, height: 900}});
		const page = await context.newPage();
		page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
		page.on("pageerror", (e) => errors.push("page error: " + e.message));
		await page.route("**/*", (route) => {
			const u = route.request().url();
			if (u.startsWith("file:") || u.startsWith("data:") || u.startsWith("about:"))
				return route.continue();
			requests.push(u);
			return route.abort();
		});
		await page.goto("file://" + path.resolve(report));
		await page.waitForSelector("#chart svg g.frame rect", {timeout: 20000});
		await page.waitForTimeout(800); // the library's entry transition

		// ---- flame graph: a box for each function, of some width
		const boxes = await page.evaluate(() => {
			const r = {};
			document.querySelectorAll("#chart svg g.frame").forEach((g) => {
				const rect = g.querySelector("rect");
				const w = rect ? parseFloat(rect.getAttribute("width") || "0") : 0;
				const n = g.getAttribute("name");
				r[n] = Math.max(r[n] || 0, w);
			});
			return r;
		});
		for (const fn of ["main", "run", "parse", "compute", "heavy", "cheap"])
			check(boxes[fn] > 0, "flame graph has a box for " + fn, JSON.stringify(boxes));
		const fullWidth = boxes["all"] || 0;
		check(fullWidth > 500 && boxes.main <= fullWidth && boxes.heavy < boxes.main,
		      "flame graph widths are nested (all >= main > heavy)", JSON.stringify(boxes));

		// ---- which times: corrected
		const times = await page.textContent("#times");
		check(/corrected for the tracer's own cost/.test(times), "the page says its times are corrected", times);

		// ---- zoom: clicking compute makes it as wide as the chart, with no
		// blank area above it (the svg as high as what is shown); reset
		const cell = 18;
		const flameTop = () => page.evaluate(() => {
			let top = Infinity;
			document.querySelectorAll("#chart svg g.frame").forEach((g) => {
				const r = g.querySelector("rect");
				if (getComputedStyle(g).display === "none" || !r || +r.getAttribute("width") < 1) return;
				const m = /translate\(([-\d.e]+),\s*([-\d.e]+)\)/.exec(g.getAttribute("transform") || "");
				if (m) top = Math.min(top, +m[2]);
			});
			return {top, h: +document.querySelector("#chart svg").getAttribute("height")};
		});
		const before = await flameTop();
		await page.click('#chart svg g.frame[name="compute"]');
		await page.waitForTimeout(700);
		const after = await flameTop();
		check(after.top <= 2 * cell && after.h < before.h,
		      "a zoomed flame graph has no blank area above it", JSON.stringify({before, after}));
		let w = await page.$eval('#chart svg g.frame[name="compute"] rect', (r) => +r.getAttribute("width"));
		check(Math.abs(w - fullWidth) < 2, "click on compute zooms it to the full width",
		      w + " vs " + fullWidth);
		const selected = await page.textContent("#selected");
		check(/compute/.test(selected), "the zoomed function is named under the chart", selected);
		await page.click("#reset");
		await page.waitForTimeout(700);
		w = await page.$eval('#chart svg g.frame[name="compute"] rect', (r) => +r.getAttribute("width"));
		check(w < fullWidth - 2, "reset zoom shows everything again", w + " vs " + fullWidth);

		// ---- search highlights the matching boxes only
		await page.fill("#search", "heav");
		await page.waitForTimeout(300);
		const fills = await page.evaluate(() => {
			const r = {};
			document.querySelectorAll("#chart svg g.frame").forEach((g) => {
				r[g.getAttribute("name")] = g.querySelector("rect").getAttribute("fill");
			});
			return r;
		});
		const hl = (c) => /^#e600e6$/i.test(c || "") || /230,\s*0,\s*230/.test(c || "");
		check(hl(fills.heavy) && !hl(fills.cheap) && !hl(fills.main),
		      "search 'heav' highlights heavy and nothing else", JSON.stringify(fills));
		check(/match/.test(await page.textContent("#details")), "search says how much matches");
		await page.click("#clear");

		// ---- flat profile: sorting by a column reorders the rows
		const rows = () => page.$$eval("#flat-table tbody tr td:first-child", (tds) => tds.map((t) => t.textContent));
		const col = (i) => page.$$eval("#flat-table tbody tr", (trs, i) => trs.map((tr) => tr.children[i].textContent), i);
		const byTotal = await rows();
		check(byTotal[0] === "main", "flat profile sorted by total: main first", byTotal.join(","));
		await page.click('#flat-table th[data-key="calls"]');
		const byCalls = await rows();
		const calls = (await col(1)).map((s) => +s.replace(/,/g, ""));
		check(byCalls[0] === "cheap" && calls.every((c, i) => i === 0 || calls[i - 1] >= c),
		      "sorting by calls: cheap first, calls descending", byCalls.join(",") + " " + calls.join(","));
		check(byCalls.join() !== byTotal.join(), "sorting by calls reorders the rows");
		await page.click('#flat-table th[data-key="calls"]');
		const callsAsc = (await col(1)).map((s) => +s.replace(/,/g, ""));
		check(callsAsc.every((c, i) => i === 0 || callsAsc[i - 1] <= c), "a second click sorts ascending",
		      callsAsc.join(","));
		await page.click('#flat-table th[data-key="name"]');
		const byName = await rows();
		check(byName.join() === [...byName].sort().join(), "sorting by function: by name", byName.join(","));
		for (const key of ["total", "self", "avg", "pct"]) {
			await page.click('#flat-table th[data-key="' + key + '"]');
			const s = await page.$eval('#flat-table th[data-key="' + key + '"]', (th) => th.getAttribute("aria-sort"));
			check(s === "descending", "sorting by " + key + " works", s);
		}

		// ---- the navigation: each section's heading below the sticky header
		for (const id of ["flame", "timeline", "flat", "callers", "info"]) {
			await page.click('header nav a[href="#' + id + '"]');
			await page.waitForTimeout(200);
			const r = await page.evaluate((id) => ({
				h2: document.querySelector("#" + id + " h2").getBoundingClientRect().top,
				head: document.querySelector("header").getBoundingClientRect().bottom,
				y: scrollY, max: document.documentElement.scrollHeight - innerHeight}), id);
			// (a section near the page's end cannot scroll to the top)
			check(r.h2 >= r.head - 0.5 && (r.h2 <= r.head + 40 || r.y >= r.max - 1),
			      "the link to #" + id + " shows its heading just below the header", JSON.stringify(r));
		}

		// ---- drill down: compute's link leads to its section, which lists
		// heavy as its most expensive callee; heavy's link leads on
		await page.click('#flat-table tbody a.fn:text-is("compute")');
		await page.waitForTimeout(200);
		const hash = await page.evaluate(() => location.hash);
		check(/^#fn-\d+$/.test(hash), "clicking compute goes to its anchor", hash);
		const sec = await page.evaluate((h) => {
			const s = document.querySelector(h);
			if (!s) return null;
			const r = s.getBoundingClientRect();
			const names = (sel) => Array.from(s.querySelectorAll(sel + " tr td:first-child a.fn")).map((a) => a.textContent);
			return {title: s.querySelector("h3").textContent, top: r.top, vh: innerHeight,
				callees: names("table.callees"), callers: names("table.callers"),
				star: (s.querySelector("table.callees .star") || {}).parentNode ?
					s.querySelector("table.callees .star").parentNode.textContent : ""};
		}, hash);
		check(sec && sec.title === "compute", "the anchor is compute's section", JSON.stringify(sec));
		if (sec) {
			check(sec.top >= 0 && sec.top < sec.vh, "compute's section is scrolled into view", sec.top);
			// the order by time is the recording's (heavy does 15 times
			// cheap's work, but on a loaded machine a preempted cheap
			// call may take longer): the page's data says which is first
			const want = await page.evaluate(() => {
				const D = window.ctReport.data;
				const id = D.fns.findIndex((f) => f[0] === "compute");
				return D.edges.filter((e) => e[0] === id)
					.sort((a, b) => b[3] - a[3] || b[2] - a[2]).map((e) => D.fns[e[1]][0]);
			});
			check(sec.callees.join() === want.join() && want.length === 2 &&
			      want.includes("heavy") && want.includes("cheap"),
			      "compute's callees: heavy and cheap, the most time first", sec.callees.join(",") +
			      " (data: " + want.join(",") + ")");
			check(want.length && new RegExp(want[0]).test(sec.star) && !new RegExp(want[1] || "^$").test(sec.star),
			      "the most expensive callee is marked", sec.star);
			check(sec.callers.join() === "run", "compute's caller: run", sec.callers.join(","));
		}
		await page.click(hash + ' table.callees a.fn:text-is("heavy")');
		await page.waitForTimeout(200);
		const h2 = await page.evaluate(() => {
			const s = document.querySelector(location.hash);
			return s ? s.querySelector("h3").textContent + " " +
				Array.from(s.querySelectorAll("table.callers a.fn")).map((a) => a.textContent).sort().join(",") : "";
		});
		check(h2 === "heavy compute,parse", "drilling down to heavy: its callers are compute and parse", h2);

		// ---- callers of a recursive function: each outermost activation
		// counted once, so that the percentages add up to 100 %
		await page.evaluate(() => { location.hash = "#fn-" + window.ctReport.data.fns.findIndex((f) => f[0] === "recurse"); });
		await page.waitForTimeout(200);
		const rec = await page.evaluate(() => {
			const s = document.querySelector(location.hash);
			if (!s) return null;
			return Array.from(s.querySelectorAll("table.callers tr")).slice(1).map((tr) =>
				Array.from(tr.children).map((td) => td.textContent));
		});
		const pcts = (rec || []).map((r) => parseFloat(r[3]));
		const sum = pcts.reduce((a, b) => a + b, 0);
		check(rec && rec.length === 2 && Math.abs(sum - 100) < 0.2 &&
		      rec.some((r) => /^main/.test(r[0]) && r[1] === "1" && r[3] === "100.0%") &&
		      rec.some((r) => /^recurse/.test(r[0]) && r[1] === "3" && r[3] === "0.0%"),
		      "recurse's callers: main 100 %, recurse (3 calls) 0 %: they add up to 100 %", JSON.stringify(rec));

		// ---- the timeline: a lane per thread, the calls at their place
		await page.evaluate(() => document.querySelector("#timeline").scrollIntoView());
		const opts = await page.$$eval("#tl-thread option", (os) => os.map((o) => [o.value, o.textContent]));
		check(opts.length === 3 && opts[0][0] === "-1" && opts.some((o) => /^worker/.test(o[1])) &&
		      opts.some((o) => /^main/.test(o[1])), "the timeline offers all threads and each one", JSON.stringify(opts));
		const tl = () => page.evaluate(() => {
			const box = (g) => {
				const m = /translate\(([-\d.e]+),\s*([-\d.e]+)\)/.exec(g.getAttribute("transform"));
				const x = +m[1];
				return {name: g.getAttribute("data-name"), thread: g.getAttribute("data-thread"),
					depth: +g.getAttribute("data-depth"), x0: x,
					x1: x + +g.querySelector("rect").getAttribute("width")};
			};
			return {lanes: Array.from(document.querySelectorAll("#tl-chart g.lane")).map((l) => l.textContent),
				width: +document.querySelector("#tl-chart svg").getAttribute("width"),
				boxes: Array.from(document.querySelectorAll("#tl-chart g.call")).map(box),
				marks: Array.from(document.querySelectorAll("#tl-chart g.mark")).map((g) => ({
					text: g.getAttribute("data-text"),
					x: +/translate\(([-\d.e]+)/.exec(g.getAttribute("transform"))[1]}))};
		});
		const count = (bs, n) => bs.filter((b) => b.name === n).length;
		const inside = (b, p) => b.x0 >= p.x0 - 0.5 && b.x1 <= p.x1 + 0.5;
		let t = await tl();
		const by = (n) => t.boxes.filter((b) => b.name === n);
		check(t.lanes.length === 2 && t.lanes.some((l) => /^worker/.test(l)),
		      "all threads: two lanes, main's and worker's", JSON.stringify(t.lanes));
		const compute = by("compute")[0], run = by("run")[0], mainb = by("main")[0];
		check(mainb && mainb.depth === 0 && run && run.depth === 1 && compute && compute.depth === 2 &&
		      inside(compute, run) && inside(run, mainb), "main > run > compute nest on the timeline",
		      JSON.stringify([mainb, run, compute]));
		const heavies = by("heavy");
		check(heavies.length === 4 && heavies.every((b) => b.depth === 3) && compute &&
		      heavies.filter((b) => inside(b, compute)).length === 3,
		      "heavy: 4 boxes, 3 of them inside compute, in time order", JSON.stringify(heavies));
		const recs = by("recurse").sort((a, b) => a.depth - b.depth);
		check(recs.length === 4 && recs.every((b, i) => b.depth === i + 1 && (i === 0 || inside(b, recs[i - 1]))) &&
		      run && recs[0].x0 >= run.x1 - 0.5,
		      "recurse: 4 nested boxes, after run", JSON.stringify(recs));
		// the ticks inside worker, zoomed to worker: at the whole
		// recording's scale a stall elsewhere on a loaded machine can
		// make a tick narrower than a pixel (not drawn)
		const zoomWorker = () => page.evaluate(() => {
			const D = window.ctReport.data, TL = D.timeline;
			for (const th of TL.threads)
				for (const c of th.calls)
					if (D.fns[c[0]][0] === "worker") {
						window.ctReport.timeline.zoomTo(c[2], c[2] + c[3]);
						return true;
					}
			return false;
		});
		check(await zoomWorker(), "the timeline's data has worker's call");
		await page.waitForTimeout(300);
		const tw = await tl();
		await page.click("#tl-reset");
		await page.waitForTimeout(300);
		const ticks = tw.boxes.filter((b) => b.name === "tick"), work = tw.boxes.find((b) => b.name === "worker");
		check(ticks.length === 5 && work && ticks.every((b) => inside(b, work) && b.thread === work.thread) &&
		      work.thread !== (mainb || {}).thread, "tick: 5 boxes inside worker, on worker's lane",
		      JSON.stringify([work, ticks]));
		const mk = t.marks.filter((m) => m.text === "computed");
		check(mk.length === 1 && run && recs.length && mk[0].x >= run.x1 - 0.5 && mk[0].x <= recs[0].x0 + 0.5,
		      "the mark \"computed\" is drawn between run and recurse", JSON.stringify(t.marks));
		// a box's tooltip: the corrected time first, the recorded one beside it
		// (one time where nothing was taken out: a process without
		// calibration figures is shown as recorded)
		const tip = await page.$eval('#tl-chart g.call[data-name="main"] title', (e) => e.textContent);
		const mc = await page.evaluate(() => {
			const D = window.ctReport.data;
			for (const th of D.timeline.threads)
				for (const c of th.calls)
					if (D.fns[c[0]][0] === "main") return c;
			return null;
		});
		check(mc && (mc[4] < mc[3] ? /^main: [\d.]+ [nmu]?s \(recorded [\d.]+ [nmu]?s\) at /.test(tip) :
			     /^main: [\d.]+ [nmu]?s at /.test(tip)),
		      "main's tooltip: its corrected time, then the recorded one", tip + " " + JSON.stringify(mc));
		// choosing the worker thread: its lane only
		const wopt = opts.find((o) => /^worker/.test(o[1]))[0];
		await page.selectOption("#tl-thread", wopt);
		await page.waitForTimeout(200);
		await zoomWorker();
		await page.waitForTimeout(300);
		t = await tl();
		// (library calls aside: worker's pthread_self@libc shows when zoomed in)
		const names = [...new Set(t.boxes.map((b) => b.name).filter((n) => !/@/.test(n)))].sort();
		check(t.lanes.length === 1 && /^worker/.test(t.lanes[0]) && names.join() === "tick,worker" &&
		      count(t.boxes, "tick") === 5, "choosing worker: its lane, worker and 5 ticks only",
		      JSON.stringify({lanes: t.lanes, names}));
		// zoom: a click on compute makes it as wide as the chart
		await page.selectOption("#tl-thread", "-1");
		await page.waitForTimeout(200);
		await page.click('#tl-chart g.call[data-name="compute"] rect');
		await page.waitForTimeout(300);
		t = await tl();
		const cz = t.boxes.find((b) => b.name === "compute");
		check(cz && cz.x0 <= 1 && cz.x1 >= t.width - 1 && !t.boxes.some((b) => b.name === "tick"),
		      "a click on compute zooms the timeline to it", JSON.stringify(cz));
		await page.click("#tl-reset");
		await page.waitForTimeout(300);
		t = await tl();
		// main's box where it was before any zoom (the ticks may be
		// narrower than a pixel at this scale on a loaded machine)
		const mr = t.boxes.find((b) => b.name === "main");
		check(mr && mainb && Math.abs(mr.x0 - mainb.x0) < 0.5 && Math.abs(mr.x1 - mainb.x1) < 0.5,
		      "reset shows the whole timeline again", JSON.stringify([mr, mainb]));

		// ---- the recording's info
		const info = await page.textContent("#info");
		check(/command/.test(info) && /exit 0/.test(info) && /tsc|mono/.test(info) &&
		      /processes/.test(info) && /events/.test(info) && /duration/.test(info),
		      "the recording's info is shown", info.slice(0, 200));
		check(/thread names\s*\d+ /.test(info), "the threads are listed with their names",
		      info.slice(0, 400));

		await page.evaluate(() => window.scrollTo(0, 0));
		await page.screenshot({path: shot, fullPage: false});
		check(fs.statSync(shot).size > 10000, "screenshot taken");
	} catch (e) {
		check(false, "the test ran to its end", e.stack || String(e));
	} finally {
		await browser.close();
	}
	// another report in a browser of its own: fn(page) checks it
	async function onPage(file, what, fn) {
		const b = await chromium.launch({executablePath: CHROMIUM, headless: true,
			args: ["--headless", "--no-sandbox", "--disable-gpu"]});
		try {
			const p = await (await b.newContext()).newPage();
			p.on("pageerror", (e) => errors.push("page error (" + what + "): " + e.message));
			await p.goto("file://" + path.resolve(file));
			await fn(p);
		} catch (e) {
			check(false, "the " + what + " report opens", e.stack || String(e));
		} finally {
			await b.close();
		}
	}
	if (rawReport) {
		// the same recording exported with --raw says so
		await onPage(rawReport, "--raw", async (p) => {
			const t2 = await p.textContent("#times");
			check(/as recorded \(--raw\)/.test(t2), "the --raw report says its times are as recorded", t2);
		});
	}
	if (forkReport) {
		// two processes: each lane and thread choice names its command
		await onPage(forkReport, "fork", async (p) => {
			const lanes = await p.$$eval("#tl-chart g.lane", (ls) => ls.map((l) => l.textContent));
			const opts = await p.$$eval("#tl-thread option", (os) => os.slice(1).map((o) => o.textContent));
			check(lanes.length === 2 && lanes.every((l) => / · \S*html fork/.test(l)) &&
			      new Set(lanes).size === 2 && opts.every((o) => / · \S*html fork — /.test(o)),
			      "two processes: each lane and thread choice names its command",
			      JSON.stringify({lanes, opts}));
		});
	}
	check(errors.length === 0, "no console errors or page errors", errors.join(" | "));
	check(requests.length === 0, "no request left the file", requests.join(" | "));
	process.exit(failed ? 1 : 0);
})();
