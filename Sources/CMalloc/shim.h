// glibc's malloc tuning (mallopt, M_MMAP_THRESHOLD, M_TRIM_THRESHOLD), which
// the Glibc module does not export.
#include <malloc.h>
