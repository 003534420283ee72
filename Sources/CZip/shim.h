// libzip (Debian's libzip-dev) for Swift: dotLottie archives are read with
// it, from memory. Only SceneFiles imports this module.
#include <zip.h>
