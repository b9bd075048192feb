/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target list's rows: what a folder or disk is called, what it is and
 * how much room it has, each in its own field so the list can give the
 * figures their full width and shorten the rest.
 */
#include "dm-target-item.h"
#include "dm-i18n-ui.h"

struct _DmTargetItem
{
  GObject          parent_instance;

  DmTargetItemKind kind;
  char            *path;     /* the target key's value, NULL for a heading */
  char            *name;
  char            *detail;
  char            *figures;
  gboolean         read_only;
};

G_DEFINE_FINAL_TYPE (DmTargetItem, dm_target_item, G_TYPE_OBJECT)

static void
dm_target_item_finalize (GObject *object)
{
  DmTargetItem *self = DM_TARGET_ITEM (object);

  g_free (self->path);
  g_free (self->name);
  g_free (self->detail);
  g_free (self->figures);
  G_OBJECT_CLASS (dm_target_item_parent_class)->finalize (object);
}

static void
dm_target_item_class_init (DmTargetItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dm_target_item_finalize;
}

static void
dm_target_item_init (DmTargetItem *self)
{
}

static char *
format_gib (uint64_t bytes)
{
  double gib = bytes / 1073741824.0;

  if (bytes < (1ull << 30))
    return g_strdup_printf ("%.0fMiB", bytes / 1048576.0);
  if (gib >= 1000)
    return g_strdup_printf ("%.1fTiB", gib / 1024);
  if (gib >= 10)
    return g_strdup_printf ("%.0fGiB", gib);
  return g_strdup_printf ("%.1fGiB", gib);
}

static void
add_fact (GString    *s,
          const char *fact)
{
  if (!fact || !fact[0])
    return;
  if (s->len)
    g_string_append (s, " · ");
  g_string_append (s, fact);
}

DmTargetItem *
dm_target_item_new (const char           *path,
                    const dm_target_info *info)
{
  DmTargetItem *self = g_object_new (DM_TYPE_TARGET_ITEM, NULL);
  GString *detail = g_string_new (NULL);

  self->path = g_strdup (path);
  self->name = g_strdup (path);
  self->kind = g_str_has_prefix (path, "/dev/") || g_str_has_prefix (path, "\\\\.\\")
                 ? DM_TARGET_ITEM_DISK
                 : DM_TARGET_ITEM_FOLDER;
  if (info)
    {
      g_autofree char *size = format_gib (info->size_bytes);

      self->kind = info->is_block_device ? DM_TARGET_ITEM_DISK : DM_TARGET_ITEM_FOLDER;
      /* The same facts in the same order for a folder and a disk: what is
       * on it, which device, what the device is, how it is attached. */
      if (info->filesystem[0] && info->label[0])
        {
          g_autofree char *fs = g_strdup_printf ("%s “%s”", info->filesystem, info->label);

          add_fact (detail, fs);
        }
      else
        add_fact (detail, info->filesystem);
      if (self->kind == DM_TARGET_ITEM_FOLDER && g_strcmp0 (info->device, info->model) != 0)
        add_fact (detail, info->device);
      add_fact (detail, info->model);
      add_fact (detail, info->bus);
      if (self->kind == DM_TARGET_ITEM_DISK)
        /* A disk is only read: its free space does not matter. */
        self->figures = g_steal_pointer (&size);
      else
        {
          g_autofree char *free_space = format_gib (MIN (info->free_bytes, info->size_bytes));

          /* TRANSLATORS: free space of a drive in the target list, e.g. "70GiB
           * free of 252GiB". */
          self->figures = g_strdup_printf (_("%s free of %s"), free_space, size);
          self->read_only = info->read_only || !info->writable;
        }
    }
  self->detail = g_string_free (detail, FALSE);
  if (!self->figures)
    self->figures = g_strdup ("");
  return self;
}

DmTargetItem *
dm_target_item_new_heading (DmTargetItemKind section)
{
  DmTargetItem *self = g_object_new (DM_TYPE_TARGET_ITEM, NULL);

  self->kind = DM_TARGET_ITEM_HEADING;
  /* TRANSLATORS: headings of the target list: folders (a test file is
   * written there), then whole disks and partitions (only read). */
  self->name = g_strdup (section == DM_TARGET_ITEM_DISK ? _("Disks (read tests only)")
                                                        : _("Folders"));
  self->detail = g_strdup ("");
  self->figures = g_strdup ("");
  return self;
}

DmTargetItem *
dm_target_item_new_choose (void)
{
  DmTargetItem *self = g_object_new (DM_TYPE_TARGET_ITEM, NULL);

  self->kind = DM_TARGET_ITEM_CHOOSE;
  self->name = g_strdup (_("Choose folder…"));
  self->detail = g_strdup ("");
  self->figures = g_strdup ("");
  return self;
}

DmTargetItemKind
dm_target_item_get_kind (DmTargetItem *self)
{
  return self->kind;
}

const char *
dm_target_item_get_path (DmTargetItem *self)
{
  return self->path;
}

const char *
dm_target_item_get_name (DmTargetItem *self)
{
  return self->name;
}

const char *
dm_target_item_get_detail (DmTargetItem *self)
{
  return self->detail;
}

const char *
dm_target_item_get_figures (DmTargetItem *self)
{
  return self->figures;
}

gboolean
dm_target_item_get_read_only (DmTargetItem *self)
{
  return self->read_only;
}

const char *
dm_target_item_get_mark (DmTargetItem *self)
{
  /* TRANSLATORS: beside a folder of the target list that no test file can
   * be written to (a read-only mount, or no permission). */
  return self->read_only ? _("read-only") : "";
}

char *
dm_target_item_describe (DmTargetItem *self,
                         gboolean      with_detail)
{
  GString *s = g_string_new (self->name);

  if (self->figures[0])
    g_string_append_printf (s, ", %s", self->figures);
  if (self->read_only)
    g_string_append_printf (s, ", %s", dm_target_item_get_mark (self));
  if (with_detail && self->detail[0])
    g_string_append_printf (s, ", %s", self->detail);
  return g_string_free (s, FALSE);
}
