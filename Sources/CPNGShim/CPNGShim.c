// PNG writing, and one reading workaround, over libpng's full API; see
// include/CPNGShim.h.
#include "CPNGShim.h"

#include <png.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/// What libpng's callbacks reach through the error and I/O pointers. Only the
/// pointed-to objects change after setjmp, never this struct's own fields.
typedef struct spf_context {
  spf_png_output *output;
  char *message;
  size_t message_capacity;
} spf_context;

static void spf_set_message(char *message, size_t capacity, const char *text) {
  if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", text);
}

static void spf_error(png_structp png, png_const_charp text) {
  spf_context *context = (spf_context *)png_get_error_ptr(png);
  spf_set_message(context->message, context->message_capacity,
                  text != NULL ? text : "libpng error");
  png_longjmp(png, 1);  // lands in spf_png_encode, never in Swift
}

static void spf_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;  // warnings do not affect the written file
}

static void spf_write(png_structp png, png_bytep data, size_t length) {
  spf_context *context = (spf_context *)png_get_io_ptr(png);
  spf_png_output *out = context->output;
  if (length > out->capacity - out->size) {
    size_t capacity = out->capacity;
    while (length > capacity - out->size) {
      if (capacity > SIZE_MAX / 2) png_error(png, "encoded image too large");
      capacity *= 2;
    }
    uint8_t *grown = (uint8_t *)realloc(out->data, capacity);
    if (grown == NULL) png_error(png, "out of memory");
    out->data = grown;
    out->capacity = capacity;
  }
  memcpy(out->data + out->size, data, length);
  out->size += length;
}

static void spf_flush(png_structp png) { (void)png; }

void spf_png_output_free(spf_png_output *output) {
  if (output == NULL) return;
  free(output->data);
  output->data = NULL;
  output->size = 0;
  output->capacity = 0;
}

// u = round(c·255/a) = floor((c·255 + a/2) / a), the division done as a
// multiplication by m = ceil(2^24 / a). Exact: with n = c·255 + a/2 ≤ 65152
// and e = m·a − 2^24 ≤ a − 1 ≤ 254, the error n·e / (a·2^24) < 1/a.
static inline uint8_t spf_unpremultiply_channel(uint32_t c, uint32_t a, uint64_t m) {
  uint64_t u = ((uint64_t)(c * 255u + a / 2u) * m) >> 24;
  return (uint8_t)(u > 255u ? 255u : u);
}

static inline uint64_t spf_reciprocal(uint32_t a) {
  return ((UINT64_C(1) << 24) + a - 1u) / a;
}

// spf_table[a][c]: the colour byte for premultiplied c at alpha a, built
// once (64 KiB) from spf_unpremultiply_channel. Row conversion is then four
// loads per translucent pixel.
static uint8_t spf_table[256][256];
static pthread_once_t spf_table_once = PTHREAD_ONCE_INIT;

static void spf_build_table(void) {
  memset(spf_table[0], 0, 256);
  for (uint32_t a = 1; a < 256u; a++) {
    uint64_t m = spf_reciprocal(a);
    for (uint32_t c = 0; c < 256u; c++) spf_table[a][c] = spf_unpremultiply_channel(c, a, m);
  }
}

/// Unpremultiplies one row (opaque pixels are copied as they are).
static void spf_row_rgba(const uint8_t *src, uint8_t *dst, uint32_t width) {
  for (uint32_t x = 0; x < width; x++, src += 4, dst += 4) {
    uint8_t a = src[3];
    if (a == 255u) {
      memcpy(dst, src, 4);
    } else {
      const uint8_t *t = spf_table[a];
      dst[0] = t[src[0]]; dst[1] = t[src[1]]; dst[2] = t[src[2]]; dst[3] = a;
    }
  }
}

void spf_png_unpremultiply(const uint8_t *src, uint8_t *dst, size_t count) {
  pthread_once(&spf_table_once, spf_build_table);
  for (size_t i = 0; i < count; i++, src += 4, dst += 4) {
    const uint8_t *t = spf_table[src[3]];
    uint8_t r = t[src[0]], g = t[src[1]], b = t[src[2]];
    dst[0] = r; dst[1] = g; dst[2] = b; dst[3] = src[3];
  }
}

