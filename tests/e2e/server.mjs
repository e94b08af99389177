// A tiny static file server for the built site (dist/), for the end-to-end tests.
// It serves files only (no directory listings, no fallbacks) with the right MIME types,
// `application/wasm` above all: without it the browser refuses WebAssembly.instantiateStreaming.
//
//   node server.mjs [--root DIR] [--port N] [--host 127.0.0.1]
// prints "listening on http://HOST:PORT/" once ready (port 0, the default, picks a free port).
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.yaml': 'text/yaml; charset=utf-8',
  '.yml': 'text/yaml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export function mimeType(path) {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Starts serving `root`, under the path `prefix` (default `/`; e.g. `/kubeplay/`, as a project
 * page is served: nothing outside it exists). Resolves to { url, port, close() } once listening.
 */
export function startServer({ root, port = 0, host = '127.0.0.1', prefix = '/' } = {}) {
  const base = resolve(root);
  const server = createServer(async (req, res) => {
    const send = (status, text) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
    };
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
      let pathname;
      try {
        pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      } catch {
        return send(400, 'bad request\n');
      }
      if (!pathname.startsWith(prefix)) return send(404, `not found: ${pathname} (the site is under ${prefix})\n`);
      pathname = '/' + pathname.slice(prefix.length);
      let file = normalize(join(base, pathname));
      if (file !== base && !file.startsWith(base + sep)) return send(403, 'forbidden\n');
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info?.isFile()) return send(404, `not found: ${pathname}\n`);
      res.writeHead(200, {
        'content-type': mimeType(file),
        'content-length': info.size,
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    } catch (err) {
      if (!res.headersSent) send(500, `internal error: ${err}\n`);
      else res.destroy();
    }
  });
  // Bounded: a stuck client must not keep a test run alive.
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 2_000;

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolvePromise({
        url: `http://${host}:${actual}${prefix}`,
        port: actual,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections?.();
          }),
      });
    });
  });
}

function parseArgs(argv) {
  const opts = { root: 'dist', port: 0, host: '127.0.0.1' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--root') opts.root = value();
    else if (flag === '--port') opts.port = Number(value());
    else if (flag === '--host') opts.host = value();
    else {
      console.error(`usage: node server.mjs [--root DIR] [--port N] [--host ADDR] (unknown: ${argv[i]})`);
      process.exit(2);
    }
  }
  return opts;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = parseArgs(process.argv.slice(2));
  const { url, close } = await startServer(opts);
  console.log(`listening on ${url} (serving ${resolve(opts.root)})`);
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
