// See include/CFFmpegShim.h.
#include "CFFmpegShim.h"

#include <errno.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/log.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int spf_averror(int posix_error) { return AVERROR(posix_error); }
int spf_averror_eagain(void) { return AVERROR(EAGAIN); }
int spf_averror_eof(void) { return AVERROR_EOF; }
int64_t spf_av_nopts_value(void) { return AV_NOPTS_VALUE; }

void spf_av_strerror(int error, char *buffer, size_t capacity) {
  if (buffer == NULL || capacity == 0) return;
  av_strerror(error, buffer, capacity);  // always NUL-terminates
}

static _Thread_local char spf_log_errors[1024];

static void spf_log_callback(void *avcl, int level, const char *format, va_list args) {
  if (level > AV_LOG_ERROR) return;
  char line[512];
  int print_prefix = 0;  // no "[class @ 0xADDRESS]" prefix
  av_log_format_line2(avcl, level, format, args, line, sizeof line, &print_prefix);
  size_t length = strlen(line);
  while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r' || line[length - 1] == ' ')) line[--length] = 0;
  if (length == 0) return;
  size_t used = strlen(spf_log_errors);
  if (used > 0 && used + 2 < sizeof spf_log_errors) {
    snprintf(spf_log_errors + used, sizeof spf_log_errors - used, "; ");
    used += 2;
  }
  if (used + 1 < sizeof spf_log_errors) snprintf(spf_log_errors + used, sizeof spf_log_errors - used, "%s", line);
}

void spf_av_log_capture_install(void) { av_log_set_callback(spf_log_callback); }

void spf_av_log_errors_clear(void) { spf_log_errors[0] = 0; }

void spf_av_log_errors(char *buffer, size_t capacity) {
  if (buffer == NULL || capacity == 0) return;
  snprintf(buffer, capacity, "%s", spf_log_errors);
}

// The bytes every block x264 reads before writing holds: glibc's M_PERTURB
// of 77 (what `render` set process-wide before, 77 ^ 0xFF), so that the MP4
// bytes stay those of earlier releases.
static const int spf_fill_byte = 77 ^ 0xFF;

void spf_av_frame_fill(AVFrame *frame) {
  for (int i = 0; i < AV_NUM_DATA_POINTERS; i++) {
    if (frame->buf[i] != NULL) memset(frame->buf[i]->data, spf_fill_byte, frame->buf[i]->size);
  }
}

void spf_av_frame_fill_padding(AVFrame *frame) {
  const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(frame->format);
  int used[4];
  if (desc == NULL || (desc->flags & AV_PIX_FMT_FLAG_HWACCEL) || av_image_fill_linesizes(used, frame->format, frame->width) < 0) {
    spf_av_frame_fill(frame);
    return;
  }
  // Past each row's samples, up to the next row.
  int heights[4] = {0};
  for (int p = 0; p < 4 && frame->data[p] != NULL; p++) {
    heights[p] = (p == 1 || p == 2) ? AV_CEIL_RSHIFT(frame->height, desc->log2_chroma_h) : frame->height;
    if (frame->linesize[p] <= used[p]) continue;
    for (int y = 0; y < heights[p]; y++) memset(frame->data[p] + (size_t)y * frame->linesize[p] + used[p], spf_fill_byte, frame->linesize[p] - used[p]);
  }
  // In each buffer, before its first plane and after its last.
  for (int i = 0; i < AV_NUM_DATA_POINTERS && frame->buf[i] != NULL; i++) {
    uint8_t *start = frame->buf[i]->data, *end = start + frame->buf[i]->size;
    uint8_t *low = end, *high = start;
    for (int p = 0; p < 4 && frame->data[p] != NULL; p++) {
      if (frame->data[p] < start || frame->data[p] >= end) continue;
      uint8_t *after = frame->data[p] + (size_t)heights[p] * frame->linesize[p];
      if (frame->data[p] < low) low = frame->data[p];
      if (after > high) high = after;
    }
    if (low > high) continue;  // no plane in it
    memset(start, spf_fill_byte, low - start);
    if (high < end) memset(high, spf_fill_byte, end - high);
  }
}

