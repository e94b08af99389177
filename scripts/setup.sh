#!/usr/bin/env bash
# Installs what kubeplay's build and tests need, each only when missing or at the wrong version:
#   - the wasm32-unknown-unknown target of the toolchain pinned in rust-toolchain.toml (rustup)
#   - Trunk 0.21.x                                   (cargo install; compiles, ~7 min the first time)
#   - wasm-bindgen-cli at Cargo.lock's wasm-bindgen   (cargo install; compiles, ~2 min the first time)
#     (also provides wasm-bindgen-test-runner)
#   - wasm-opt from npm binaryen@132, in $KUBEPLAY_TOOLS (default ~/.cache/kubeplay-tools)
#   - esbuild from npm, in $KUBEPLAY_TOOLS too (minifies the page's JavaScript)
#   - Chromium and ChromeDriver from Debian           (apt-get, ~1 min)
#   - the end-to-end tests' npm packages in tests/e2e (npm ci, playwright-core only, no browsers)
# A second run checks versions only and takes a few seconds.
#
# Run it (`./scripts/setup.sh`) or source it (`. scripts/setup.sh`); sourcing also leaves PATH set
# up in the calling shell. Other scripts get the PATH from scripts/lib.sh.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

_kp_installed=()   # what this run installed
_kp_present=()     # what was already there

# Waits while another process installs the same thing (e.g. someone ran the same cargo install by
# hand), so that two compilations of the same tool never race.
_kp_wait_for() {
  local pattern="$1" what="$2" waited=0
  while pgrep -f "$pattern" >/dev/null 2>&1; do
    if [ "$waited" -eq 0 ]; then log "waiting for another process that is installing $what ..."; fi
    sleep 5; waited=$((waited + 5))
    if [ "$waited" -ge 3600 ]; then die "setup: gave up waiting (1 h) for another install of $what"; fi
  done
}

# Runs a command as root (directly, or through sudo when not root).
_kp_as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else return 1
  fi
}

setup_wasm_target() {
  local tc
  tc="$(rust_toolchain)"
  [ -n "$tc" ] || die "setup step 'Rust toolchain': no channel found in rust-toolchain.toml"
  command -v rustup >/dev/null 2>&1 \
    || die "setup step 'Rust toolchain': rustup is not installed (https://rustup.rs); it is needed for toolchain $tc"
  if ! rustup toolchain list | grep -q "^$tc"; then
    log "installing Rust toolchain $tc (rustup, about 1 minute) ..."
    rustup toolchain install "$tc" --profile minimal \
      || die "setup step 'Rust toolchain': 'rustup toolchain install $tc' failed"
  fi
  if rustup target list --installed --toolchain "$tc" 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    _kp_present+=("wasm32-unknown-unknown ($tc)")
  else
    log "installing the wasm32-unknown-unknown target for Rust $tc (rustup, under a minute) ..."
    rustup target add --toolchain "$tc" wasm32-unknown-unknown \
      || die "setup step 'wasm target': 'rustup target add --toolchain $tc wasm32-unknown-unknown' failed"
    _kp_installed+=("wasm32-unknown-unknown ($tc)")
  fi
}

setup_trunk() {
  local have
  have="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
  case "$have" in
    "$TRUNK_VERSION_PREFIX"*) _kp_present+=("trunk $have"); return ;;
  esac
  _kp_wait_for 'cargo install .*trunk' "Trunk"
  have="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
  case "$have" in
    "$TRUNK_VERSION_PREFIX"*) _kp_installed+=("trunk $have (by another process)"); return ;;
  esac
  log "installing Trunk $TRUNK_VERSION_REQ${have:+ (found $have)} with cargo install: it compiles from source, about 7 minutes on 2 cores ..."
  local t0; t0="$(now_s)"
  (cd "$KUBEPLAY_ROOT" && cargo install --locked trunk --version "$TRUNK_VERSION_REQ" --force) \
    || die "setup step 'Trunk': 'cargo install --locked trunk --version $TRUNK_VERSION_REQ' failed"
  have="$(trunk --version 2>/dev/null | awk '{print $2}' || true)"
  case "$have" in
    "$TRUNK_VERSION_PREFIX"*) ;;
    *) die "setup step 'Trunk': installed, but 'trunk --version' says '${have:-nothing}' (is $CARGO_BIN shadowed on PATH?)" ;;
  esac
  _kp_installed+=("trunk $have ($(( $(now_s) - t0 ))s)")
}

setup_wasm_bindgen() {
  local want have have_runner
  want="$(wasm_bindgen_version)"
  [ -n "$want" ] || die "setup step 'wasm-bindgen-cli': no wasm-bindgen package found in Cargo.lock"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  have_runner="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have" = "$want" ] && [ "$have_runner" = "$want" ]; then
    _kp_present+=("wasm-bindgen $have"); return
  fi
  _kp_wait_for 'cargo install .*wasm-bindgen-cli' "wasm-bindgen-cli"
  log "installing wasm-bindgen-cli $want${have:+ (found $have)} with cargo install: it compiles from source, about 2 minutes ..."
  local t0; t0="$(now_s)"
  # Not --locked: its lock file names a dependency version the registry no longer has.
  (cd "$KUBEPLAY_ROOT" && cargo install wasm-bindgen-cli --version "=$want" --force) \
    || die "setup step 'wasm-bindgen-cli': 'cargo install wasm-bindgen-cli --version =$want' failed"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  [ "$have" = "$want" ] \
    || die "setup step 'wasm-bindgen-cli': installed, but 'wasm-bindgen --version' says '${have:-nothing}', not $want"
  _kp_installed+=("wasm-bindgen $have ($(( $(now_s) - t0 ))s)")
}

