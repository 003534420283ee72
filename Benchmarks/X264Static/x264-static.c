/* How much of x264's time a frame's unchanged pixels cost (not a test):
 * encodes raw yuv420p frames with libx264 as MP4Writer sets it up (veryfast,
 * CRF 18, 2 threads, a 5-frame lookahead in the encoding thread), optionally
 * without B-frames and with x264's mb_info telling it which macroblocks are
 * the same as in the previous frame (X264_MBINFO_CONSTANT: P-frames skip
 * their analysis). scripts/bench-x264-static runs it.
 *
 *   x264-static FILE.yuv WIDTH HEIGHT MBINFO(0|1) BFRAMES(-1: the preset's)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x264.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* 1 when the macroblock (mx, my) of frame is the same as in previous. */
static int same(const uint8_t *frame, const uint8_t *previous, int w, int h, int mx, int my) {
  const size_t luma = (size_t)w * h, chroma = luma / 4;
  for (int y = my * 16; y < my * 16 + 16 && y < h; y++) {
    size_t o = (size_t)y * w + mx * 16;
    if (memcmp(frame + o, previous + o, mx * 16 + 16 <= w ? 16 : w - mx * 16)) return 0;
  }
  for (int c = 0; c < 2; c++)
    for (int y = my * 8; y < my * 8 + 8 && y < h / 2; y++) {
      size_t o = luma + c * chroma + (size_t)y * (w / 2) + mx * 8;
      if (memcmp(frame + o, previous + o, mx * 8 + 8 <= w / 2 ? 8 : w / 2 - mx * 8)) return 0;
    }
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: x264-static FILE.yuv WIDTH HEIGHT MBINFO BFRAMES\n");
    return 2;
  }
  const int w = atoi(argv[2]), h = atoi(argv[3]), mbinfo = atoi(argv[4]), bframes = atoi(argv[5]);
  FILE *f = fopen(argv[1], "rb");
  if (!f) return 1;
  const size_t size = (size_t)w * h * 3 / 2;
  fseek(f, 0, SEEK_END);
  const long n = ftell(f) / (long)size;
  fseek(f, 0, SEEK_SET);
  uint8_t *frames = malloc(size * n);
  if (!frames || fread(frames, 1, size * n, f) != size * n) return 1;
  fclose(f);

  x264_param_t p;
  x264_param_default_preset(&p, "veryfast", NULL);
  p.i_width = w, p.i_height = h, p.i_csp = X264_CSP_I420, p.i_threads = 2;
  p.rc.i_rc_method = X264_RC_CRF, p.rc.f_rf_constant = 18, p.rc.i_lookahead = 5, p.i_sync_lookahead = 0;
  p.i_fps_num = 60, p.i_fps_den = 1, p.b_repeat_headers = 0, p.b_annexb = 0, p.i_log_level = X264_LOG_NONE;
  if (bframes >= 0) p.i_bframe = bframes;
  p.analyse.b_mb_info = mbinfo;
  x264_param_apply_profile(&p, "high");
  x264_t *encoder = x264_encoder_open(&p);
  if (!encoder) return 1;
  const int mbw = (w + 15) / 16, mbh = (h + 15) / 16;

  const double start = now();
  size_t bytes = 0;
  x264_picture_t in, out;
  x264_nal_t *nal;
  int count;
  for (long i = 0; i < n; i++) {
    uint8_t *frame = frames + size * i;
    x264_picture_init(&in);
    in.img.i_csp = X264_CSP_I420, in.img.i_plane = 3;
    in.img.plane[0] = frame, in.img.plane[1] = frame + w * h, in.img.plane[2] = frame + w * h + w * h / 4;
    in.img.i_stride[0] = w, in.img.i_stride[1] = in.img.i_stride[2] = w / 2;
    in.i_pts = i;
    if (mbinfo && i > 0) {
      uint8_t *info = malloc(mbw * mbh); /* x264 frees it (frame threads) */
      for (int my = 0; my < mbh; my++)
        for (int mx = 0; mx < mbw; mx++) info[my * mbw + mx] = same(frame, frame - size, w, h, mx, my) ? X264_MBINFO_CONSTANT : 0;
      in.prop.mb_info = info, in.prop.mb_info_free = free;
    }
    int s = x264_encoder_encode(encoder, &nal, &count, &in, &out);
    if (s > 0) bytes += s;
  }
  while (x264_encoder_delayed_frames(encoder)) {
    int s = x264_encoder_encode(encoder, &nal, &count, NULL, &out);
    if (s > 0) bytes += s;
  }
  const double seconds = now() - start;
  x264_encoder_close(encoder);
  printf("%5dx%-5d mb_info %d, B-frames %-8s %6.2f ms/frame  %8zu bytes\n", w, h, mbinfo, bframes < 0 ? "veryfast" : argv[5],
         seconds * 1000 / n, bytes);
  free(frames);
  return 0;
}
