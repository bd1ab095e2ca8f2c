// SPDX-License-Identifier: MIT
// The browser test of "calltrace export --format=html": opens the report in
// Debian's headless Chromium, driven by playwright-core (web/node_modules),
// and checks what a person would do with it.
//
//   node tests/browser/html_report.js REPORT.html SCREENSHOT.png
//
// It expects a report of tests/e2e/html.c: main > run > {parse, compute},
// compute > {heavy (most time), cheap (most calls)}.  Prints one line per
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

const [report, shot] = process.argv.slice(2);
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

		// ---- zoom: clicking compute makes it as wide as the chart; reset
		await page.click('#chart svg g.frame[name="compute"]');
		await page.waitForTimeout(700);
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
			check(sec.callees[0] === "heavy" && sec.callees.includes("cheap"),
			      "compute's callees: heavy first (most time), cheap", sec.callees.join(","));
			check(/heavy/.test(sec.star), "heavy is marked as the most expensive callee", sec.star);
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
	check(errors.length === 0, "no console errors or page errors", errors.join(" | "));
	check(requests.length === 0, "no request left the file", requests.join(" | "));
	process.exit(failed ? 1 : 0);
})();
