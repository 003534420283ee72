// libpng for Swift. Only PNGCodec imports this module (CPNGShim, its C
// helper for writing, includes <png.h> directly).
#include <png.h>
