// Trunk post-build hook: minifies the page's wasm-bindgen JavaScript with esbuild and updates
// its integrity hash in index.html. Trunk's own minifier stops at wasm-bindgen's
// `export default` and leaves the file whole, and what a cold load transfers counts (issue 9:
// under 1 MiB compressed): the glue goes from about 9.3 KB gzipped to 6.8 KB.
// Usage: node scripts/minify-js.mjs [DIR] (default $TRUNK_STAGING_DIR). Release builds only;
// esbuild is the one scripts/setup.sh installs (KUBEPLAY_ESBUILD names another).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("minify-js.mjs: no directory (pass one or run as a Trunk hook)");
  process.exit(2);
}
if (!process.argv[2] && process.env.TRUNK_PROFILE !== "release") process.exit(0);

const tools = process.env.KUBEPLAY_TOOLS ?? join(homedir(), ".cache", "kubeplay-tools");
const esbuild = process.env.KUBEPLAY_ESBUILD ?? join(tools, "esbuild", "node_modules", ".bin", "esbuild");
if (!existsSync(esbuild)) {
  console.error(`minify-js.mjs: warning: no esbuild at ${esbuild} (scripts/setup.sh installs it); the JavaScript stays as it is`);
  process.exit(0);
}

const page = join(dir, "index.html");
let html = readFileSync(page, "utf8");
for (const name of readdirSync(dir).filter((f) => /^kubeplay-app-[0-9a-f]+\.js$/.test(f))) {
  const file = join(dir, name);
  const before = readFileSync(file).length;
  execFileSync(esbuild, [file, "--minify", "--format=esm", "--log-level=warning", "--allow-overwrite", `--outfile=${file}`], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const body = readFileSync(file);
  const integrity = `sha384-${createHash("sha384").update(body).digest("base64")}`;
  // The module preload link carries the file's hash (the page is minified: attributes may be
  // unquoted, in any order).
  let pinned = 0;
  html = html.replace(/<link\b[^>]*>/g, (tag) => {
    if (!tag.includes(name)) return tag;
    pinned += 1;
    return tag.replace(/integrity=("?)sha384-[A-Za-z0-9+/=]+\1/, `integrity="${integrity}"`);
  });
  console.log(`minify-js.mjs: ${name} ${before} -> ${body.length} bytes; ${pinned} integrity hash(es) updated`);
}
writeFileSync(page, html);
