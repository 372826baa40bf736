// bank.cu - shared-memory bank-conflict microbenchmark.
//
// Lane l of every warp repeatedly loads shared word l * stride.  With 32
// banks of 4-byte words, the lanes hit gcd(stride, 32)-way conflicts: stride
// 1 (or any odd stride) is conflict-free, stride 2 is 2-way, ..., stride 32
// puts all 32 lanes in bank 0.  The loads form a dependent chain (the array
// holds each slot's own index, so j = s[j] stays put), which stops the
// compiler from hoisting them and makes the time per load the shared-memory
// latency plus the conflict replays.  The array is BANK_WORDS words (32 *
// 32 * 4 = 4 KB), enough for stride 32.
#define BANK_WORDS 1024

extern "C" __global__ void shmem_bank_conflict(unsigned *__restrict__ out, unsigned stride, unsigned iters)
{
    __shared__ unsigned s[BANK_WORDS];
    for (unsigned i = threadIdx.x; i < BANK_WORDS; i += blockDim.x)
        s[i] = i;
    __syncthreads();
    unsigned j = ((threadIdx.x & 31u) * stride) % BANK_WORDS;
    unsigned acc = 0;
    for (unsigned i = 0; i < iters; i++) {
        j = s[j];
        acc += j;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
