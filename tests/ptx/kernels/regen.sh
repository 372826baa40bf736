#!/bin/sh
# Regenerate the committed PTX of the test kernels (needs nvcc; the build and
# the tests do not).  Run from this directory: ./regen.sh
# NAME.ptx is the optimised build; NAME_G.ptx the debug build (-G), which is
# what nvcc emits without optimisation: device functions stay calls, values
# go through local memory, and the file carries .loc and DWARF sections.
set -e
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
for f in structs calls math64 shuffle barrier; do
    "$NVCC" -arch=sm_75 -O3 -ptx "$f.cu" -o "$f.ptx"
    "$NVCC" -arch=sm_75 -G -ptx "$f.cu" -o "${f}_G.ptx"
done
