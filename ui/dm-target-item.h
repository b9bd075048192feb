/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One row of the main window's target list, as a file manager lists
 * places: a heading ("Folders", "Disks"), a folder or a disk with its name,
 * a secondary line of what it is, and the free and total size, or the
 * "Choose folder…" entry. What is shown and what is spoken is made here
 * once, so the button, the list and a screen reader say the same.
 */
#pragma once

#include <gtk/gtk.h>

#include "dm-platform.h"

G_BEGIN_DECLS

typedef enum
{
  DM_TARGET_ITEM_HEADING,
  DM_TARGET_ITEM_FOLDER,
  DM_TARGET_ITEM_DISK,
  DM_TARGET_ITEM_CHOOSE,
} DmTargetItemKind;

#define DM_TYPE_TARGET_ITEM (dm_target_item_get_type ())
G_DECLARE_FINAL_TYPE (DmTargetItem, dm_target_item, DM, TARGET_ITEM, GObject)

/* A folder or disk: path is what the target key holds; info, if not NULL,
 * what a probe found there (without it only the path is shown). */
DmTargetItem     *dm_target_item_new           (const char           *path,
                                                const dm_target_info *info);
DmTargetItem     *dm_target_item_new_heading   (DmTargetItemKind      section);
DmTargetItem     *dm_target_item_new_choose    (void);

DmTargetItemKind  dm_target_item_get_kind      (DmTargetItem         *self);
/* The target key's value; NULL for a heading and "Choose folder…". */
const char       *dm_target_item_get_path      (DmTargetItem         *self);
/* "/mnt/data", "/dev/sdb", "Folders", "Choose folder…". */
const char       *dm_target_item_get_name      (DmTargetItem         *self);
/* "ext4 · /dev/sdb1 · Samsung SSD 980 · NVMe", or "". */
const char       *dm_target_item_get_detail    (DmTargetItem         *self);
/* "77GiB free of 252GiB" for a folder, "252GiB" for a disk, "" when unknown. */
const char       *dm_target_item_get_figures   (DmTargetItem         *self);
/* A folder no test file can be written to. */
gboolean          dm_target_item_get_read_only (DmTargetItem         *self);
/* "read-only" (translated) when read-only, else "". */
const char       *dm_target_item_get_mark      (DmTargetItem         *self);
/* What a screen reader says of the row: name, figures, mark and detail. */
char             *dm_target_item_describe      (DmTargetItem         *self,
                                                gboolean              with_detail);

G_END_DECLS
