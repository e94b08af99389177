#!/usr/bin/env bash
# Runs all of kubeplay's tests, in three layers, and exits non-zero if any layer fails:
#   native  cargo test --workspace                       (core, CLI and the app's plain Rust tests)
#   wasm    the app's wasm-bindgen tests in headless Chromium (wasm-bindgen-test-runner + ChromeDriver)
#   e2e     trunk build --release, then tests/e2e/*.test.mjs (node --test + playwright-core)
#           against dist/ served on 127.0.0.1
# Installs what is missing first (scripts/setup.sh). `scripts/test.sh e2e` (or `native`,
# `wasm`, several) runs only those layers.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

layers=("$@")
[ "${#layers[@]}" -gt 0 ] || layers=(native wasm e2e)
for layer in "${layers[@]}"; do
  case "$layer" in native | wasm | e2e) ;; *) die "usage: scripts/test.sh [native] [wasm] [e2e]" ;; esac
done

# A CI run builds once from a fresh clone: incremental caches would only take disk.
if [ -n "${CI:-}" ]; then export CARGO_INCREMENTAL=0; fi

bash "$KUBEPLAY_ROOT/scripts/setup.sh" || die "test: set-up failed (see above); no tests were run"
cd "$KUBEPLAY_ROOT"

E2E_SERVER_PID=""
E2E_DIR="$KUBEPLAY_ROOT/tests/e2e"
ARTIFACTS="$E2E_DIR/artifacts"
cleanup() {
  if [ -n "$E2E_SERVER_PID" ] && kill -0 "$E2E_SERVER_PID" 2>/dev/null; then
    kill "$E2E_SERVER_PID" 2>/dev/null || true
    wait "$E2E_SERVER_PID" 2>/dev/null || true
  fi
  E2E_SERVER_PID=""
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# Layer 1: native.
layer_native() {
  cargo test --workspace
}

# Layer 2: wasm-bindgen tests of the app in headless Chromium. Every test binary runs in the
# browser (WASM_BINDGEN_USE_BROWSER), with the capabilities in app/webdriver.json (Debian's
# Chromium, flags for root on a closed network). --tests: unit and integration tests (doc tests
# run natively in layer 1).
layer_wasm() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER="$CHROMEDRIVER" \
  WASM_BINDGEN_TEST_WEBDRIVER_JSON="$KUBEPLAY_ROOT/app/webdriver.json" \
  WASM_BINDGEN_USE_BROWSER=1 \
  WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}" \
  WASM_BINDGEN_TEST_DRIVER_TIMEOUT="${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-30}" \
    timeout --kill-after=30 2400 \
    cargo test -p kubeplay-app --target wasm32-unknown-unknown --tests
}

# Layer 3: the built site in a real browser.
layer_e2e() {
  log "e2e: trunk build --release (offline; wasm-bindgen and wasm-opt from PATH) ..."
  if ! timeout --kill-after=30 2400 trunk build --release; then
    fail "e2e: trunk build --release failed"; return 1
  fi
  [ -f dist/index.html ] || { fail "e2e: trunk build produced no dist/index.html"; return 1; }

  mkdir -p "$ARTIFACTS"
  local server_log="$ARTIFACTS/server.log" url="" i
  : >"$server_log"
  node "$E2E_DIR/server.mjs" --root "$KUBEPLAY_ROOT/dist" --port "${E2E_PORT:-0}" >"$server_log" 2>&1 &
  E2E_SERVER_PID=$!
  for i in $(seq 1 100); do   # at most 10 s
    url="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$server_log" | head -n 1)"
    [ -n "$url" ] && break
    kill -0 "$E2E_SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    fail "e2e: the static server did not start:"; cat "$server_log" >&2; cleanup; return 1
  fi
  log "e2e: serving dist/ at $url; running tests/e2e/*.test.mjs in Chromium ..."

  local rc=0
  KUBEPLAY_E2E_URL="$url" CHROMIUM="$CHROMIUM" \
    timeout --kill-after=30 900 \
    node --test --test-timeout=120000 --test-concurrency=1 "$E2E_DIR"/*.test.mjs || rc=$?
  cleanup
  return "$rc"
}

summary=()
status=0
for layer in "${layers[@]}"; do
  case "$layer" in
    native) title="native: cargo test --workspace" ;;
    wasm) title="wasm: kubeplay-app's wasm-bindgen tests in headless Chromium" ;;
    e2e) title="e2e: built site in Chromium (node --test, playwright-core)" ;;
  esac
  log "layer $title"
  t0="$(now_s)"
  rc=0
  "layer_$layer" || rc=$?
  took=$(( $(now_s) - t0 ))
  if [ "$rc" -eq 0 ]; then
    summary+=("${_kp_green}PASS${_kp_reset} $title (${took}s)")
  else
    summary+=("${_kp_red}FAIL${_kp_reset} $title (exit $rc, ${took}s)")
    status=1
  fi
done

printf '\n%s==> test summary%s\n' "$_kp_bold" "$_kp_reset"
for line in "${summary[@]}"; do printf '  %s\n' "$line"; done
exit "$status"
