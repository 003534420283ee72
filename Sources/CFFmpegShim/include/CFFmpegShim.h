// FFmpeg's macros that Swift cannot import, as functions.
#ifndef SPRINGFRAME_CFFMPEGSHIM_H
#define SPRINGFRAME_CFFMPEGSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Opens FFmpeg's libraries (once per process; see FFmpegLoader.c): NULL,
/// or why they could not be opened (dlerror's text).
const char *spf_ffmpeg_load(void);

/// AVERROR(e): an errno value as FFmpeg's (negative) error code.
int spf_averror(int posix_error);
/// AVERROR(EAGAIN).
int spf_averror_eagain(void);
/// AVERROR_EOF.
int spf_averror_eof(void);
/// AV_NOPTS_VALUE.
int64_t spf_av_nopts_value(void);
/// av_strerror into `buffer` (NUL-terminated, at most `capacity` bytes); an
/// unknown code gives "Error number N occurred", as av_err2str does.
void spf_av_strerror(int error, char *buffer, size_t capacity);

/// Routes FFmpeg's log through a callback that prints nothing and keeps the
/// messages of level AV_LOG_ERROR and worse logged on the calling thread since
/// the last `spf_av_log_errors_clear` (joined with "; ", truncated to 1 KB),
/// so they can travel in error values instead of cluttering standard error.
/// Idempotent; process-wide (FFmpeg's log callback is global).
void spf_av_log_capture_install(void);
/// Forgets the calling thread's captured error messages.
void spf_av_log_errors_clear(void);
/// Copies the calling thread's captured error messages (NUL-terminated; empty
/// when there are none) into `buffer`.
void spf_av_log_errors(char *buffer, size_t capacity);

struct AVFrame;
/// Sets every byte of a frame's buffers, the padding past each row and plane
/// included (an encoder may read it), to the same value every run.
void spf_av_frame_fill(struct AVFrame *frame);
/// The same for the bytes of a frame's buffers that writing its pictures'
/// samples leaves alone (past each row's samples, around the planes): for a
/// frame filled anew each time, at a small fraction of the cost.
void spf_av_frame_fill_padding(struct AVFrame *frame);

#ifdef __cplusplus
}
#endif

#endif

/// Decodes a JPEG image (libavcodec's MJPEG decoder, bit-exact, one
/// thread) to opaque RGBA8 rows in `*pixels`, which the caller frees with
/// spf_free. Returns 0, or a negative AVERROR (a picture of more than
/// `max_pixels` pixels is invalid data).
int spf_decode_jpeg(const uint8_t *data, size_t size, int64_t max_pixels, uint8_t **pixels, int *width, int *height);
void spf_free(void *pointer);
