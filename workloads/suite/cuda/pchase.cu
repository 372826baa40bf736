// pchase.cu - pointer-chase latency microbenchmark (after Saavedra's
// stride benchmark as used on GPUs by Wong et al., ISPASS 2010, and Jia et
// al., arXiv:1804.06826, 2018).
//
// A single thread follows a chain of pointers p = *p through an array whose
// slots form one random cycle over the footprint; each slot holds the
// address of the next one.  Each load's address is the previous load's
// value, so loads cannot overlap, and there is no index arithmetic between
// them: the time per step is the load-to-use latency of the level the
// footprint fits in.  The kernel first walks `warm` steps (to bring the
// footprint into the caches), then `steps` timed steps bracketed by
// clock64() reads; the elapsed clocks go to out[1] and the final pointer to
// out[0] (which also keeps the chain from being optimised away).
extern "C" __global__ void pchase(const unsigned long long *start, unsigned warm, unsigned steps,
                                  unsigned long long *__restrict__ out)
{
    const unsigned long long *p = start;
    for (unsigned i = 0; i < warm; i++)
        p = (const unsigned long long *)*p;
    long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++)
        p = (const unsigned long long *)*p;
    long long t1 = clock64();
    out[0] = (unsigned long long)p;
    out[1] = (unsigned long long)(t1 - t0);
}
