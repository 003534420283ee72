#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_TRUETYPE_TABLES_H

// Load flags as constants: Swift does not import FreeType's flag macros.
// Outlines in font units, unhinted, never an embedded bitmap.
static const int sf_ft_load_outline = FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP;
// FreeType's own anti-aliased bitmap of an unhinted glyph (tests compare
// our rasterizer with it).
static const int sf_ft_load_render = FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_RENDER;
static const long sf_ft_face_flag_scalable = FT_FACE_FLAG_SCALABLE;
// Colour glyphs: a colour bitmap font's flag, its load flag, and the
// pixel mode of its bitmaps (premultiplied BGRA).
static const long sf_ft_face_flag_color = FT_FACE_FLAG_COLOR;
static const int sf_ft_load_color = FT_LOAD_COLOR;
static const int sf_ft_pixel_mode_bgra = FT_PIXEL_MODE_BGRA;
