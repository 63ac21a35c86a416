#pragma once
#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
