import CPNG
import Raster
