// SPDX-License-Identifier: MIT
// The HTML report of a "record --sched" recording (tests/e2e/offcpu.sh):
// the timeline shades each thread's off-CPU spans behind its calls, and
// says so under the chart; a report of a recording without --sched has
// neither.
//
//   node tests/browser/html_offcpu.js SCHED.html PLAIN.html
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
const [sched, plain] = process.argv.slice(2);
if (!sched || !plain) {
	console.error("usage: node html_offcpu.js SCHED.html PLAIN.html");
	process.exit(2);
}

let failed = 0;
function check(ok, what, detail) {
	console.log((ok ? "ok   " : "FAIL ") + what + (ok || detail === undefined ? "" : ": " + detail));
	if (!ok) failed++;
}

// the shaded spans drawn and the note, once the timeline is drawn
async function look(page, file) {
	await page.goto("file://" + path.resolve(file));
	await page.waitForSelector("#tl-chart svg g.call rect", {timeout: 20000});
	return page.evaluate(() => {
		const offs = [...document.querySelectorAll("#tl-chart svg rect.offcpu")];
		const calls = document.querySelector("#tl-chart svg g.call");
		return {
			n: offs.length,
			wide: offs.filter((r) => parseFloat(r.getAttribute("width")) >= 1).length,
			/* behind the calls: their group comes before the calls' */
			behind: offs.length > 0 && calls !== null &&
				!!(offs[0].compareDocumentPosition(calls) & Node.DOCUMENT_POSITION_FOLLOWING),
			note: !!document.getElementById("tl-offcpu"),
		};
	});
}

(async () => {
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		       "--disable-background-networking", "--disable-component-update", "--disable-sync"],
	});
	const errors = [];
	try {
		const page = await (await browser.newContext({viewport: {width: 1280, height: 900}})).newPage();
		page.on("pageerror", (e) => errors.push("page error: " + e.message));
		page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
		const s = await look(page, sched);
		check(s.n > 0 && s.wide === s.n, "--sched: off-CPU spans shaded on the timeline", JSON.stringify(s));
		check(s.behind, "--sched: the spans are behind the calls", JSON.stringify(s));
		check(s.note, "--sched: the note under the chart says what they are");
		const p = await look(page, plain);
		check(p.n === 0 && !p.note, "without --sched: no span, no note", JSON.stringify(p));
		check(errors.length === 0, "no error on the pages", errors.join(" | "));
	} finally {
		await browser.close();
	}
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log("FAIL " + e.message);
	process.exit(1);
});
