#pragma once
#include <libavformat/avformat.h>
#include <libavformat/avio.h>

// AVERROR(ENOSPC) is a function-like macro, which Swift cannot import.
#include <errno.h>
static inline int deck_averror_enospc(void) { return AVERROR(ENOSPC); }
