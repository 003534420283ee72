// PNG writing (and one reading workaround) for Swift over libpng's full API.
//
// libpng reports errors with setjmp/longjmp. Every setjmp here lives inside a
// C function of this file and every longjmp lands in that same function, so no
// jump ever crosses a Swift frame: callers see a status code and a message.
#ifndef SPRINGFRAME_CPNGSHIM_H
#define SPRINGFRAME_CPNGSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// PNG row filters (the encoder uses one filter for every row, or lets libpng
/// choose per row with `SPF_PNG_FILTER_ADAPTIVE`).
typedef enum spf_png_filter {
  SPF_PNG_FILTER_NONE = 0,
  SPF_PNG_FILTER_SUB = 1,
  SPF_PNG_FILTER_UP = 2,
  SPF_PNG_FILTER_AVERAGE = 3,
  SPF_PNG_FILTER_PAETH = 4,
  SPF_PNG_FILTER_ADAPTIVE = 5,
} spf_png_filter;

/// zlib strategies (Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, Z_HUFFMAN_ONLY).
typedef enum spf_png_strategy {
  SPF_PNG_STRATEGY_DEFAULT = 0,
  SPF_PNG_STRATEGY_FILTERED = 1,
  SPF_PNG_STRATEGY_RLE = 2,
  SPF_PNG_STRATEGY_HUFFMAN_ONLY = 3,
} spf_png_strategy;

typedef struct spf_png_options {
  int level;        ///< zlib level, 0...9
  int filter;       ///< an spf_png_filter
  int strategy;     ///< an spf_png_strategy
} spf_png_options;

/// Encoded bytes, allocated with malloc by `spf_png_encode`; release them with
/// `spf_png_output_free`.
typedef struct spf_png_output {
  uint8_t *data;
  size_t size;
  size_t capacity;
} spf_png_output;

/// Encodes premultiplied RGBA8 pixels (`4 × width` bytes per row, no padding,
/// top row first) as an 8-bit sRGB PNG with sRGB, gAMA and cHRM chunks: RGB
/// when every pixel is opaque, RGBA otherwise. Colours are unpremultiplied
/// with `spf_png_unpremultiply`.
///
/// Returns 0 and fills `output` on success. On failure returns nonzero, leaves
/// `output` empty (nothing to free) and writes a NUL-terminated message into
/// `message` (at most `message_capacity` bytes).
int spf_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                   spf_png_options options, spf_png_output *output,
                   char *message, size_t message_capacity);

/// Frees the bytes of `output` (safe on an empty output) and empties it.
void spf_png_output_free(spf_png_output *output);

/// Unpremultiplies `count` RGBA8 pixels from `src` into `dst` (which may equal
/// `src`): colour u = round(c × 255 / a), clamped to 255; a = 0 gives 0, 0, 0,
/// 0. For every valid pair c ≤ a, round(u × a / 255) == c.
void spf_png_unpremultiply(const uint8_t *src, uint8_t *dst, size_t count);

/// Decodes the PNG in `data` to straight (not premultiplied) RGBA8 sRGB in
/// `pixels` (`4 × width × height` bytes, where width and height are the
/// image's own, already read by the caller): exactly what
/// `png_image_finish_read` produces for PNG_FORMAT_RGBA with
/// PNG_IMAGE_FLAG_16BIT_sRGB (expand, grey to RGB, opaque alpha filler,
/// png_set_scale_16, file gamma to sRGB), through libpng's full API.
///
/// It exists for one libpng bug: the simplified API of some libpng builds
/// (upstream issue #853; Debian 12's 1.6.39-2+deb12u1 and later, which
/// backport the CVE-2025-65018 fix) scrambles Adam7-interlaced 16-bit images
/// read to 8 bits. The full API's interlace handling has no such problem.
///
/// Returns 0 on success; otherwise nonzero with a message, as spf_png_encode.
int spf_png_decode_rgba8(const uint8_t *data, size_t size, uint8_t *pixels,
                         uint32_t width, uint32_t height,
                         char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif
