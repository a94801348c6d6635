// The program's allocator settings: jemalloc reads `malloc_conf` at start-up (the MALLOC_CONF
// environment variable, read after it, still overrides it). Only the program sets these; the
// library imposes no allocator and no settings.
//
// thp:always: jemalloc asks for transparent huge pages (madvise MADV_HUGEPAGE) for the memory it
// maps. A table's items, hash-map slots and collections are read at random; with 2 MiB pages the
// translations of a few hundred MB fit the TLB. Measured (bench/README.md, "Simulator v2"): a
// simulation over 100,000 keys ran 9-17% faster; an idle `partstore serve` holds about 6 MB more
// (14 MB instead of 8 MB). Without jemalloc (sanitizer builds) the symbol is unused.
extern "C" {
// NOLINTNEXTLINE: the name and type are jemalloc's interface.
const char* malloc_conf = "thp:always";
}
