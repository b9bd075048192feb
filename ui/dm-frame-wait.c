/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Waiting on a window's frame clock for a script: the first frame before a
 * scripted run starts, the next paint before its files are written, so a
 * screenshot shows what a person would see.
 */
#include "dm-frame-wait.h"

typedef struct
{
  GtkWidget   *widget;
  guint        delay_ms;
  GSourceFunc  begin;
  DmFrameDone  done;
  gulong       handler;
  gboolean     waiting;          /* handed from the tick to the paint */
} FrameWait;

static void
on_first_paint (GdkFrameClock *clock,
                FrameWait     *w)
{
  g_signal_handler_disconnect (clock, w->handler);
  g_timeout_add_full (G_PRIORITY_DEFAULT, w->delay_ms, w->begin, g_object_ref (w->widget),
                      g_object_unref);
  g_free (w);
}

static gboolean
on_first_tick (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       data)
{
  FrameWait *w = data;

  /* The tick comes before the frame's paint: start after it. */
  w->waiting = TRUE;
  w->handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_first_paint), w);
  return G_SOURCE_REMOVE;
}

static void
tick_done (gpointer data)
{
  FrameWait *w = data;

  if (!w->waiting)
    g_free (w);
}

void
dm_frame_wait_first (GtkWidget   *widget,
                     guint        delay_ms,
                     GSourceFunc  begin)
{
  FrameWait *w = g_new0 (FrameWait, 1);

  w->widget = widget;
  w->delay_ms = delay_ms;
  w->begin = begin;
  gtk_widget_add_tick_callback (widget, on_first_tick, w, tick_done);
}

static void
on_paint (GdkFrameClock *clock,
          FrameWait     *w)
{
  g_signal_handler_disconnect (clock, w->handler);
  w->done (w->widget);
  g_free (w);
}

void
dm_frame_wait_paint (GtkWidget   *widget,
                     DmFrameDone  done)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  FrameWait *w;

  if (!clock)
    {
      done (widget);
      return;
    }
  w = g_new0 (FrameWait, 1);
  w->widget = widget;
  w->done = done;
  gtk_widget_queue_draw (widget);
  w->handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_paint), w);
}
