# shellcheck shell=bash
# Shared helpers for kubeplay's scripts. Source it; it only defines variables and functions
# and extends PATH, it installs nothing (scripts/setup.sh does that).

# The repository root, whatever the caller's working directory.
KUBEPLAY_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KUBEPLAY_ROOT

# Tools that are not Rust crates (wasm-opt from npm) live outside the repository, so that every
# clone on the machine reuses them.
KUBEPLAY_TOOLS="${KUBEPLAY_TOOLS:-$HOME/.cache/kubeplay-tools}"
export KUBEPLAY_TOOLS

# Exact versions. wasm-bindgen-cli's comes from Cargo.lock (see wasm_bindgen_version below).
BINARYEN_VERSION="132"        # npm package binaryen@132 (its wasm-opt prints "version 132")
BINARYEN_NPM_SPEC="binaryen@132.0.0"
TRUNK_VERSION_REQ="~0.21"     # Trunk 0.22 needs a newer Rust than the pinned 1.95
TRUNK_VERSION_PREFIX="0.21."
BINARYEN_DIR="$KUBEPLAY_TOOLS/binaryen"
BINARYEN_BIN="$BINARYEN_DIR/node_modules/.bin"
# esbuild minifies the wasm-bindgen JavaScript in release builds (scripts/minify-js.mjs).
ESBUILD_VERSION="0.28.2"
ESBUILD_DIR="$KUBEPLAY_TOOLS/esbuild"
KUBEPLAY_ESBUILD="$ESBUILD_DIR/node_modules/.bin/esbuild"
export KUBEPLAY_ESBUILD

# npm's binaryen first (Debian's wasm-opt, version 108, produces wasm that fails to load), then
# cargo's bin (trunk, wasm-bindgen, wasm-bindgen-test-runner), then whatever the caller had.
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
case "$PATH" in
  "$BINARYEN_BIN:$CARGO_BIN:"*) ;;
  *) PATH="$BINARYEN_BIN:$CARGO_BIN:$PATH" ;;
esac
export PATH

# Trunk must never reach the network: every tool it needs is on PATH at the right version.
export TRUNK_OFFLINE=true
export TRUNK_SKIP_VERSION_CHECK=true
# playwright-core never downloads browsers, but be explicit: we use Debian's Chromium.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

CHROMIUM=/usr/bin/chromium
CHROMEDRIVER=/usr/bin/chromedriver
# The flags Chromium needs here (root, closed network: --headless --no-sandbox --disable-gpu
# --disable-quic --no-first-run --disable-background-networking --disable-component-update
# --disable-sync, and a fresh user data dir) are in app/webdriver.json (wasm tests, ChromeDriver
# adds the profile) and tests/e2e/harness.mjs (playwright adds the profile).

if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then
  _kp_bold=$'\033[1m'; _kp_red=$'\033[31m'; _kp_green=$'\033[32m'; _kp_reset=$'\033[0m'
else
  _kp_bold=""; _kp_red=""; _kp_green=""; _kp_reset=""
fi

log()  { printf '%s==>%s %s\n' "$_kp_bold" "$_kp_reset" "$*" >&2; }
ok()   { printf '%s ok%s %s\n' "$_kp_green" "$_kp_reset" "$*" >&2; }
fail() { printf '%sFAIL%s %s\n' "$_kp_red" "$_kp_reset" "$*" >&2; }
die()  { fail "$*"; exit 1; }

# The version of the wasm-bindgen crate in Cargo.lock (wasm-bindgen-cli must match it exactly).
wasm_bindgen_version() {
  awk '
    /^\[\[package\]\]/ { name = "" }
    /^name = "wasm-bindgen"$/ { name = "wasm-bindgen"; next }
    name == "wasm-bindgen" && /^version = / { gsub(/"/, "", $3); print $3; exit }
  ' "$KUBEPLAY_ROOT/Cargo.lock"
}

# The toolchain channel pinned in rust-toolchain.toml.
rust_toolchain() {
  sed -n 's/^[[:space:]]*channel[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' \
    "$KUBEPLAY_ROOT/rust-toolchain.toml" | head -n 1
}

# Seconds since the epoch (for "took Ns" messages).
now_s() { date +%s; }
