/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nlattr.h - the one netlink attribute parser, for kernel/'s message families */
#pragma once

/*
 * The parser itself is seam/nlattr.h: the transport below kernel/ reads
 * attributes too (an error's extended ack, a genetlink family id), and a
 * layer may include only the ones under it (scripts/check-layers).
 */
#include "seam/nlattr.h"
