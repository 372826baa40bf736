#!/bin/sh
# Runs every benchmark whose figures the README quotes, in the README's order,
# with the README's commands.  Usage: sh scripts/run-bench.sh [BUILD_DIR]
# Output goes to stdout; bench_estimate also writes accuracy.csv in the
# current directory.  On 2 cores the whole run takes about 30 minutes,
# bench_estimate and bench_power --full being most of it.
set -eu
B=${1:-build}
run() { echo "\$ $*"; "$@"; echo; }
run "./$B/bench_estimate" --threads 2 --csv accuracy.csv
run "./$B/tests/sampler/test_sim_hw"
run "./$B/bench_sim" --config v100 --config gtx480
run "./$B/bench_emu"
run "./$B/bench_trace"
run "./$B/bench_cacti" --split 2
run "./$B/tests/power/test_power_bands_gtx480"
run "./$B/bench_power" --full
