// See include/CFFmpegShim.h.
#include "CFFmpegShim.h"

#include <errno.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
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
