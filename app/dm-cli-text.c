/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What diskmeter-cli echoes of a user's or a file's text on the terminal
 * (a path, a comment, a loader's reason quoting the file) goes through
 * here, escaped as the text report shows it, so a file name with an
 * escape sequence or a newline cannot drive the terminal or forge a line.
 */
#include "dm-cli-common.h"

#include "dm-text.h"

const char *
dm_cli_shown (const char *s)
{
  /* A few at a time, for one message that names a file, a reason and
   * more; per thread, since progress lines come from the runner's. */
  static _Thread_local char ring[4][2400];
  static _Thread_local unsigned next;
  char *buf = ring[next++ % 4];
  return dm_text_shown (buf, sizeof ring[0], s ? s : "");
}
