#!/bin/sh
# Runs every benchmark whose figures the README quotes, in the README's order,
# with the README's commands.  Usage: sh scripts/run-bench.sh [BUILD_DIR]
# Output goes to stdout; bench_estimate also writes accuracy.csv in the
# current directory.  On 2 cores the whole run takes about an hour and a half,
# the bench_estimate runs and bench_power --full being most of it.
set -eu
B=${1:-build}
run() { echo "\$ $*"; "$@"; echo; }
run "./$B/bench_estimate" --threads 2 --csv accuracy.csv
LARGER="--workloads vectoradd,saxpy,sgemm_naive,sgemm_tiled,transpose_naive,transpose_tiled,reduction,histogram_global,histogram_shared,hotspot,kmeans,blackscholes,fma_throughput --size vectoradd=4194304,saxpy=4194304,sgemm_naive=320,sgemm_tiled=320,transpose_naive=2048,transpose_tiled=2048,reduction=16777216,histogram_global=4194304,histogram_shared=4194304,hotspot=512,kmeans=32768,blackscholes=1048576,fma_throughput=1280"
# shellcheck disable=SC2086 # LARGER is a list of arguments
run "./$B/bench_estimate" --threads 2 $LARGER
# shellcheck disable=SC2086
run "./$B/bench_estimate" --threads 2 --reuse $LARGER
run "./$B/bench_estimate" --threads 2 --reuse
run "./$B/tests/sampler/test_sim_hw"
run "./$B/bench_sim" --config v100 --config gtx480 --repeat 3
run "./$B/bench_emu"
run "./$B/bench_trace"
run "./$B/bench_cacti" --split 2
run "./$B/tests/power/test_power_bands_gtx480"
run "./$B/bench_power" --full
