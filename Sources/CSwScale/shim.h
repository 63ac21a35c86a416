#pragma once
// libswscale: any decoded picture's pixel format (a JPEG's full-range YUV, a PNG's palette or 16-bit grey, a
// WebP's YUV with alpha) to RGBA at the key icon's size, in one call (DeckMedia/IconImage.swift).
#include <libswscale/swscale.h>
