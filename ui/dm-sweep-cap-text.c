/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The throttle fingerprint said in the Sweep window's summary. The engine
 * decides and keeps its reasons in English for reports; the window says
 * the same verdicts in sentences of its own, marked for translation.
 */
#include "dm-sweep-cap-text.h"

#include <glib/gi18n.h>

#include "dm-sweep-cap.h"

static const char *
reason (dm_sweep_cap_verdict v)
{
  switch (v)
    {
    case DM_CAP_TOO_FEW:
      return _ ("too few loads to tell (three complete, the heaviest four times the lightest)");
    case DM_CAP_NOT_FLAT:
      return _ ("throughput does not level off over the heavier loads");
    case DM_CAP_NOT_HELD:
      return _ ("the system did not keep the asked queue in flight");
    case DM_CAP_NOT_LITTLE:
      return _ ("latency does not grow as a fixed rate makes it");
    case DM_CAP_DEVICE_QUEUE:
      return _ ("the device's own queue held the load, so the limit is the disk's own");
    case DM_CAP_GROWS_FIRST:
      return _ ("throughput grew with the queue before it levelled off, as at a device's knee");
    case DM_CAP_FOUND:
    default:
      return "";
    }
}

char *
dm_sweep_cap_text (const dm_report *r)
{
  dm_sweep_cap cap;
  g_autofree char *rate = NULL;

  dm_sweep_cap_find (r, &cap);
  if (cap.verdict != DM_CAP_FOUND)
    return g_strdup_printf (_ ("No rate cap: %s."), reason (cap.verdict));
  rate = cap.by_bytes ? g_strdup_printf (_ ("%.1f MB/s"), cap.mb_per_s)
                      : g_strdup_printf (_ ("%.0f IOPS"), cap.iops);
  const dm_spec *a = &r->results[cap.first].spec, *b = &r->results[cap.last].spec;
  g_autofree char *evidence = g_strdup_printf (
    _ ("QD %u × %u to QD %u × %u within %.1f %%, mean latency within %.1f %% of "
      "QD × threads / rate (Little's law)"),
    a->queue_depth, a->threads, b->queue_depth, b->threads, cap.spread * 100,
    cap.little_error * 100);
  g_autofree char *device = cap.device_counted
    ? g_strdup_printf (_ ("the device's own queue %.1f of %u"), cap.device_queue, cap.load)
    : g_strdup (_ ("the device's own queue not counted"));
  return g_strdup_printf (_ ("Capped near %s by something outside this disk (a VM or datastore "
                            "limit, a cloud tier): %s; %s."), rate, evidence, device);
}

void
dm_sweep_cap_text_append (GString         *summary,
                          const dm_report *r)
{
  g_autofree char *text = r ? dm_sweep_cap_text (r) : NULL;

  if (text)
    g_string_append_printf (summary, "  %s", text);
}
