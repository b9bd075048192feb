/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The footer's text, in one place, so the main window's grid and the Sweep
 * and Sustained windows name a run in the same words and order. It is a
 * plain string: each window puts it in a label styled .dm-footer.
 */
#include "dm-footer.h"
#include "dm-tags-field.h"
#include "dm-i18n-ui.h"

#include <string.h>

char *
dm_footer_text (const char           *where,
                const dm_target_info *t,
                const dm_system_info *sys,
                int64_t               finished,
                gboolean              cached,
                const char           *compared_with)
{
  GString *s = g_string_new (where ? where : "");
  char date[64] = "";
  gsize machine;

  /* What a screenshot must say to be worth pasting: where and on what on
   * the first line, when and on which system on the second. The label
   * wraps, so a narrow window still shows all of it. */
  if (t && t->filesystem[0])
    g_string_append_printf (s, " · %s", t->filesystem);
  if (t && t->model[0])
    g_string_append_printf (s, " · %s", t->model);
  else if (t && t->device[0] && strcmp (t->device, t->filesystem) != 0)
    g_string_append_printf (s, " · %s", t->device);
  /* The controller and the queue depth the OS keeps at the disk: what
   * tells a pvscsi result from an LSI Logic one on the same datastore. */
  if (t && (t->controller[0] || t->queue_depth))
    {
      g_string_append_printf (s, " · %s", t->controller[0] ? t->controller : t->driver);
      if (t->queue_depth)
        {
          g_string_append_c (s, ' ');
          /* "QD" and "vCPU" are the terms VMware's and fio's users know
           * in every language, as "MB/s" is. */
          g_string_append_printf (s, "QD %u", t->queue_depth);
        }
    }
  if (compared_with)
    {
      g_string_append (s, " · ");
      g_string_append_printf (s, _("compared with %s"), compared_with);
    }
  g_string_append_c (s, '\n');
  machine = s->len;
  if (finished)
    {
      dm_format_local_time (finished, date, sizeof date);
      g_string_append (s, date);
    }
  /* Which machine, before the OS: "KVM, 4 vCPUs". */
  if (sys && (sys->hypervisor[0] || sys->sockets))
    {
      g_string_append (s, s->len > machine ? " · " : "");
      bool virtual = sys->hypervisor[0] && strcmp (sys->hypervisor, "none") != 0;
      if (virtual)
        g_string_append_printf (s, "%s, ", sys->hypervisor);
      g_string_append_printf (s, "%u %s%s", sys->logical_cpus, virtual ? "vCPU" : "CPU",
                              sys->logical_cpus == 1 ? "" : "s");
    }
  if (sys && sys->os[0])
    g_string_append_printf (s, "%s%s", s->len > machine ? " · " : "", sys->os);
  if (cached)
    g_string_append_printf (s, "%s%s", s->len > machine ? " · " : "", _("cached (no O_DIRECT)"));
  if (t && t->is_block_device)
    g_string_append_printf (s, "%s%s", s->len > machine ? " · " : "", _("read tests only"));
  if (s->str[s->len - 1] == '\n')
    g_string_truncate (s, s->len - 1);
  /* A folder's name need not be UTF-8; a label takes nothing else. */
  if (!g_utf8_validate (s->str, s->len, NULL))
    {
      char *valid = g_utf8_make_valid (s->str, s->len);

      g_string_free (s, TRUE);
      return valid;
    }
  return g_string_free (s, FALSE);
}

void
dm_footer_show (GtkWidget       *label,
                const dm_report *r,
                const char      *where)
{
  g_autofree char *text = NULL;

  if (r && r->target.path[0])
    where = r->target.path;
  text = dm_footer_text (where, r ? &r->target : NULL, r ? &r->system : NULL,
                         r ? r->finished : 0, r && r->cached, NULL);
  if (r)
    text = dm_tags_footer (g_steal_pointer (&text), r, NULL);
  gtk_label_set_text (GTK_LABEL (label), text);
}
