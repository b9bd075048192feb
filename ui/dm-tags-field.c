/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Tags field (dm-tags-field.h): a GtkEntry whose text is the settings'
 * "tags" key, parsed by the engine's rule (dm_tags_parse_list) whenever
 * asked, so the field, --tag and a loaded file refuse the same things.
 */
#include "dm-tags-field.h"

#include "dm-i18n-ui.h"

#include "dm-text.h"

static void
on_changed (GtkEditable *entry)
{
  g_autofree char *why = NULL;
  dm_tag tags[DM_TAGS_MAX];
  unsigned n;

  /* Marked as typed, the reason in its tooltip; the run is what refuses. */
  if (dm_tags_field_get (GTK_WIDGET (entry), tags, &n, &why))
    {
      gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry),
                                   _("Tags kept with each run, e.g. host=esx07, controller=pvscsi; "
                                     "a tag of a fact's name (vcpus, controller, queue_depth...) "
                                     "replaces the fact"));
    }
  else
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), why);
    }
}

GtkWidget *
dm_tags_field_attach (GtkWidget *comment,
                      GSettings *settings)
{
  GtkWidget *parent = gtk_widget_get_parent (comment);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *field = gtk_entry_new ();

  g_return_val_if_fail (GTK_IS_BOX (parent), NULL);
  /* The row takes the comment's place; the comment keeps most of it. */
  gtk_box_insert_child_after (GTK_BOX (parent), row, comment);
  g_object_ref (comment);
  gtk_box_remove (GTK_BOX (parent), comment);
  gtk_widget_set_hexpand (comment, TRUE);
  gtk_box_append (GTK_BOX (row), comment);
  g_object_unref (comment);

  gtk_widget_set_name (field, "tags_entry");
  gtk_entry_set_placeholder_text (GTK_ENTRY (field), _("Tags: key=value, key=value"));
  gtk_editable_set_width_chars (GTK_EDITABLE (field), 24);
  gtk_accessible_update_property (GTK_ACCESSIBLE (field), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Tags"), -1);
  gtk_box_append (GTK_BOX (row), field);
  g_signal_connect (field, "changed", G_CALLBACK (on_changed), NULL);
  g_settings_bind (settings, "tags", field, "text", G_SETTINGS_BIND_DEFAULT);
  on_changed (GTK_EDITABLE (field));
  return field;
}

gboolean
dm_tags_field_get (GtkWidget *field,
                   dm_tag    *tags,
                   unsigned  *n,
                   char     **why)
{
  char reason[320];

  *n = 0;
  if (!field)
    return TRUE;
  if (dm_tags_parse_list (gtk_editable_get_text (GTK_EDITABLE (field)), tags, n, DM_TAGS_MAX,
                          reason, sizeof reason) < 0)
    {
      g_autofree char *shown = g_utf8_make_valid (reason, -1);
      /* TRANSLATORS: the window's Tags field refused; %s is the reason, in English */
      *why = g_strdup_printf (_("Tags: %s"), shown);
      *n = 0;
      return FALSE;
    }
  return TRUE;
}

gboolean
dm_tags_apply_setting (GSettings *settings,
                       dm_report *r,
                       char      *why,
                       size_t     why_size)
{
  g_autofree char *text = settings ? g_settings_get_string (settings, "tags") : g_strdup ("");
  dm_tag tags[DM_TAGS_MAX];
  unsigned n;
  char reason[320];

  if (dm_tags_parse_list (text, tags, &n, DM_TAGS_MAX, reason, sizeof reason) < 0)
    {
      g_snprintf (why, why_size, _("Tags: %s"), reason);
      return FALSE;
    }
  dm_report_set_tags (r, tags, n);
  return TRUE;
}

char *
dm_tags_footer (char            *text,
                const dm_report *r,
                GtkWidget       *field)
{
  dm_tag tags[DM_TAGS_ALL_MAX];
  unsigned n = 0;
  g_autofree char *why = NULL;
  dm_buf b;

  if (r)
    n = dm_report_user_tags (r, tags);
  else if (!dm_tags_field_get (field, tags, &n, &why))
    n = 0;
  if (!n)
    return text;
  dm_buf_init (&b);
  dm_tags_add_text (&b, tags, n, ", ");
  g_autofree char *shown = g_utf8_make_valid (b.data ? b.data : "", -1);
  dm_buf_free (&b);
  char *longer = g_strdup_printf ("%s · %s", text, shown);
  g_free (text);
  return longer;
}
