// SPDX-License-Identifier: MIT
// The HTML report's marks of functions whose time is mostly the tracer's
// own cost (doc/overhead.md), in Debian's headless Chromium driven by
// playwright-core (web/node_modules), as tests/browser/html_report.js does.
//
//   node tests/browser/html_cost.js REPORT.html NAME[,NAME...]
//
// NAMES: the functions that must be marked (may be empty: none).  Checks
// that the flat profile marks exactly those rows and shows the legend
// when it marks one, that their sections' titles carry the mark, that
// their flame graph boxes' tooltips say so (and no other box's does), and
// that the page has no error.  Prints one line per check ("ok ..." or
// "FAIL ...") and exits 1 if any failed.
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

const [report, names] = process.argv.slice(2);
if (!report || names === undefined) {
	console.error("usage: node html_cost.js REPORT.html NAME[,NAME...]");
	process.exit(2);
}
const want = names ? names.split(",").sort() : [];

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
		const page = await (await browser.newContext({viewport: {width: 1280, height: 900}})).newPage();
		page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
		page.on("pageerror", (e) => errors.push("page error: " + e.message));
		await page.route("**/*", (route) => {
			const u = route.request().url();
			return u.startsWith("file:") || u.startsWith("data:") || u.startsWith("about:") ?
				route.continue() : route.abort();
		});
		await page.goto("file://" + path.resolve(report));
		await page.waitForSelector("#chart svg g.frame rect", {timeout: 20000});

		const got = await page.evaluate(() => {
			const rows = Array.from(document.querySelectorAll("#flat-table tbody tr"));
			const name = (tr) => tr.querySelector("a.fn").textContent;
			const titles = {};
			document.querySelectorAll("#chart svg g.frame").forEach((g) => {
				const t = g.querySelector("title");
				titles[g.getAttribute("name")] = t ? t.textContent : "";
			});
			return {
				rows: rows.map(name),
				marked: rows.filter((tr) => tr.querySelector("td:first-child .cost")).map(name).sort(),
				texts: rows.map((tr) => tr.children[0].textContent),
				legend: document.querySelector("#cost-legend") ?
					document.querySelector("#cost-legend").textContent : null,
				sections: Array.from(document.querySelectorAll(".fn-section h3"))
					.filter((h) => h.querySelector(".cost")).map((h) => h.querySelector("a").textContent).sort(),
				titles: titles,
			};
		});
		check(got.rows.length > 0, "the flat profile has rows", JSON.stringify(got.rows));
		check(got.marked.join() === want.join(), "the flat profile marks " + (want.join(", ") || "nothing"),
		      got.marked.join(", "));
		check(got.texts.filter((t) => / \*$/.test(t)).length === want.length,
		      "a marked row's name is followed by *", got.texts.join(" | "));
		check(want.length ? /mostly the tracer's own cost/.test(got.legend || "") : got.legend === null,
		      want.length ? "the legend is under the table" : "no legend", got.legend);
		check(got.sections.join() === want.join(), "the marked functions' sections carry the mark",
		      got.sections.join(", "));
		const cost = (n) => /mostly the tracer's own cost/.test(got.titles[n] || "");
		const boxes = Object.keys(got.titles).filter((n) => n !== "all");
		check(want.every((n) => n in got.titles && cost(n)), "their flame graph boxes' tooltips say so",
		      JSON.stringify(got.titles));
		check(boxes.filter((n) => !want.includes(n)).every((n) => !cost(n)),
		      "no other box's tooltip does", JSON.stringify(got.titles));
	} catch (e) {
		check(false, "the page could be driven", e.stack || String(e));
	} finally {
		await browser.close();
	}
	check(errors.length === 0, "no console or page error", errors.join(" | "));
	process.exit(failed ? 1 : 0);
})();