_kp_wasm_opt_version() {
  # "wasm-opt version 132 (version_132)" -> 132
  "$BINARYEN_BIN/wasm-opt" --version 2>/dev/null | awk '{print $3}' || true
}

# Installs npm package SPEC into DIR (a tools folder of its own), for setup step STEP.
_kp_npm_install() {
  local step="$1" dir="$2" spec="$3"
  command -v npm >/dev/null 2>&1 \
    || die "setup step '$step': npm is not installed (Node.js 20 and npm are needed)"
  log "installing $step ($spec from npm) into $dir, under a minute ..."
  mkdir -p "$dir" \
    || die "setup step '$step': cannot create $dir (set KUBEPLAY_TOOLS to a writable folder)"
  [ -f "$dir/package.json" ] \
    || printf '{ "name": "kubeplay-tools-%s", "private": true }\n' "$(basename "$dir")" >"$dir/package.json"
  npm install --prefix "$dir" "$spec" --save-exact --no-audit --no-fund \
    || die "setup step '$step': 'npm install --prefix $dir $spec' failed"
}

setup_wasm_opt() {
  local have
  have="$(_kp_wasm_opt_version)"
  if [ "$have" != "$BINARYEN_VERSION" ]; then
    _kp_npm_install wasm-opt "$BINARYEN_DIR" "$BINARYEN_NPM_SPEC"
    have="$(_kp_wasm_opt_version)"
    [ "$have" = "$BINARYEN_VERSION" ] \
      || die "setup step 'wasm-opt': installed, but '$BINARYEN_BIN/wasm-opt --version' says '${have:-nothing}'"
    _kp_installed+=("wasm-opt $have")
  else
    _kp_present+=("wasm-opt $have")
  fi
  [ "$(command -v wasm-opt)" = "$BINARYEN_BIN/wasm-opt" ] \
    || die "setup step 'wasm-opt': 'wasm-opt' on PATH is $(command -v wasm-opt || echo nothing), not $BINARYEN_BIN/wasm-opt"
}

setup_esbuild() {
  local have
  have="$("$KUBEPLAY_ESBUILD" --version 2>/dev/null || true)"
  if [ "$have" != "$ESBUILD_VERSION" ]; then
    _kp_npm_install esbuild "$ESBUILD_DIR" "esbuild@$ESBUILD_VERSION"
    have="$("$KUBEPLAY_ESBUILD" --version 2>/dev/null || true)"
    [ "$have" = "$ESBUILD_VERSION" ] \
      || die "setup step 'esbuild': installed, but '$KUBEPLAY_ESBUILD --version' says '${have:-nothing}'"
    _kp_installed+=("esbuild $have")
  else
    _kp_present+=("esbuild $have")
  fi
}

setup_chromium() {
  if [ -x "$CHROMIUM" ] && [ -x "$CHROMEDRIVER" ]; then
    _kp_present+=("chromium $("$CHROMIUM" --version 2>/dev/null | awk '{print $2}' || true)")
    return
  fi
  command -v apt-get >/dev/null 2>&1 \
    || die "setup step 'Chromium': $CHROMIUM or $CHROMEDRIVER is missing and apt-get is not available; install chromium and chromium-driver"
  log "installing Chromium and ChromeDriver from Debian (apt-get, about 1-2 minutes) ..."
  _kp_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 update \
    || die "setup step 'Chromium': 'apt-get update' failed (root or sudo needed)"
  _kp_as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y chromium chromium-driver \
    || die "setup step 'Chromium': 'apt-get install -y chromium chromium-driver' failed"
  [ -x "$CHROMIUM" ] && [ -x "$CHROMEDRIVER" ] \
    || die "setup step 'Chromium': installed, but $CHROMIUM or $CHROMEDRIVER is still missing"
  _kp_installed+=("chromium $("$CHROMIUM" --version 2>/dev/null | awk '{print $2}' || true)")
}

setup_e2e_deps() {
  local dir="$KUBEPLAY_ROOT/tests/e2e"
  [ -f "$dir/package-lock.json" ] || die "setup step 'e2e deps': $dir/package-lock.json is missing"
  if [ -f "$dir/node_modules/.package-lock.json" ] \
     && [ ! "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    _kp_present+=("e2e npm packages")
    return
  fi
  command -v npm >/dev/null 2>&1 || die "setup step 'e2e deps': npm is not installed (Node.js 20 and npm are needed)"
  log "installing the end-to-end tests' npm packages (npm ci in tests/e2e, seconds) ..."
  (cd "$dir" && npm ci --no-audit --no-fund) || die "setup step 'e2e deps': 'npm ci' in tests/e2e failed"
  _kp_installed+=("e2e npm packages")
}

_kp_join() { local out="" x; for x in "$@"; do out+="${out:+, }$x"; done; printf '%s' "${out:-nothing}"; }

kubeplay_setup() {
  local t0; t0="$(now_s)"
  setup_wasm_target
  setup_trunk
  setup_wasm_bindgen
  setup_wasm_opt
  setup_esbuild
  setup_chromium
  setup_e2e_deps
  local took=$(( $(now_s) - t0 ))
  if [ "${#_kp_installed[@]}" -gt 0 ]; then
    ok "setup: installed $(_kp_join "${_kp_installed[@]}"); already present: $(_kp_join "${_kp_present[@]}") (${took}s)"
  else
    ok "setup: all present: $(_kp_join "${_kp_present[@]}") (${took}s)"
  fi
}

# Everything the set-up prints goes to stderr, so that callers can use stdout for their own output.
kubeplay_setup >&2
