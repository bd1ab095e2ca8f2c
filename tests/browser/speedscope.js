// SPDX-License-Identifier: MIT
// Chrome JSON (calltrace export --format=chrome) read by speedscope's own
// importer: speedscope's built page (web/node_modules/speedscope, pinned
// in web/package.json) is served from a loopback HTTP server started here,
// and loaded in Debian's headless Chromium (driven by playwright-core, as
// tests/browser/html_report.js does) with #profileURL= pointing at each
// file in turn.  While it imports the file, speedscope says on the console
// when a slice does not nest in its parent, in its own arithmetic:
//   ts=...: Tried to end "X" when "Y" was on the top of the stack. ...
//   Tried to end frame "X", but the stack was empty. ...
//   Frame "X" was still open at end of profile. ...
//
//   node tests/browser/speedscope.js FILE.json...
//
// Prints, per file, "FILE: imported, N threads, W warnings" and the first
// warnings, or why it was not imported; exits 1 if a file gave a warning,
// an error or no profile, 2 on bad usage.
"use strict";

const fs = require("fs");
const http = require("http");
const path = require("path");

const TOP = path.resolve(__dirname, "../..");
const PAGE = path.join(TOP, "web/node_modules/speedscope/dist/release");
let chromium;
try {
	chromium = require(path.join(TOP, "web/node_modules/playwright-core")).chromium;
} catch (e) {
	console.log("FAIL playwright-core is missing (sh tools/install-deps.sh runs npm ci in web/)");
	process.exit(1);
}
if (!fs.existsSync(path.join(PAGE, "index.html"))) {
	console.log("FAIL speedscope is missing (sh tools/install-deps.sh runs npm ci in web/)");
	process.exit(1);
}
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

const files = process.argv.slice(2);
if (!files.length) {
	console.error("usage: node speedscope.js FILE.json...");
	process.exit(2);
}

const TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
	       ".json": "application/json", ".png": "image/png", ".ico": "image/x-icon",
	       ".wasm": "application/wasm", ".woff2": "font/woff2"};

// /ss/NAME: speedscope's page; /profile/I/NAME: the I-th file
const server = http.createServer((req, res) => {
	const u = decodeURIComponent(new URL(req.url, "http://x").pathname);
	let file = null;
	let m;
	if ((m = /^\/ss\/([\w.-]+)$/.exec(u)))
		file = path.join(PAGE, m[1]);
	else if ((m = /^\/profile\/(\d+)\/[^/]+$/.exec(u)) && +m[1] < files.length)
		file = files[+m[1]];
	if (!file || !fs.existsSync(file)) {
		res.writeHead(404);
		res.end();
		return;
	}
	res.writeHead(200, {"Content-Type": TYPES[path.extname(file)] || "application/octet-stream"});
	fs.createReadStream(file).pipe(res);
});

// one file through speedscope's importer: what it said on the console
async function load(context, base, i) {
	const page = await context.newPage();
	const said = {warnings: [], errors: [], done: false, failed: null};
	let finish;
	const over = new Promise((r) => { finish = r; });
	page.on("console", (m) => {
		const t = m.text();
		// the software GL's own chatter ("GPU stall due to ReadPixels")
		if (/^\[\.WebGL-[^\]]*\]GL Driver Message/.test(t))
			return;
		if (m.type() === "warning")
			said.warnings.push(t);
		else if (m.type() === "error")
			said.errors.push(t);
		else if (/^import: [\d.]+ ?m?s$/.test(t)) { // console.timeEnd("import")
			said.done = true;
			finish();
		} else if (/^Failed to load format/.test(t)) {
			said.failed = t;
			finish();
		}
	});
	page.on("pageerror", (e) => { said.errors.push("page error: " + e.message); finish(); });
	page.on("dialog", (d) => { said.failed = "alert: " + d.message(); d.dismiss(); finish(); });
	// nothing leaves the loopback server
	await page.route("**/*", (route) => {
		const u = route.request().url();
		return u.startsWith(base) || u.startsWith("data:") || u.startsWith("blob:")
			? route.continue() : route.abort();
	});
	const url = base + "/profile/" + i + "/" + path.basename(files[i]);
	await page.goto(base + "/ss/index.html#profileURL=" + encodeURIComponent(url));
	const timer = setTimeout(finish, 120000);
	await over;
	clearTimeout(timer);
	// the threads speedscope made of it: "NAME (i/N)" in its toolbar
	let threads = null;
	if (said.done) {
		await page.waitForTimeout(300);
		const text = await page.evaluate(() => document.body.innerText);
		const m = /\(\d+\/(\d+)\)/.exec(text);
		threads = m ? +m[1] : 1;
	}
	await page.close();
	return {...said, threads};
}

(async () => {
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const base = "http://127.0.0.1:" + server.address().port;
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		// speedscope draws with WebGL and imports only once it has a
		// canvas: SwiftShader gives headless Chromium one
		args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
		       "--no-first-run", "--disable-background-networking",
		       "--disable-component-update", "--disable-sync",
		       "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
	});
	let failed = 0;
	try {
		const context = await browser.newContext({viewport: {width: 1280, height: 800}});
		for (let i = 0; i < files.length; i++) {
			const r = await load(context, base, i);
			const name = path.basename(files[i]);
			const problems = r.warnings.length + r.errors.length;
			if (!r.done) {
				failed++;
				console.log("FAIL " + name + ": not imported: " +
					    (r.failed || r.errors[0] || "no word from speedscope in 120 s"));
			} else {
				if (problems)
					failed++;
				console.log((problems ? "FAIL " : "ok   ") + name + ": imported, " + r.threads +
					    " threads, " + r.warnings.length + " warnings, " + r.errors.length +
					    " errors");
			}
			const tried = r.warnings.filter((w) => /Tried to end/.test(w)).length;
			if (tried)
				console.log("     " + tried + " \"Tried to end\" warnings");
			for (const w of [...r.errors, ...r.warnings].slice(0, 5))
				console.log("     " + (w.length > 300 ? w.slice(0, 300) + "..." : w));
		}
	} finally {
		await browser.close();
		server.close();
	}
	process.exit(failed ? 1 : 0);
})().catch((e) => {
	console.log("FAIL " + (e && e.stack || e));
	process.exit(1);
});
