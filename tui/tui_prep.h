/*
 * tui_prep: the view during preparation. The CLI calls view_ops.prepare
 * before target_open, so the screen is up while a working set is filled:
 * a progress bar with the MiB done, the total and the rate, redrawn at
 * most ten times a second from the (done, total) snapshot the fill
 * reports. It runs in the CLI's thread before the probe thread exists;
 * q or Ctrl-C set the CLI's stop flag, which ends the preparation. The run
 * that follows takes over the open screen (tui_term_open is idempotent).
 */
#ifndef IOPROBE_TUI_PREP_H
#define IOPROBE_TUI_PREP_H

#include <signal.h>
#include <stdint.h>

#include "view.h"

/*
 * Open the screen and show "preparing" for cfg->path (cfg->ascii and
 * cfg->no_color are read too). *fn and *arg get the progress callback for
 * target_open. Returns 0, or -errno (the screen stays closed).
 */
int tui_prep_open(const struct view_cfg *cfg, volatile sig_atomic_t *stop,
		  void (**fn)(void *arg, uint64_t done, uint64_t total), void **arg);

#endif
