// SPDX-License-Identifier: MIT
// The browser test of the HTML report's sampled flame graph (record
// --sample): opens a report of tests/e2e/sample.c (main > work > {one,
// three}, three's loop three times one's) in Debian's headless Chromium,
// driven by playwright-core (web/node_modules), and checks that the page has
// the "Sampled flame graph" section, its boxes for one and three, three's
// box 3 times as wide as one's within 35 %, a link to it in the header, and
// no console or page error.  NOSAMPLE.html: a report of a recording without
// samples, which must have no such section.
//
//   node tests/browser/html_sampled.js REPORT.html NOSAMPLE.html
//
// Prints one line per check ("ok ..." or "FAIL ...") and exits 1 if any
// failed.
"use strict";

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

const [report, plain] = process.argv.slice(2);
if (!report || !plain) {
	console.error("usage: node html_sampled.js REPORT.html NOSAMPLE.html");
	process.exit(2);
}

let failed = 0;
function check(ok, what, detail) {
	console.log((ok ? "ok   " : "FAIL ") + what + (ok || detail === undefined ? "" : ": " + detail));
	if (!ok) failed++;
	return ok;
}

(async () => {
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		       "--no-first-run", "--disable-background-networking",
		       "--disable-component-update", "--disable-sync"],
	});
	const errors = [];
	try {
		const context = await browser.newContext({viewport: {width: 1280, height: 900}});
		const page = await context.newPage();
		page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
		page.on("pageerror", (e) => errors.push("page error: " + e.message));
		await page.goto("file://" + path.resolve(report));
		const has = await page.waitForSelector("#schart svg g.frame rect", {timeout: 20000})
			.then(() => true, () => false);
		check(has, "the sampled flame graph is drawn");
		await page.waitForTimeout(800); // the library's entry transition
		const title = await page.$eval("#sflame h2", (h) => h.textContent).catch(() => "");
		check(title === "Sampled flame graph", "its section's title", title);
		const link = await page.$$eval('header nav a[href="#sflame"]', (a) => a.length);
		check(link === 1, "the header links to it", link);
		const width = (name) => page.$eval('#schart svg g.frame[name="' + name + '"] rect',
			(r) => +r.getAttribute("width")).catch(() => 0);
		const one = await width("one"), three = await width("three");
		const r = one > 0 ? three / one : 0;
		check(r >= 1.95 && r <= 4.05, "three's box is 3 times one's within 35 %",
		      "three " + three + ", one " + one);
		const label = await page.$eval('#schart svg g.frame[name="three"] title',
			(t) => t.textContent).catch(() => "");
		check(/^three: sampled .* self /.test(label), "a box's label: sampled and self time", label);
		const p2 = await context.newPage();
		p2.on("pageerror", (e) => errors.push("page error (no samples): " + e.message));
		await p2.goto("file://" + path.resolve(plain));
		await p2.waitForSelector("#chart svg g.frame rect", {timeout: 20000});
		const none = await p2.$$eval("#sflame", (s) => s.length);
		check(none === 0, "no sampled flame graph without samples", none);
	} finally {
		await browser.close();
	}
	check(errors.length === 0, "no console errors or page errors", errors.join(" | "));
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log("FAIL " + e.message);
	process.exit(1);
});
