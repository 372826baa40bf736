#!/bin/sh
# regen_ptx.sh - regenerate the committed PTX and resource files of the
# workload suite from the CUDA sources.  Run by developers after editing
# cuda/*.cu; the build never runs it (it only embeds ptx/*.ptx, ptx/*.res).
#
#   workloads/suite/regen_ptx.sh            # uses nvcc/ptxas from CUDA_HOME or PATH
#
# For every cuda/NAME.cu it writes
#   ptx/NAME.ptx  nvcc -ptx -arch=sm_75 -O3 output
#   ptx/NAME.res  one line per kernel: "KERNEL REGS STATIC_SMEM_BYTES",
#                 parsed from `ptxas -v` compiling that PTX for sm_75
# sm_75 (Turing) is the oldest target CUDA 13 still accepts; the PTX is
# portable to later targets.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
ptxas=$cuda/bin/ptxas
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || { echo "regen_ptx.sh: nvcc not found" >&2; exit 1; }
[ -x "$ptxas" ] || ptxas=$(command -v ptxas) || { echo "regen_ptx.sh: ptxas not found" >&2; exit 1; }
arch=sm_75
mkdir -p "$here/ptx"
for cu in "$here"/cuda/*.cu; do
    name=$(basename "$cu" .cu)
    ptx="$here/ptx/$name.ptx"
    res="$here/ptx/$name.res"
    "$nvcc" -ptx -arch=$arch -O3 -o "$ptx" "$cu"
    # ptxas -v prints, per kernel:
    #   ptxas info    : Compiling entry function 'K' for 'sm_75'
    #   ptxas info    : Used R registers, S bytes smem, C bytes cmem[0]
    # ("S bytes smem" is omitted when the kernel has no static shared memory).
    "$ptxas" -arch=$arch -v -o /dev/null "$ptx" 2>&1 | awk '
        /Compiling entry function/ { k = $0; sub(/.*function .\047?/, "", k); sub(/\047.*/, "", k); next }
        /Used [0-9]+ registers/ && k != "" {
            regs = 0; smem = 0
            for (i = 1; i <= NF; i++) {
                if ($i ~ /^registers/) regs = $(i - 1)
                if ($i == "smem" || $i == "smem,") smem = $(i - 2)
            }
            print k, regs, smem; k = ""
        }' > "$res"
    [ -s "$res" ] || { echo "regen_ptx.sh: no kernels found in ptxas output for $name" >&2; exit 1; }
    echo "$name: $(wc -l < "$res") kernel(s)"
done
