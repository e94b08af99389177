#!/usr/bin/env bash
# The scale benchmark, natively and in headless Chromium from the built wasm, side by side:
#
#   scripts/bench.sh [SIZE...]      sizes: small medium large limits (default: small medium)
#
# For each size: `cargo bench -p kubeplay-core --bench scale -- --json SIZE` (its own process,
# so its peak RSS is its own), then the built site (trunk build --release; BENCH_NO_BUILD=1 uses
# dist/ as it is) runs the same scenario in the page's wasm (tests/e2e/bench.mjs). Prints one
# Markdown table: wall time from the parse to all pods Running, pods and trace records per
# second, peak memory, and the browser/native ratio. Also runs the default scenario's `apply`
# benchmark (the small scenario to quiet, trace included). Installs what is missing first.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

sizes=("$@")
[ "${#sizes[@]}" -gt 0 ] || sizes=(small medium)
for s in "${sizes[@]}"; do
  case "$s" in small | medium | large | limits) ;; *) die "unknown size '$s' (small, medium, large, limits)" ;; esac
done

bash "$KUBEPLAY_ROOT/scripts/setup.sh" || die "bench: set-up failed (see above)"
cd "$KUBEPLAY_ROOT"

log "the default scenario to quiet (cargo bench --bench apply) ..."
cargo bench -q -p kubeplay-core --bench apply

native="$(mktemp)"
trap 'rm -f "$native"' EXIT
for s in "${sizes[@]}"; do
  log "native: $s ..."
  cargo bench -q -p kubeplay-core --bench scale -- --json "$s" | tee -a "$native"
done

if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then
  log "building the site (trunk build --release) ..."
  trunk build --release
fi
[ -f dist/index.html ] || die "bench: dist/index.html is missing (build the site first)"
log "browser: ${sizes[*]} in headless Chromium ..."
node tests/e2e/bench.mjs --native "$native" "${sizes[@]}"
