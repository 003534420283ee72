// FFmpeg's libraries, opened the first time a video is written or read
// rather than when `render` starts. Linked at build time they cost every
// process about 45 ms before main (150 shared libraries mapped and
// relocated: libavcodec brings every codec's library, libavformat every
// protocol's), which a `render --null` of 300 frames or a PNG still paid
// for nothing. Here each FFmpeg function Springframe calls is defined once,
// as a forwarder: its first call opens the libraries (dlopen, once per
// process) and looks the real function up in them (dlsym on the library's
// own handle, which never finds these forwarders), later calls jump
// straight there. The sonames come from the headers built against, so the
// libraries opened are the ones the build was checked with.
//
// `spf_ffmpeg_load` opens them and says why it could not; VideoOutput calls
// it (FFmpeg.load) before its first FFmpeg call, so a machine without the
// libraries gets a located error instead of the forwarders' abort.
#include "CFFmpegShim.h"

#include <dlfcn.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/version.h>
#include <libavformat/avformat.h>
#include <libavformat/version.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/version.h>
#include <libswscale/swscale.h>
#include <libswscale/version.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SPF_TEXT(x) #x
#define SPF_SONAME(name, major) "lib" name ".so." SPF_TEXT(major)

// In the order they depend on one another.
static const char *const spf_sonames[] = {
    SPF_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    SPF_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR),
    SPF_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
    SPF_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
};
#define SPF_LIBRARY_COUNT (sizeof spf_sonames / sizeof spf_sonames[0])

static void *spf_libraries[SPF_LIBRARY_COUNT];
static char spf_load_error[512];
static pthread_once_t spf_load_once = PTHREAD_ONCE_INIT;

static void spf_load(void) {
  for (size_t i = 0; i < SPF_LIBRARY_COUNT; i++) {
    // RTLD_GLOBAL: the executable's memalign stays the one libx264 binds to
    // (it comes first in the global scope either way).
    spf_libraries[i] = dlopen(spf_sonames[i], RTLD_NOW | RTLD_GLOBAL);
    if (spf_libraries[i] == NULL) {
      const char *why = dlerror();
      snprintf(spf_load_error, sizeof spf_load_error, "%s", why ? why : spf_sonames[i]);
      return;
    }
  }
}

const char *spf_ffmpeg_load(void) {
  pthread_once(&spf_load_once, spf_load);
  return spf_load_error[0] ? spf_load_error : NULL;
}

static void *spf_ffmpeg_symbol(const char *name) {
  const char *error = spf_ffmpeg_load();
  if (error == NULL) {
    for (size_t i = SPF_LIBRARY_COUNT; i-- > 0;) {
      void *symbol = dlsym(spf_libraries[i], name);
      if (symbol != NULL) return symbol;
    }
    error = "not in the libraries";
  }
  // VideoOutput checks the load before its first call, so this is a
  // library without a function the headers declared.
  fprintf(stderr, "render: error: FFmpeg's %s is unavailable: %s\n", name, error);
  abort();
}

// The real function `name`, as `f`: looked up on the first call, then
// kept (the lookup gives every thread the same pointer).
#define SPF_REAL(name)                                                 \
  static __typeof__(&name) pointer;                                    \
  __typeof__(&name) f = __atomic_load_n(&pointer, __ATOMIC_ACQUIRE);   \
  if (f == NULL) {                                                     \
    f = (__typeof__(&name))spf_ffmpeg_symbol(#name);                   \
    __atomic_store_n(&pointer, f, __ATOMIC_RELEASE);                   \
  }

// A forwarder to the real function, with a result or without.
#define SPF_FORWARD(type, name, parameters, arguments) \
  type name parameters {                               \
    SPF_REAL(name)                                     \
    return f arguments;                                \
  }
#define SPF_FORWARD_VOID(name, parameters, arguments) \
  void name parameters {                              \
    SPF_REAL(name)                                    \
    f arguments;                                      \
  }

// libavutil
SPF_FORWARD(const char *, av_chroma_location_name, (enum AVChromaLocation location), (location))
SPF_FORWARD(const char *, av_color_primaries_name, (enum AVColorPrimaries primaries), (primaries))
SPF_FORWARD(const char *, av_color_range_name, (enum AVColorRange range), (range))
SPF_FORWARD(const char *, av_color_space_name, (enum AVColorSpace space), (space))
SPF_FORWARD(const char *, av_color_transfer_name, (enum AVColorTransferCharacteristic transfer), (transfer))
SPF_FORWARD_VOID(av_dict_free, (AVDictionary * *m), (m))
SPF_FORWARD(int, av_dict_set, (AVDictionary * *pm, const char *key, const char *value, int flags), (pm, key, value, flags))
SPF_FORWARD(AVFrame *, av_frame_alloc, (void), ())
SPF_FORWARD_VOID(av_frame_free, (AVFrame * *frame), (frame))
SPF_FORWARD(int, av_frame_get_buffer, (AVFrame * frame, int align), (frame, align))
SPF_FORWARD(int, av_frame_make_writable, (AVFrame * frame), (frame))
SPF_FORWARD_VOID(av_frame_unref, (AVFrame * frame), (frame))
SPF_FORWARD_VOID(av_free, (void *ptr), (ptr))
SPF_FORWARD(void *, av_malloc, (size_t size), (size))
SPF_FORWARD(const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt))
SPF_FORWARD(const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt))
SPF_FORWARD(int, av_image_fill_linesizes, (int linesizes[4], enum AVPixelFormat pix_fmt, int width), (linesizes, pix_fmt, width))
SPF_FORWARD(
    int, av_log_format_line2,
    (void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size, int *print_prefix),
    (ptr, level, fmt, vl, line, line_size, print_prefix))