/// Drops the alpha byte of an opaque row. Each step stores 4 bytes and moves
/// on by 3, so the next pixel overwrites the stray alpha; the last is exact.
static void spf_row_rgb(const uint8_t *src, uint8_t *dst, uint32_t width) {
  uint32_t x = 0;
  for (; x + 1 < width; x++, src += 4, dst += 3) memcpy(dst, src, 4);
  memcpy(dst, src, 3);
}

/// Whether every alpha byte of the RGBA8 pixels is 255, a row at a time
/// (a branch-free AND within the row vectorizes).
static int spf_all_opaque(const uint8_t *pixels, uint32_t width, uint32_t height) {
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *row = pixels + (size_t)y * width * 4u;
    uint8_t all = 255u;
    for (uint32_t x = 0; x < width; x++) all &= row[4u * x + 3u];
    if (all != 255u) return 0;
  }
  return 1;
}

static int spf_libpng_filter(int filter) {
  switch (filter) {
    case SPF_PNG_FILTER_NONE: return PNG_FILTER_NONE;
    case SPF_PNG_FILTER_SUB: return PNG_FILTER_SUB;
    case SPF_PNG_FILTER_UP: return PNG_FILTER_UP;
    case SPF_PNG_FILTER_AVERAGE: return PNG_FILTER_AVG;
    case SPF_PNG_FILTER_PAETH: return PNG_FILTER_PAETH;
    case SPF_PNG_FILTER_ADAPTIVE: return PNG_ALL_FILTERS;
    default: return -1;
  }
}

static int spf_zlib_strategy(int strategy) {
  switch (strategy) {
    case SPF_PNG_STRATEGY_DEFAULT: return Z_DEFAULT_STRATEGY;
    case SPF_PNG_STRATEGY_FILTERED: return Z_FILTERED;
    case SPF_PNG_STRATEGY_RLE: return Z_RLE;
    case SPF_PNG_STRATEGY_HUFFMAN_ONLY: return Z_HUFFMAN_ONLY;
    default: return -1;
  }
}

int spf_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height,
                   spf_png_options options, spf_png_output *output,
                   char *message, size_t message_capacity) {
  spf_set_message(message, message_capacity, "");
  if (output == NULL) {
    spf_set_message(message, message_capacity, "no output buffer");
    return 1;
  }
  output->data = NULL;
  output->size = 0;
  output->capacity = 0;

  int filter = spf_libpng_filter(options.filter);
  int strategy = spf_zlib_strategy(options.strategy);
  if (options.level < 0 || options.level > 9 || filter < 0 || strategy < 0) {
    spf_set_message(message, message_capacity, "invalid compression options");
    return 1;
  }
  if (width == 0 || height == 0) {
    spf_set_message(message, message_capacity, "a PNG image cannot be empty");
    return 1;
  }
  if (pixels == NULL) {
    spf_set_message(message, message_capacity, "no pixels");
    return 1;
  }
  if (width > PNG_UINT_31_MAX || height > PNG_UINT_31_MAX ||
      (size_t)width > SIZE_MAX / 4u / (size_t)height) {
    spf_set_message(message, message_capacity, "image too large for PNG");
    return 1;
  }

  const size_t stride = (size_t)width * 4u;
  const size_t count = (size_t)width * (size_t)height;
  const int opaque = spf_all_opaque(pixels, width, height);
  const int channels = opaque ? 3 : 4;

  if (!opaque) pthread_once(&spf_table_once, spf_build_table);

  // Everything is allocated before setjmp; the error path frees it all.
  size_t initial = count * (size_t)channels / 4u + 4096u;
  output->data = (uint8_t *)malloc(initial);
  png_bytep row = (png_bytep)malloc((size_t)width * (size_t)channels);
  if (output->data == NULL || row == NULL) {
    free(row);
    spf_png_output_free(output);
    spf_set_message(message, message_capacity, "out of memory");
    return 1;
  }
  output->capacity = initial;

  spf_context context = {output, message, message_capacity};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context,
                                            spf_error, spf_warning);
  png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_write_struct(&png, &info);
    free(row);
    spf_png_output_free(output);
    spf_set_message(message, message_capacity, "out of memory");
    return 1;
  }

  // png, info, row and context are not modified after this point, so they are
  // still valid when spf_error jumps back here.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    free(row);
    spf_png_output_free(output);
    return 1;
  }

  png_set_write_fn(png, &context, spf_write, spf_flush);
  png_set_IHDR(png, info, width, height, 8,
               opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_sRGB_gAMA_and_cHRM(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
  png_set_compression_level(png, options.level);
  png_set_compression_strategy(png, strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, filter);
  png_write_info(png, info);

  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *src = pixels + (size_t)y * stride;
    if (opaque) {
      spf_row_rgb(src, row, width);
    } else {
      spf_row_rgba(src, row, width);
    }
    png_write_row(png, row);
  }
  png_write_end(png, info);

  png_destroy_write_struct(&png, &info);
  free(row);
  return 0;
}

