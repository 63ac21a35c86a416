#pragma once
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <X11/extensions/XShm.h>

// Xlib macros and macro-valued constants Swift cannot import, wrapped once (DESIGN.md#seams).

/// `XDestroyImage` is a macro that calls the image's own destroy function (for an XShm image it frees only
/// the XImage, never the shared segment).
static inline int cx11_destroy_image(XImage *image) { return XDestroyImage(image); }

/// `AllPlanes` is `~0UL`.
static inline unsigned long cx11_all_planes(void) { return AllPlanes; }

/// A new private System V shared-memory segment of `size` bytes, readable and writable by this user only;
/// -1 on failure (`IPC_PRIVATE` is a cast macro).
static inline int cx11_shm_create(size_t size) { return shmget(IPC_PRIVATE, size, IPC_CREAT | 0600); }

/// Marks the segment for removal once the last process detaches (`IPC_RMID` with no buffer).
static inline int cx11_shm_remove(int id) { return shmctl(id, IPC_RMID, 0); }
