#!/usr/bin/env bash
# The long checks that do not fit in every CI run. Exits non-zero if any failed.
#
#   scripts/nightly.sh [CASES]
#
#   invariants  core/tests/invariants.rs with CASES generated scenarios (default 20000) of the
#               full size (1-6 nodes, 1-4 Deployments of 0-12 replicas, up to 6 steps), built in
#               release; CI runs 1,000 small ones in debug as part of `cargo test --workspace`.
#
# Environment:
#   KUBEPLAY_PROPTEST_CASES  the number of scenarios, if CASES is not given
#   KUBEPLAY_PROPTEST_SIZE   full (default here) or small
#   PROPTEST_RNG_SEED        replays a run: every run prints its seed, and a failure prints the
#                            shrunk scenario as YAML (`kubeplay run` takes it as it is)
set -euo pipefail
# A fresh seed each night (CI runs a fixed one); it is printed, so a failure can be replayed.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}"

# shellcheck source=scripts/lib.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"

USAGE="usage: scripts/nightly.sh [CASES]"
case "${1:-}" in -h | --help) echo "$USAGE"; exit 0 ;; esac
cases="${1:-${KUBEPLAY_PROPTEST_CASES:-20000}}"
[[ "$cases" =~ ^[0-9]+$ ]] || die "$USAGE"
cd "$KUBEPLAY_ROOT"

started="$(now_s)"
log "nightly: invariants over $cases generated scenarios (release build) ..."
if KUBEPLAY_PROPTEST_CASES="$cases" KUBEPLAY_PROPTEST_SIZE="${KUBEPLAY_PROPTEST_SIZE:-full}" \
  cargo test -p kubeplay-core --release --test invariants -- --nocapture; then
  ok "nightly: invariants held over $cases scenarios in $(($(now_s) - started)) s"
else
  die "nightly: invariants failed (the shrunk scenario and the seed to replay it are above)"
fi
