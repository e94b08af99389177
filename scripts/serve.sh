#!/usr/bin/env bash
# Builds the optimised site and serves it at http://127.0.0.1:8080/ (Ctrl+C stops it).
# Installs what is missing first (scripts/setup.sh); the first run takes about 10 minutes.
# Extra arguments go to `trunk serve` (e.g. `--port 9000`); PORT=9000 works too.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

bash "$KUBEPLAY_ROOT/scripts/setup.sh" || die "serve: set-up failed (see above); nothing was built"

cd "$KUBEPLAY_ROOT"
port="${PORT:-8080}"
log "building the release site and serving it at http://127.0.0.1:$port/ (Ctrl+C to stop) ..."
# TRUNK_OFFLINE (lib.sh): Trunk uses wasm-bindgen and wasm-opt from PATH and downloads nothing.
exec trunk serve --release --address 127.0.0.1 --port "$port" "$@"
