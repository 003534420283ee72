// libpng for Swift. Only PNGCodec imports this module.
#include <png.h>
