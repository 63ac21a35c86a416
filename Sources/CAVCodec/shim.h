#pragma once
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/hwcontext.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>

// AVERROR() and AVERROR_EOF are function-like macros, which Swift cannot import.
static inline int deck_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int deck_averror_eof(void) { return AVERROR_EOF; }

// FFmpeg's log is routed here so a failing hardware encoder prints nothing of its own; its last error line
// is kept (per thread: avcodec_open2 logs on the caller's thread) for the one fallback line the host prints.
// The storage is static in a header, so each object file that calls these gets its own copy: only
// DeckMedia/AVCall.swift may call them.
static inline char *deck_av_last_error(void) {
    static _Thread_local char line[512];
    return line;
}
static inline void deck_av_log_callback(void *context, int level, const char *format, va_list arguments) {
    (void)context;
    if (level > AV_LOG_ERROR) return;
    vsnprintf(deck_av_last_error(), 512, format, arguments);
}
static inline void deck_av_log_capture(void) { av_log_set_callback(deck_av_log_callback); }
