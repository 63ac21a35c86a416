#pragma once
#include <libwebsockets.h>

/// LWS_PRE is a macro; Swift cannot import it, so it is wrapped once here.
static inline size_t touchdeck_lws_pre(void) { return LWS_PRE; }
