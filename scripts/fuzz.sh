#!/usr/bin/env bash
# Fuzzes kubeplay-core with cargo-fuzz (libFuzzer): runs each target for a bounded time on its
# committed corpus and exits non-zero if any target found a crash (a panic, a timeout of more
# than 10 s on one input, or more than 2 GiB of memory).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
#   SECONDS_PER_TARGET  how long each target runs (libFuzzer's -max_total_time); default 600
#   TARGET              scenario_parse, apply_objects, cli_commands, share_link; default all
#
# Environment:
#   FUZZ_SANITIZER=none|address  default none: kubeplay-core is safe Rust, where a panic, hang
#                                or OOM needs no sanitizer, and the runs are about twice as fast;
#                                address checks the dependencies' unsafe code (libyaml, DEFLATE)
#   FUZZ_MERGE=1                 after each run, merge the inputs that found new coverage into
#                                the committed corpus (fuzz/corpus/<target>/, libFuzzer -merge=1),
#                                only those under FUZZ_MERGE_MAX_BYTES (default 1024)
#   FUZZ_JOBS=N                  libFuzzer -fork=N: N processes per target (default 1)
#
# The crate is fuzz/ (a workspace of its own, outside the main one), built with the nightly
# toolchain (`cargo +nightly fuzz`, this script only); the main project stays on the toolchain
# pinned in rust-toolchain.toml. Installs what is missing only: the nightly toolchain (rustup,
# minimal profile) and cargo-fuzz (cargo install --locked). Builds go to target/fuzz/<sanitizer>/;
# inputs found during a run go to target/fuzz/corpus/<target>/ (kept between runs, not
# committed); crashes to fuzz/artifacts/<target>/ (not committed). What each target does is in
# core/tests/fuzz_harness/mod.rs; a crash found becomes a test in core/tests/fuzz_regressions.rs.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

ALL_TARGETS=(scenario_parse apply_objects cli_commands share_link)
USAGE="usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   (targets: ${ALL_TARGETS[*]})"

seconds=600
if [ "$#" -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  seconds="$1"
  shift
fi
case "${1:-}" in -h | --help) echo "$USAGE"; exit 0 ;; esac
[ "$seconds" -gt 0 ] || die "$USAGE"
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=("${ALL_TARGETS[@]}")
for t in "${targets[@]}"; do
  [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || die "unknown target '$t'; $USAGE"
done

sanitizer="${FUZZ_SANITIZER:-none}"
case "$sanitizer" in none | address) ;; *) die "FUZZ_SANITIZER must be none or address, not '$sanitizer'" ;; esac
jobs="${FUZZ_JOBS:-1}"
merge_max="${FUZZ_MERGE_MAX_BYTES:-1024}"
[[ "$merge_max" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_MERGE_MAX_BYTES must be a positive number, not '$merge_max'"
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "FUZZ_JOBS must be a positive number, not '$jobs'"

# The tools, each installed only when missing.
command -v rustup >/dev/null 2>&1 || die "fuzz: rustup is needed for the nightly toolchain (https://rustup.rs)"
if ! rustup toolchain list | grep -q '^nightly'; then
  log "installing the nightly Rust toolchain (rustup, minimal profile; cargo-fuzz needs it) ..."
  rustup toolchain install nightly --profile minimal || die "fuzz: 'rustup toolchain install nightly' failed"
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  log "installing cargo-fuzz (cargo install --locked; compiles, a few minutes the first time) ..."
  cargo install cargo-fuzz --locked || die "fuzz: 'cargo install cargo-fuzz --locked' failed"
fi

cd "$KUBEPLAY_ROOT"
export CARGO_TARGET_DIR="$KUBEPLAY_ROOT/target/fuzz/$sanitizer"
fuzz=(cargo +nightly fuzz)
build_flags=(--fuzz-dir fuzz --debug-assertions --sanitizer "$sanitizer")

log "building the fuzz targets (nightly, sanitizer $sanitizer, debug assertions) into $CARGO_TARGET_DIR ..."
t0="$(now_s)"
for t in "${targets[@]}"; do
  "${fuzz[@]}" build "${build_flags[@]}" "$t" || die "fuzz: building $t failed"
done
ok "built in $(($(now_s) - t0))s"

dict_for() {
  case "$1" in
    scenario_parse | apply_objects) echo fuzz/dicts/scenario.dict ;;
    cli_commands) echo fuzz/dicts/cli.dict ;;
    share_link) echo fuzz/dicts/share.dict ;;
  esac
}

logs="$KUBEPLAY_ROOT/target/fuzz/logs"
mkdir -p "$logs"
summary=()
status=0
for t in "${targets[@]}"; do
  seeds="fuzz/corpus/$t"
  found="$KUBEPLAY_ROOT/target/fuzz/corpus/$t"
  mkdir -p "$seeds" "$found" "fuzz/artifacts/$t"
  log "fuzzing $t for ${seconds}s (corpus $seeds; new inputs in ${found#"$KUBEPLAY_ROOT"/}; log $logs/$t.log) ..."
  args=(
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
    -dict="$(dict_for "$t")" -print_final_stats=1
  )
  [ "$jobs" -gt 1 ] && args+=(-fork="$jobs" -ignore_crashes=0 -ignore_timeouts=0 -ignore_ooms=0)
  rc=0
  # The first corpus directory receives new inputs: the scratch one, so that the committed
  # corpus only changes through FUZZ_MERGE=1.
  "${fuzz[@]}" run "${build_flags[@]}" "$t" "$found" "$seeds" -- "${args[@]}" >"$logs/$t.log" 2>&1 || rc=$?
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -n 1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log" | tail -n 1)"
  if [ "$rc" -eq 0 ]; then
    summary+=("${_kp_green}PASS${_kp_reset} $t: ${seconds}s, ${execs:-?} inputs, ${rate:-?} exec/s")
  else
    status=1
    artifact="$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$logs/$t.log" | tail -n 1)"
    summary+=("${_kp_red}FAIL${_kp_reset} $t: exit $rc after ${execs:-?} inputs; input ${artifact:-(see log)}")
    fail "$t: crash; the end of $logs/$t.log:"
    tail -n 40 "$logs/$t.log" >&2
    [ -n "$artifact" ] && log "reproduce: cargo +nightly fuzz run ${build_flags[*]} $t $artifact" \
      && log "minimize:  cargo +nightly fuzz tmin ${build_flags[*]} $t $artifact"
  fi
  if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    # Only small inputs, and only those that add coverage to what is committed: the corpus
    # stays small (under 2 MB in all).
    small="$KUBEPLAY_ROOT/target/fuzz/merge/$t"
    rm -rf "$small"
    mkdir -p "$small"
    find "$found" -type f -size -"$merge_max"c -exec cp {} "$small"/ \;
    log "merging new coverage from $(find "$small" -type f | wc -l) inputs under $merge_max bytes into $seeds ..."
    "${fuzz[@]}" run "${build_flags[@]}" "$t" "$seeds" "$small" -- -merge=1 -timeout=10 \
      -rss_limit_mb=2048 >>"$logs/$t.log" 2>&1 || fail "$t: merge failed (see $logs/$t.log)"
  fi
done

printf '\n%s==> fuzz summary%s (sanitizer %s)\n' "$_kp_bold" "$_kp_reset" "$sanitizer"
for line in "${summary[@]}"; do printf '  %s\n' "$line"; done
exit "$status"
