/* sim/app/malloc_conf.c: jemalloc options of the gpusim executable and the
 * benchmarks (linked into those programs only, not into libgpusim, so a
 * program embedding the library keeps its own allocator settings).
 *
 * NOTE(thp): jemalloc reads the string malloc_conf once, at its first
 * allocation. "thp:always" asks the kernel for transparent huge pages
 * (madvise MADV_HUGEPAGE) on every extent jemalloc maps, and
 * "metadata_thp:always" on its own metadata. A timing run touches its
 * whole state every few simulated cycles: SMs, L2 tags and data, DRAM
 * banks, the device-memory store, message pools (tens of MB at medium
 * size), and with 4 KiB pages most of those touches miss the TLB; with
 * 2 MiB pages they do not. Measured on the 2-core development VM (both
 * runs at once, one per core, the same binary, docs/engine.md "Per-thread
 * speed", session 29): bfs medium 102.6 s -> 92.6 s, bfs small 0.88-0.97,
 * hotspot small 0.92-0.96; statistics identical. The kernel must allow it
 * (/sys/kernel/mm/transparent_hugepage/enabled: always or madvise, the
 * Debian default is madvise); with "never" the option does nothing.
 * The price is resident memory: the peak grows by 20-30 MB (2 host
 * threads: bfs tiny 21 -> 49 MB, bfs small 49 -> 69 MB, sgemm small 62 ->
 * 85 MB), since arenas and the message pools now take whole 2 MiB pages.
 * The environment still decides last, since jemalloc applies the
 * MALLOC_CONF variable after this string:
 * MALLOC_CONF=thp:default,metadata_thp:disabled turns it off for one run. Read-only after start: no
 * mutable state. */
#ifndef GPUSIM_NO_JEMALLOC
const char *malloc_conf = "thp:always,metadata_thp:always";
#endif
