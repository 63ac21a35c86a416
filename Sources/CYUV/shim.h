#pragma once
// libyuv ships no pkg-config file; its headers are plain C when __cplusplus is not defined.
// In libyuv's names "ARGB" is the byte order B, G, R, A in memory: what X11 and PipeWire call BGRA/BGRx.
#include <libyuv/convert.h>
#include <libyuv/convert_from.h>
#include <libyuv/scale.h>
