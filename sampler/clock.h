/*
 * clock.h - exact integer arithmetic between clock domains.
 *
 * A GPU runs its SMs, interconnect, L2 and DRAM from different clocks
 * (gpu.core_clock_mhz, icnt_clock_mhz, l2_clock_mhz, dram_clock_mhz).  Each
 * domain counts its own ticks; tick k of a domain with frequency f happens
 * at time k / f.  Frequencies are kept as integers (kHz, divided by their
 * common gcd), so every conversion below is one multiply and one divide on
 * integers: there is no accumulated floating-point drift, and results are
 * identical on every run and machine.
 *
 * Convention used by the whole memory system: during sim_mem cycle(now) the
 * ticks of a domain with time <= now / f_core are processed.  A tick's
 * effects become visible to the SM at the first core cycle whose start is at
 * or after the tick (clk_to_core).  An item produced at tick k of domain A
 * for domain B becomes available at the first tick of B at or after the same
 * instant (clk_convert) -- except towards a domain that goes first among
 * ticks at the same instant (DRAM before L2, see mem_detailed.c), where it is
 * the first tick strictly after (clk_convert_after): that tick of B has
 * already been processed, or skipped because B had nothing to do, and which
 * of the two must not decide when the item is seen.
 *
 * Limit: tick * f must fit in 64 bits, i.e. about 3e12 ticks at 5 GHz
 * (hours of simulated time), far beyond any kernel we simulate.
 */
#ifndef SIM_CLOCK_H
#define SIM_CLOCK_H

#include <stdint.h>

/* Last tick of a domain (frequency f) whose time is <= core cycle c. */
static inline uint64_t clk_ticks_through(uint64_t c, uint64_t f_core, uint64_t f)
{
    return f == f_core ? c : c * f / f_core;
}

/* First tick of domain `to` whose time is >= tick k of domain `from`. */
static inline uint64_t clk_convert(uint64_t k, uint64_t f_from, uint64_t f_to)
{
    if (f_from == f_to) /* common case (one clock for SM, crossbar, L2): no division */
        return k;
    return (k * f_to + f_from - 1) / f_from;
}

/* First tick of domain `to` whose time is > tick k of domain `from`. */
static inline uint64_t clk_convert_after(uint64_t k, uint64_t f_from, uint64_t f_to)
{
    if (f_from == f_to)
        return k + 1;
    return k * f_to / f_from + 1;
}

/* First core cycle whose start is >= tick k of a domain of frequency f. */
static inline uint64_t clk_to_core(uint64_t k, uint64_t f, uint64_t f_core)
{
    return clk_convert(k, f, f_core);
}

/* Is tick a of domain fa strictly earlier than tick b of domain fb? */
static inline int clk_before(uint64_t a, uint64_t fa, uint64_t b, uint64_t fb)
{
    return a * fb < b * fa;
}

#endif
