#!/bin/sh
# Regenerate the committed PTX of the test kernels (needs nvcc; the build and
# the tests do not).  Run from this directory: ./regen.sh
set -e
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for f in structs calls math64 shuffle barrier; do
    "$NVCC" -arch=sm_75 -O3 -ptx "$f.cu" -o "$f.ptx"
done
# device functions as nvcc emits them without optimisation (-G: debug build)
"$NVCC" -arch=sm_75 -G -ptx calls.cu -o calls_G.ptx
