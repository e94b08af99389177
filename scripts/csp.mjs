// Trunk post-build hook: pins the page's Content-Security-Policy to the inline module script
// Trunk writes (its wasm loader) by hash, so the page runs only its own scripts and wasm: no
// other inline script, no eval, nothing from another origin. Usage: node scripts/csp.mjs [DIR]
// (default $TRUNK_STAGING_DIR, where Trunk assembles the site before it becomes dist/).
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("csp.mjs: no directory (pass one or run as a Trunk hook)");
  process.exit(2);
}
const file = join(dir, "index.html");
let html = readFileSync(file, "utf8");
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`,
);
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(" ")}`.trim(),
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/g, "");
// A minified page has no <head> tag (it is optional): the policy then follows the charset.
if (/<head>/.test(html)) {
  html = html.replace(/<head>/, `<head>\n    ${meta}`);
} else if (/<meta charset=[^>]*>/i.test(html)) {
  html = html.replace(/<meta charset=[^>]*>/i, (m) => `${m}${meta}`);
} else {
  console.error(`csp.mjs: no <head> or <meta charset> in ${file} to put the policy after`);
  process.exit(1);
}
writeFileSync(file, html);
console.log(`csp.mjs: ${hashes.length} inline script(s) pinned in ${file}`);
