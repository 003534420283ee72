// libwebp's encoder and its animation encoder (libwebpmux) for Swift. Only
// VideoOutput imports this module.
#include <webp/encode.h>
#include <webp/mux.h>
