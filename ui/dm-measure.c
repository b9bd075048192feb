/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Self-measurement for build-aux/measure-gui. The script passes the wall
 * time at which it started the process (DISKMETER_MEASURE=<ns since the
 * epoch>); everything here is a no-op without it, so users pay nothing.
 */
#include "dm-measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static gint64  run_wall_us;        /* monotonic start of the run */
static gint64  run_cpu_ns;         /* UI thread CPU at the start of the run */
static gint64  heartbeat_due_us;   /* when the heartbeat should have fired */
static gint64  max_delay_us;       /* longest lateness of the heartbeat */
static gint64  max_delay_cpu_ns;   /* UI thread CPU used during that wait */
static gint64  last_beat_cpu_ns;
static guint   heartbeat_id;

#define HEARTBEAT_MS 20

static gboolean
enabled (void)
{
  const char *v = g_getenv ("DISKMETER_MEASURE");
  return v && *v;
}

static gint64
thread_cpu_ns (void)
{
#ifdef G_OS_UNIX
  struct timespec ts;

  /* Called on the main thread: this is the UI thread's own CPU time, not
   * the engine's I/O threads'. */
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
#else
  return 0;  /* measure-gui runs on Linux */
#endif
}

static gint64
since_start_ns (void)
{
  return g_get_real_time () * 1000 - g_ascii_strtoll (g_getenv ("DISKMETER_MEASURE"), NULL, 10);
}

/* The peak resident memory so far, in kB; 0 where /proc does not say. */
static long
peak_kb (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  long kb = 0;

  if (!f)
    return 0;
  while (fgets (line, sizeof line, f))
    if (g_str_has_prefix (line, "VmHWM:"))
      kb = strtol (line + strlen ("VmHWM:"), NULL, 10);
  fclose (f);
  return kb;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  const char *v = g_getenv ("DISKMETER_MEASURE");
  gint64 t0 = g_ascii_strtoll (v, NULL, 10);
  gint64 now_ns = g_get_real_time () * 1000;

  g_signal_handlers_disconnect_by_func (clock, on_after_paint, data);
  if (t0 > 0)
    g_print ("measure: first-frame-ms %.1f\n", (now_ns - t0) / 1e6);
#ifdef G_OS_UNIX
  {
    struct timespec ts;

    /* The CPU the process spent to get there, which a busy machine does
     * not inflate the way it does the wall time. */
    clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
    g_print ("measure: first-frame-cpu-ms %.1f\n", ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
  }
#endif
  g_print ("measure: first-frame-peak-kb %ld\n", peak_kb ());
}

void
dm_measure_settled (void)
{
  if (!enabled ())
    return;
  g_print ("measure: settled-ms %.1f\n", since_start_ns () / 1e6);
}

static void
on_map (GtkWidget *window,
        gpointer   data)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (window);

  g_signal_handlers_disconnect_by_func (window, on_map, data);
  if (clock)
    g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
}

void
dm_measure_watch_first_frame (GtkWidget *window)
{
  if (!enabled ())
    return;
  g_signal_connect (window, "map", G_CALLBACK (on_map), NULL);
}

static gboolean
heartbeat (gpointer data)
{
  gint64 now = g_get_monotonic_time ();
  gint64 cpu = thread_cpu_ns ();

  /* Whether a stall was the UI thread working or waiting for a CPU (a
   * loaded machine) shows in the CPU it used meanwhile. */
  if (now - heartbeat_due_us > max_delay_us)
    {
      max_delay_us = now - heartbeat_due_us;
      max_delay_cpu_ns = cpu - last_beat_cpu_ns;
    }
  last_beat_cpu_ns = cpu;
  heartbeat_due_us = now + HEARTBEAT_MS * 1000;
  return G_SOURCE_CONTINUE;
}

void
dm_measure_run_started (void)
{
  if (!enabled ())
    return;
  run_wall_us = g_get_monotonic_time ();
  run_cpu_ns = thread_cpu_ns ();
  max_delay_us = 0;
  max_delay_cpu_ns = 0;
  last_beat_cpu_ns = run_cpu_ns;
  heartbeat_due_us = run_wall_us + HEARTBEAT_MS * 1000;
  heartbeat_id = g_timeout_add (HEARTBEAT_MS, heartbeat, NULL);
}

void
dm_measure_run_finished (void)
{
  gint64 wall_us;
  gint64 cpu_ns;

  if (!enabled () || !run_wall_us)
    return;
  g_clear_handle_id (&heartbeat_id, g_source_remove);
  wall_us = g_get_monotonic_time () - run_wall_us;
  cpu_ns = thread_cpu_ns () - run_cpu_ns;
  g_print ("measure: run-seconds %.2f\n", wall_us / 1e6);
  g_print ("measure: ui-thread-cpu-percent %.2f\n", wall_us > 0 ? cpu_ns / 10.0 / wall_us : 0);
  g_print ("measure: main-loop-max-delay-ms %.1f\n", max_delay_us / 1000.0);
  g_print ("measure: main-loop-max-delay-cpu-ms %.1f\n", max_delay_cpu_ns / 1e6);
  run_wall_us = 0;
}

void
dm_measure_exit (void)
{
  FILE *f;
  char line[256];

  if (!enabled ())
    return;
  f = fopen ("/proc/self/status", "r");
  if (!f)
    return;
  while (fgets (line, sizeof line, f))
    if (g_str_has_prefix (line, "VmHWM:") || g_str_has_prefix (line, "VmRSS:"))
      {
        g_strchomp (line);
        g_print ("measure: %s\n", line);
      }
  fclose (f);
}
