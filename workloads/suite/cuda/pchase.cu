// pchase.cu - pointer-chase latency microbenchmark (after Saavedra's
// stride benchmark as used on GPUs by Wong et al., ISPASS 2010, and Jia et
// al., arXiv:1804.06826, 2018).
//
// A single thread follows a dependent chain j = next[j] through an array
// whose slots form one random cycle over the footprint; each load's address
// depends on the previous load's value, so loads cannot overlap and the
// time per step is the load-to-use latency of the level the footprint fits
// in.  The kernel first walks `warm` steps (one lap, to bring the footprint
// into the caches), then `steps` timed steps bracketed by clock64() reads;
// the elapsed clocks go to out[1] and the final index to out[0] (which also
// keeps the chain from being optimised away).  Cycles per timed step =
// latency.
extern "C" __global__ void pchase(const unsigned *__restrict__ next, unsigned start, unsigned warm, unsigned steps,
                                  unsigned long long *__restrict__ out)
{
    unsigned j = start;
    for (unsigned i = 0; i < warm; i++)
        j = next[j];
    long long t0 = clock64();
    for (unsigned i = 0; i < steps; i++)
        j = next[j];
    long long t1 = clock64();
    out[0] = j;
    out[1] = (unsigned long long)(t1 - t0);
}
