// The program's allocator settings: jemalloc reads `malloc_conf` at start-up (the MALLOC_CONF
// environment variable, read after it, still overrides it). Only the program sets these; the
// library imposes no allocator and no settings.
//
// thp:always: jemalloc asks for transparent huge pages (madvise MADV_HUGEPAGE) for the memory it
// maps. A table's items, hash-map slots and collections are read at random; with 2 MiB pages the
// translations of a few hundred MB fit the TLB. Measured (bench/README.md, "Simulator v2"): a
// simulation over 100,000 keys ran 9-17% faster; an idle `partstore serve` holds about 6 MB more
// (14 MB instead of 8 MB).
//
// background_thread:true, dirty_decay_ms:1000: what the program frees goes back to the system
// within a second or two, by a jemalloc thread, whether or not the program allocates meanwhile.
// Without the thread jemalloc purges freed pages only from within later allocations, so an idle
// server kept what a burst had used: 500 connections abandoned mid-body (1 MB announced, 16 KB
// to 512 KB sent) left it 80-150 MB above its start after they closed, for good; with the thread
// and the default 10 s decay it took about 12 s. tests/server/abandoned_bodies_memory.py checks it
// (and the server's side of it: a connection holds about what its client sent; server.cc).
// In-process YCSB A and C (`partstore bench`) showed no difference beyond the run-to-run noise.
//
// Without jemalloc (sanitizer builds) the symbol is unused.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:always,background_thread:true,dirty_decay_ms:1000";
}
