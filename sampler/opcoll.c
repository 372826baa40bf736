/*
 * opcoll.c - operand collectors and register-file bank conflicts.
 *
 * An issued instruction takes an operand collector unit of its scheduler
 * and reads its distinct source registers from the register file.  The
 * file of each scheduler has sm.rf_banks / sm.schedulers banks, each
 * serving sm.rf_bank_ports reads per cycle; register r of warp slot w lives
 * in bank (r + w) mod banks (the warp-id swizzle spreads warps over banks,
 * as in GPGPU-Sim's operand collector).  Volta has 2 banks per sub-core,
 * 64 bits wide, and an FFMA stalls only when all three sources are in one
 * bank (Jia et al., "Dissecting the NVIDIA Volta GPU Architecture via
 * Microbenchmarking", 2018, Section 2.2): 2 ports per bank.  More reads of
 * one bank than it has ports, or a bank still busy with an earlier
 * instruction's reads, cost extra cycles.  A bank's reads are numbered in
 * port slots (cycle * ports + port), so one counter per bank suffices.  The config's
 * latencies already include one conflict-free operand-read cycle, so only
 * the extra cycles delay dispatch; the collector is held until the reads
 * are done, which is how conflicts also throttle issue.
 *
 * Not modelled: write-back port conflicts (results are written when
 * ready), and operand reuse caches.
 */
#include "sm.h"

uint32_t sim_opcoll_read(sim_gpu *g, sim_sched_unit *su, uint32_t warp_slot, const ws_inst *in, uint64_t now)
{
    uint32_t nb = g->rf_banks_per_sched, ports = g->cfg.sm.rf_bank_ports ? g->cfg.sm.rf_bank_ports : 1;
    uint64_t done = now + 1;
    for (int i = 0; i < in->nsrc; i++) {
        uint16_t r = in->src[i];
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= in->src[j] == r;
        if (dup)
            continue;
        uint64_t *slot = &su->bank_free[(r + warp_slot) % nb];
        uint64_t s = *slot > now * ports ? *slot : now * ports;
        *slot = s + 1;
        if (s / ports + 1 > done)
            done = s / ports + 1;
    }
    return (uint32_t)(done - (now + 1));
}