// libx264 takes its memory with memalign (x264_malloc) and reads bytes of
// it that it never wrote: with blocks left by earlier work, a scene's MP4
// bytes depended on what the process had done before (found comparing a
// batch's shards with one run). Its blocks start as the same bytes every
// time; nothing else in the process pays for it (the renderer's own
// allocations go through malloc).
// The executable's definition comes before libc's for every library that
// calls memalign (Package.swift exports it from `render`).
extern void *__libc_memalign(size_t alignment, size_t size);

void *memalign(size_t alignment, size_t size) {
  void *block = __libc_memalign(alignment, size);
  if (block != NULL) memset(block, spf_fill_byte, size);
  return block;
}

#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <stdlib.h>

int spf_decode_jpeg(const uint8_t *data, size_t size, int64_t max_pixels, uint8_t **pixels, int *width, int *height) {
  *pixels = NULL;
  *width = 0;
  *height = 0;
  if (data == NULL || size == 0 || size > INT32_MAX - AV_INPUT_BUFFER_PADDING_SIZE) return AVERROR_INVALIDDATA;
  const AVCodec *codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG);
  if (codec == NULL) return AVERROR_DECODER_NOT_FOUND;
  AVCodecContext *ctx = avcodec_alloc_context3(codec);
  AVPacket *packet = av_packet_alloc();
  AVFrame *frame = av_frame_alloc();
  struct SwsContext *sws = NULL;
  uint8_t *out = NULL;
  int ret = AVERROR(ENOMEM);
  if (ctx == NULL || packet == NULL || frame == NULL) goto done;
  // The same bytes on every machine: bit-exact IDCT, one thread.
  ctx->flags |= AV_CODEC_FLAG_BITEXACT;
  ctx->thread_count = 1;
  if ((ret = avcodec_open2(ctx, codec, NULL)) < 0) goto done;
  uint8_t *copy = av_malloc(size + AV_INPUT_BUFFER_PADDING_SIZE);
  if (copy == NULL) { ret = AVERROR(ENOMEM); goto done; }
  memcpy(copy, data, size);
  memset(copy + size, 0, AV_INPUT_BUFFER_PADDING_SIZE);
  if ((ret = av_packet_from_data(packet, copy, (int)size)) < 0) { av_free(copy); goto done; }
  if ((ret = avcodec_send_packet(ctx, packet)) < 0) goto done;
  avcodec_send_packet(ctx, NULL);
  if ((ret = avcodec_receive_frame(ctx, frame)) < 0) goto done;
  if (frame->width <= 0 || frame->height <= 0 || (int64_t)frame->width * frame->height > max_pixels) { ret = AVERROR_INVALIDDATA; goto done; }
  int flags = SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP;
  sws = sws_getContext(frame->width, frame->height, frame->format, frame->width, frame->height, AV_PIX_FMT_RGBA, flags, NULL, NULL, NULL);
  if (sws == NULL) { ret = AVERROR(EINVAL); goto done; }
  // JPEG's Y'CbCr: full range, BT.601 (JFIF).
  const int *coefficients = sws_getCoefficients(SWS_CS_ITU601);
  sws_setColorspaceDetails(sws, coefficients, 1, coefficients, 1, 0, 1 << 16, 1 << 16);
  out = malloc((size_t)frame->width * frame->height * 4);
  if (out == NULL) { ret = AVERROR(ENOMEM); goto done; }
  uint8_t *planes[4] = {out, NULL, NULL, NULL};
  int strides[4] = {frame->width * 4, 0, 0, 0};
  sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, planes, strides);
  *pixels = out;
  *width = frame->width;
  *height = frame->height;
  out = NULL;
  ret = 0;
done:
  free(out);
  sws_freeContext(sws);
  av_frame_free(&frame);
  av_packet_free(&packet);
  avcodec_free_context(&ctx);
  return ret;
}

void spf_free(void *pointer) { free(pointer); }
