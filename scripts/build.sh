#!/usr/bin/env bash
# Builds the optimised static site into dist/ (what to publish; see the README, "Embedding and
# hosting"). Installs what is missing first (scripts/setup.sh). Extra arguments go to
# `trunk build` (e.g. `--public-url /kubeplay/`; the default, relative URLs, works from any path).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

bash "$KUBEPLAY_ROOT/scripts/setup.sh" || die "build: set-up failed (see above); nothing was built"

cd "$KUBEPLAY_ROOT"
log "building the release site into dist/ ..."
# TRUNK_OFFLINE (lib.sh): Trunk uses wasm-bindgen and wasm-opt from PATH and downloads nothing.
trunk build --release "$@"
log "built: $(du -sh dist | cut -f1) in dist/ ($(ls dist | tr '\n' ' '))"