// MARK: - Reading (the interlaced 16-bit workaround)

typedef struct spf_source {
  const uint8_t *data;
  size_t size;
  size_t offset;
} spf_source;

typedef struct spf_read_context {
  spf_source *source;
  char *message;
  size_t message_capacity;
} spf_read_context;

static void spf_read_error(png_structp png, png_const_charp text) {
  spf_read_context *context = (spf_read_context *)png_get_error_ptr(png);
  spf_set_message(context->message, context->message_capacity,
                  text != NULL ? text : "libpng error");
  png_longjmp(png, 1);  // lands in spf_png_decode_rgba8, never in Swift
}

static void spf_read(png_structp png, png_bytep data, size_t length) {
  spf_read_context *context = (spf_read_context *)png_get_io_ptr(png);
  spf_source *source = context->source;
  if (length > source->size - source->offset) png_error(png, "read beyond end of data");
  memcpy(data, source->data + source->offset, length);
  source->offset += length;
}

int spf_png_decode_rgba8(const uint8_t *data, size_t size, uint8_t *pixels,
                         uint32_t width, uint32_t height,
                         char *message, size_t message_capacity) {
  spf_set_message(message, message_capacity, "");
  if (data == NULL || pixels == NULL || width == 0 || height == 0 ||
      (size_t)width > SIZE_MAX / 4u / (size_t)height) {
    spf_set_message(message, message_capacity, "invalid argument");
    return 1;
  }
  png_bytepp rows = (png_bytepp)malloc((size_t)height * sizeof(png_bytep));
  if (rows == NULL) {
    spf_set_message(message, message_capacity, "out of memory");
    return 1;
  }
  for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4u;

  spf_source source = {data, size, 0};
  spf_read_context context = {&source, message, message_capacity};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context,
                                           spf_read_error, spf_warning);
  png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    spf_set_message(message, message_capacity, "out of memory");
    return 1;
  }

  // png, info, rows and context are not modified after this point.
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    return 1;
  }

  png_set_read_fn(png, &context, spf_read);
  png_set_benign_errors(png, 1);  // as png_image_begin_read does
  png_read_info(png, info);
  if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height)
    png_error(png, "image size changed");

  // The transformations png_image_read_direct sets up for PNG_FORMAT_RGBA
  // with PNG_IMAGE_FLAG_16BIT_sRGB, in the same order.
  int color_type = png_get_color_type(png, info);
  int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 ||
                  png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  png_set_expand(png);
  if ((color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
  png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);  // input default
  if (png_get_bit_depth(png, info) == 16) png_set_scale_16(png);
  if (!has_alpha) png_set_add_alpha(png, 255, PNG_FILLER_AFTER);
  png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);  // output
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_bit_depth(png, info) != 8 || png_get_channels(png, info) != 4 ||
      png_get_rowbytes(png, info) != (size_t)width * 4u)
    png_error(png, "unexpected row format");

  png_read_image(png, rows);  // every pass, combined in place

  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  return 0;
}
