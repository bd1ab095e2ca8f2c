// SPDX-License-Identifier: MIT
// The browser test of "calltrace export --format=mermaid": renders the
// chart with the mermaid npm package (web/node_modules, a devDependency)
// in Debian's headless Chromium, driven by playwright-core, as a Markdown
// page or mermaid.live would, and checks the SVG it draws.
//
//   node tests/browser/mermaid.js CHART.mmd FUNC... [-- CHART.mmd FUNC...]
//
// Each CHART must render without error, with one node per function line
// ("fN[...]") and one edge per arc line ("fA -->|...| fB"), each FUNC's
// name in a node's text, and as many edge labels as arcs.  Prints one
// line per check ("ok ..." or "FAIL ...") and exits 1 if any failed.
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
const MERMAID = path.join(TOP, "web/node_modules/mermaid/dist/mermaid.min.js");
if (!fs.existsSync(MERMAID)) {
	console.log("FAIL mermaid is missing (sh tools/install-deps.sh runs npm ci in web/)");
	process.exit(1);
}
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

// CHART FUNC... groups, split by "--"
const charts = [];
for (const a of process.argv.slice(2)) {
	if (a === "--" || !charts.length) {
		if (a !== "--") charts.push({file: a, funcs: []});
		else charts.push(null);
	} else if (charts[charts.length - 1] === null) {
		charts[charts.length - 1] = {file: a, funcs: []};
	} else {
		charts[charts.length - 1].funcs.push(a);
	}
}
if (!charts.length || charts.some((c) => !c)) {
	console.error("usage: node mermaid.js CHART.mmd FUNC... [-- CHART.mmd FUNC...]");
	process.exit(2);
}

let failed = 0;
function check(ok, what, detail) {
	const d = ok || detail === undefined ? "" : ": " + String(detail).replace(/\s*\n\s*/g, " ");
	console.log((ok ? "ok   " : "FAIL ") + what + d);
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
	try {
		for (const c of charts) {
			const name = path.basename(c.file);
			const text = fs.readFileSync(c.file, "utf8");
			const lines = text.split("\n");
			const nodes = lines.filter((l) => /^\s*f\d+\["/.test(l)).length;
			const edges = lines.filter((l) => /^\s*f\d+ -->\|/.test(l)).length;
			const page = await (await browser.newContext()).newPage();
			const errors = [];
			page.on("pageerror", (e) => errors.push(e.message));
			// nothing but the page and the library: no network
			await page.route("**/*", (route) => {
				const u = route.request().url();
				return u.startsWith("about:") || u.startsWith("data:") ? route.continue()
										       : route.abort();
			});
			await page.setContent("<!doctype html><html><body><div id=out></div></body></html>");
			await page.addScriptTag({path: MERMAID});
			const r = await page.evaluate(async (src) => {
				try {
					window.mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
					const {svg} = await window.mermaid.render("chart", src);
					document.getElementById("out").innerHTML = svg;
					const root = document.querySelector("#out svg");
					const labels = [...root.querySelectorAll("g.node")].map((n) => n.textContent);
					return {
						ok: true,
						nodes: labels.length,
						labels,
						edges: root.querySelectorAll("path.flowchart-link, g.edgePaths path").length,
						edgeLabels: [...root.querySelectorAll("g.edgeLabel")]
							.filter((l) => /call/.test(l.textContent)).length,
						title: (root.querySelector(".flowchartTitleText") || {}).textContent || "",
					};
				} catch (e) {
					return {ok: false, error: String(e && e.message || e)};
				}
			}, text);
			if (!check(r.ok, name + ": mermaid renders it", r.error))
				continue;
			check(errors.length === 0, name + ": no page error", errors.join(" | "));
			check(nodes > 0 && r.nodes === nodes, name + ": a node per function (" + nodes + ")",
			      "the SVG has " + r.nodes);
			check(edges > 0 && r.edges === edges, name + ": an edge per arc (" + edges + ")",
			      "the SVG has " + r.edges);
			check(r.edgeLabels === edges, name + ": each edge labelled with its calls",
			      r.edgeLabels + " labels");
			for (const f of c.funcs)
				check(r.labels.some((l) => l.startsWith(f) && /self /.test(l)),
				      name + ": node " + f + " with its self time", r.labels.join(" | "));
		}
	} catch (e) {
		check(false, "the test ran to its end", e.stack || String(e));
	} finally {
		await browser.close();
	}
	process.exit(failed ? 1 : 0);
})();