SPF_FORWARD_VOID(av_log_set_callback, (void (*callback)(void *, int, const char *, va_list)), (callback))
SPF_FORWARD(int, av_opt_set, (void *obj, const char *name, const char *val, int search_flags), (obj, name, val, search_flags))
SPF_FORWARD(int, av_opt_set_double, (void *obj, const char *name, double val, int search_flags), (obj, name, val, search_flags))
SPF_FORWARD(int, av_opt_set_int, (void *obj, const char *name, int64_t val, int search_flags), (obj, name, val, search_flags))
SPF_FORWARD(int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size))

// libavcodec
SPF_FORWARD(AVPacket *, av_packet_alloc, (void), ())
SPF_FORWARD_VOID(av_packet_free, (AVPacket * *pkt), (pkt))
SPF_FORWARD(int, av_packet_from_data, (AVPacket * pkt, uint8_t *data, int size), (pkt, data, size))
SPF_FORWARD_VOID(av_packet_rescale_ts, (AVPacket * pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst))
SPF_FORWARD_VOID(av_packet_unref, (AVPacket * pkt), (pkt))
SPF_FORWARD(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))
SPF_FORWARD(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))
SPF_FORWARD(const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name))
SPF_FORWARD_VOID(avcodec_free_context, (AVCodecContext * *avctx), (avctx))
SPF_FORWARD(const char *, avcodec_get_name, (enum AVCodecID id), (id))
SPF_FORWARD(int, avcodec_open2, (AVCodecContext * avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options))
SPF_FORWARD(int, avcodec_parameters_from_context, (AVCodecParameters * par, const AVCodecContext *codec), (par, codec))
SPF_FORWARD(int, avcodec_parameters_to_context, (AVCodecContext * codec, const AVCodecParameters *par), (codec, par))
SPF_FORWARD(const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile))
SPF_FORWARD(int, avcodec_receive_frame, (AVCodecContext * avctx, AVFrame *frame), (avctx, frame))
SPF_FORWARD(int, avcodec_receive_packet, (AVCodecContext * avctx, AVPacket *avpkt), (avctx, avpkt))
SPF_FORWARD(int, avcodec_send_frame, (AVCodecContext * avctx, const AVFrame *frame), (avctx, frame))
SPF_FORWARD(int, avcodec_send_packet, (AVCodecContext * avctx, const AVPacket *avpkt), (avctx, avpkt))

// libavformat
SPF_FORWARD(
    int, av_find_best_stream,
    (AVFormatContext * ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags),
    (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags))
SPF_FORWARD(int, av_interleaved_write_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))
SPF_FORWARD(int, av_read_frame, (AVFormatContext * s, AVPacket *pkt), (s, pkt))
SPF_FORWARD(int, av_write_trailer, (AVFormatContext * s), (s))
SPF_FORWARD(
    int, avformat_alloc_output_context2,
    (AVFormatContext * *ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename),
    (ctx, oformat, format_name, filename))
SPF_FORWARD_VOID(avformat_close_input, (AVFormatContext * *s), (s))
SPF_FORWARD(int, avformat_find_stream_info, (AVFormatContext * ic, AVDictionary **options), (ic, options))
SPF_FORWARD_VOID(avformat_free_context, (AVFormatContext * s), (s))
SPF_FORWARD(AVStream *, avformat_new_stream, (AVFormatContext * s, const AVCodec *c), (s, c))
SPF_FORWARD(
    int, avformat_open_input, (AVFormatContext * *ps, const char *url, const AVInputFormat *fmt, AVDictionary **options),
    (ps, url, fmt, options))
SPF_FORWARD(int, avformat_write_header, (AVFormatContext * s, AVDictionary **options), (s, options))
SPF_FORWARD(int, avio_closep, (AVIOContext * *s), (s))
SPF_FORWARD(int, avio_open, (AVIOContext * *s, const char *url, int flags), (s, url, flags))

// libswscale
SPF_FORWARD_VOID(sws_freeContext, (struct SwsContext * swsContext), (swsContext))
SPF_FORWARD(
    struct SwsContext *, sws_getCachedContext,
    (struct SwsContext * context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH,
     enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),
    (context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))
SPF_FORWARD(const int *, sws_getCoefficients, (int colorspace), (colorspace))
SPF_FORWARD(
    struct SwsContext *, sws_getContext,
    (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags,
     SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param),
    (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param))
SPF_FORWARD(
    int, sws_scale,
    (struct SwsContext * c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH,
     uint8_t *const dst[], const int dstStride[]),
    (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride))
SPF_FORWARD(
    int, sws_setColorspaceDetails,
    (struct SwsContext * c, const int inv_table[4], int srcRange, const int table[4], int dstRange, int brightness,
     int contrast, int saturation),
    (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation))
