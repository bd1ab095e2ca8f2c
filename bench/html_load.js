// SPDX-License-Identifier: MIT
// bench/html.sh: how long headless Chromium takes to open a report made by
// "calltrace export --format=html" until its flame graph is drawn, and how
// many boxes and table rows it shows.  Measures only; asserts nothing.
//   node bench/html_load.js REPORT.html
"use strict";
const path = require("path");
const {chromium} = require(path.resolve(__dirname, "../web/node_modules/playwright-core"));
(async () => {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		       "--disable-background-networking", "--disable-component-update", "--disable-sync"],
	});
	const page = await browser.newPage({viewport: {width: 1280, height: 900}});
	const errors = [];
	page.on("pageerror", (e) => errors.push(e.message));
	const t0 = Date.now();
	await page.goto("file://" + path.resolve(process.argv[2]));
	await page.waitForSelector("#chart svg g.frame rect", {timeout: 120000});
	const ms = Date.now() - t0;
	const n = await page.evaluate(() => ({
		boxes: document.querySelectorAll("#chart svg g.frame").length,
		rows: document.querySelectorAll("#flat-table tbody tr").length,
		sections: document.querySelectorAll(".fn-section").length}));
	const t1 = Date.now();
	await page.click('#flat-table th[data-key="calls"]');
	const sortMs = Date.now() - t1;
	console.log(`load_ms=${ms} sort_ms=${sortMs} boxes=${n.boxes} rows=${n.rows} ` +
		    `sections=${n.sections} errors=${errors.length}`);
	await browser.close();
})();
