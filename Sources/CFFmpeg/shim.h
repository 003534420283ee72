// FFmpeg (libavcodec, libavformat, libavutil, libswscale) for Swift. Only
// VideoOutput imports this module; what Swift cannot import (function-like
// macros such as AVERROR, AV_NOPTS_VALUE) is in CFFmpegShim.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
