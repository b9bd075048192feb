/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The folder to test: the dropdown of mounted filesystems, then whole
 * disks and partitions for read tests (listed in the background, so the
 * first frame does not wait on a slow mount), in sections of DmTargetItems
 * (dm-target-item.c, drawn by dm-target-factory.c), the folder chooser,
 * the target key, and the footer and title that say what was measured, on
 * what. The unit drop-down beside it holds one width, so the field's does
 * not change with the unit.
 */
#include "dm-footer.h"
#include "dm-window-private.h"
#include "dm-i18n-ui.h"

#include <string.h>

#include "dm-file-dialog.h"
#include "dm-format.h"
#include "dm-frame-wait.h"
#include "dm-platform.h"
#include "dm-profile.h"
#include "dm-target-factory.h"
#include "dm-target-item.h"

/* --- targets --------------------------------------------------------------- */

/* The store's sections: the Folders heading, the listed mounts and the
 * folders chosen, "Choose folder…"; then, if there are any, the Disks
 * heading and the disks. A folder not listed goes before "Choose
 * folder…", where this says. */
static guint
folders_end (DmWindow *self)
{
  GListModel *model = G_LIST_MODEL (self->target_store);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DmTargetItem) item = g_list_model_get_item (model, i);

      if (dm_target_item_get_kind (item) == DM_TARGET_ITEM_CHOOSE)
        return i;
    }
  return n;
}

/* The folders' and disks' items, in the sections a file manager shows. */
static void
fill_store (DmWindow      *self,
            DmTargetItem **items,
            guint          n)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean any_disk = FALSE;

  g_ptr_array_add (all, dm_target_item_new_heading (DM_TARGET_ITEM_FOLDER));
  for (guint i = 0; i < n; i++)
    if (dm_target_item_get_kind (items[i]) == DM_TARGET_ITEM_FOLDER)
      g_ptr_array_add (all, g_object_ref (items[i]));
    else
      any_disk = TRUE;
  g_ptr_array_add (all, dm_target_item_new_choose ());
  if (any_disk)
    {
      g_ptr_array_add (all, dm_target_item_new_heading (DM_TARGET_ITEM_DISK));
      for (guint i = 0; i < n; i++)
        if (dm_target_item_get_kind (items[i]) == DM_TARGET_ITEM_DISK)
          g_ptr_array_add (all, g_object_ref (items[i]));
    }
  g_list_store_splice (self->target_store, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->target_store)),
                       all->pdata, all->len);
}

static void on_target_selected (DmWindow *self);

/* The dropdown is set from the target key, not the other way round. */
static void
block_selection (DmWindow *self,
                 gboolean  block)
{
  if (block)
    g_signal_handlers_block_by_func (self->target_dropdown, on_target_selected, self);
  else
    g_signal_handlers_unblock_by_func (self->target_dropdown, on_target_selected, self);
}

/* Where target is in the list, or GTK_INVALID_LIST_POSITION. */
static guint
find_target (DmWindow   *self,
             const char *target)
{
  GListModel *model = G_LIST_MODEL (self->target_store);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DmTargetItem) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (dm_target_item_get_path (item), target) == 0)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* The closed drop-down speaks what it shows: the name and the figures. */
static void
update_accessible_label (DmWindow *self)
{
  DmTargetItem *item = dm_choice_get_selected_item (self->target_dropdown);
  g_autofree char *spoken = item ? dm_target_item_describe (item, FALSE) : NULL;

  if (spoken)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->target_dropdown),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, spoken, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->target_dropdown),
                                   GTK_ACCESSIBLE_PROPERTY_LABEL);
}

/* Selects target in the dropdown, adding it to its section if it is not a
 * listed mount or disk. Its row needs a probe, which waits for the
 * background scan at start (probe = FALSE) so the first frame does not
 * wait on the disk. */
static void
select_target (DmWindow   *self,
               const char *target,
               gboolean    probe)
{
  guint i = find_target (self, target);

  if (i == GTK_INVALID_LIST_POSITION)
    {
      dm_target_info info;
      g_autoptr (DmTargetItem) item = NULL;

      memset (&info, 0, sizeof info);
      if (self->have_target_info && g_strcmp0 (self->target_info.path, target) == 0)
        item = dm_target_item_new (target, &self->target_info);
      else if (probe && dm_target_probe (target, &info) == 0)
        item = dm_target_item_new (target, &info);
      else
        item = dm_target_item_new (target, NULL);
      block_selection (self, TRUE);
      if (dm_target_item_get_kind (item) == DM_TARGET_ITEM_DISK)
        {
          i = g_list_model_get_n_items (G_LIST_MODEL (self->target_store));
          if (i <= folders_end (self) + 1)  /* no Disks heading yet */
            {
              g_autoptr (DmTargetItem) heading = dm_target_item_new_heading (DM_TARGET_ITEM_DISK);

              g_list_store_append (self->target_store, heading);
              i++;
            }
        }
      else
        i = folders_end (self);
      g_list_store_insert (self->target_store, i, item);
      block_selection (self, FALSE);
    }

  block_selection (self, TRUE);
  dm_choice_set_selected (self->target_dropdown, i);
  block_selection (self, FALSE);
  update_accessible_label (self);
}

void
_dm_window_update_target_info (DmWindow *self)
{
  g_autofree char *target = _dm_window_current_target (self);

  memset (&self->target_info, 0, sizeof self->target_info);
  self->have_target_info = dm_target_probe (target, &self->target_info) == 0;
  if (self->have_target_info)
    g_strlcpy (self->target_info.path, target, sizeof self->target_info.path);
  _dm_window_update_footer (self);
}

typedef struct
{
  dm_target_info *list;
  unsigned        n;
  dm_system_info  system;
  gboolean        have_system;
  char           *target;       /* the current target when the scan began */
  dm_target_info  target_info;
  gboolean        have_target_info;
} TargetScan;

static void
target_scan_free (gpointer data)
{
  TargetScan *scan = data;

  if (scan->list)
    dm_target_list_free (scan->list);
  g_free (scan->target);
  g_free (scan);
}

static void
scan_targets_thread (GTask        *task,
                     gpointer      source,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  TargetScan *scan = g_new0 (TargetScan, 1);

  /* Mount tables, sysfs and statvfs can be slow on a busy or networked
   * machine; the first frame does not wait for them. */
  scan->target = g_strdup (task_data);
  scan->have_target_info = dm_target_probe (scan->target, &scan->target_info) == 0;
  if (scan->have_target_info)
    g_strlcpy (scan->target_info.path, scan->target, sizeof scan->target_info.path);
  if (dm_target_list_full (&scan->list, &scan->n, DM_TARGET_LIST_DEVICES) != 0)
    {
      scan->list = NULL;
      scan->n = 0;
    }
  scan->have_system = dm_system_info_get (&scan->system) == 0;
  g_task_return_pointer (task, scan, target_scan_free);
}

static void
on_scan_drawn (GtkWidget *window)
{
  _dm_window_set_settled (DM_WINDOW (window));
}

/* A hung network mount can hold the scan for minutes: a script does not
 * wait that long for it, nor for the list it would fill. */
#define SCAN_WAIT_S 3

static gboolean
on_scan_late (gpointer window)
{
  if (DM_WINDOW (window)->cancellable)  /* not closed meanwhile */
    _dm_window_set_settled (window);
  return G_SOURCE_REMOVE;
}

static void
on_targets_scanned (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  DmWindow *self;
  TargetScan *scan = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autofree char *target = NULL;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (!scan)
    return;  /* cancelled: the window is gone */
  self = DM_WINDOW (source);

  if (scan->have_system)
    {
      self->system = scan->system;
      self->have_system = TRUE;
      /* A run on screen (finished, or opened from a file) keeps the
       * machine and drive it was measured on: its figures are theirs. */
      if (!self->job && !self->report.finished)
        self->report.system = scan->system;
    }

  for (unsigned i = 0; i < scan->n; i++)
    {
      const dm_target_info *t = &scan->list[i];

      /* A device has no mount point: its node is the target. */
      g_ptr_array_add (items,
                       dm_target_item_new (t->is_block_device || !t->mount_point[0] ? t->path
                                                                                    : t->mount_point,
                                           t));
    }
  block_selection (self, TRUE);
  fill_store (self, (DmTargetItem **) items->pdata, items->len);
  block_selection (self, FALSE);

  target = _dm_window_current_target (self);
  if (g_strcmp0 (target, scan->target) == 0)
    {
      self->target_info = scan->target_info;
      self->have_target_info = scan->have_target_info;
      if (!self->job && !self->report.finished && self->have_target_info)
        self->report.target = self->target_info;
    }
  select_target (self, target, TRUE);
  _dm_window_update_footer (self);
  /* Now it is known whether the target is a device, which is only read. */
  if (self->have_target_info)
    _dm_window_modes_changed (self);
  target_scan_free (scan);
  /* Settled once this is on screen (dm-window.c). */
  dm_frame_wait_paint (GTK_WIDGET (self), on_scan_drawn);
}

static void
on_folder_chosen (GtkNativeDialog *dialog,
                  int              response,
                  DmWindow        *self)
{
  g_autofree char *path = dm_file_dialog_get_path (dialog, response);

  if (path)
    g_settings_set_string (self->settings, "target", path);
  else
    {
      /* The list shows "Choose folder…" until it shows a folder again. */
      g_autofree char *target = _dm_window_current_target (self);
      select_target (self, target, TRUE);
    }
  g_clear_object (&self->chooser);
}

static void
choose_folder (DmWindow *self)
{
  if (self->chooser)
    return;
  self->chooser = gtk_file_chooser_native_new (_("Choose a Folder to Test"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               "_Select", "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_target_selected (DmWindow *self)
{
  DmTargetItem *item = dm_choice_get_selected_item (self->target_dropdown);

  if (!item)
    return;
  update_accessible_label (self);
  switch (dm_target_item_get_kind (item))
    {
    case DM_TARGET_ITEM_CHOOSE:
      choose_folder (self);
      break;
    case DM_TARGET_ITEM_HEADING:
      {
        /* A heading is no place to test: back to the target. */
        g_autofree char *target = _dm_window_current_target (self);

        select_target (self, target, TRUE);
      }
      break;
    default:
      g_settings_set_string (self->settings, "target", dm_target_item_get_path (item));
    }
}

/* --- footer and title ------------------------------------------------------ */

/* "Diskmeter – /mnt/data – Default": the title bar says what the grid
 * measures, as CrystalDiskMark's carries its mode, so a screenshot of the
 * whole window or a list of windows tells one run from another. */
static void
update_title (DmWindow   *self,
              const char *where)
{
  const dm_profile *profile = dm_profile_find (self->report.profile);
  g_autofree char *title = NULL;
  /* A workload profile by its file's name, or Workloads for a saved run's. */
  g_autofree char *file = self->shaped && self->workloads_from
                            ? g_path_get_basename (self->workloads_from)
                            : NULL;
  g_autofree char *workloads = self->shaped ? g_strdup_printf (file ? _("Workloads (%s)")
                                                                    : _("Workloads"), file)
                                            : NULL;

  title = g_strdup_printf ("Diskmeter – %s – %s%s", where,
                           /* The profiles' titles are the Profile menu's words. */
                           profile ? _(profile->title) : workloads ? workloads : _("Custom"),
                           self->report.nvme && profile ? " (NVMe SSD)" : "");
  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
_dm_window_update_footer (DmWindow *self)
{
  const dm_target_info *t = self->report.finished ? &self->report.target
                                                  : (self->have_target_info ? &self->target_info
                                                                            : NULL);
  const dm_system_info *sys = self->report.finished ? &self->report.system
                                                    : (self->have_system ? &self->system : NULL);
  g_autofree char *target = _dm_window_current_target (self);
  const char *where = t && t->path[0] ? t->path : target;
  /* The same footer as every window that saves a picture (dm-footer.c). */
  g_autofree char *text = dm_footer_text (where, t, sys, self->report.finished,
                                          self->report.cached,
                                          dm_comparison_get_target (self->comparison));
  text = dm_tags_footer (g_steal_pointer (&text), self->report.finished ? &self->report : NULL,
                         self->tags_field);

  gtk_label_set_text (GTK_LABEL (self->footer_label), text);
  update_title (self, where);
}

/* --- the neighbours' widths ------------------------------------------------ */

/* The target field takes the row's room its neighbours leave. A drop-down
 * as wide as its choice would hand the field a different width for MB/s
 * than for IOPS; one as wide as its widest choice does not. Its button
 * stacks every choice's label and shows the one chosen. */
static GtkWidget *
steady_button (DmChoice  *choice,
               gpointer   item,
               GtkWidget *old_child,
               gpointer   unused)
{
  GtkWidget *stack = old_child;
  GListModel *model = dm_choice_get_model (choice);
  guint n = model ? g_list_model_get_n_items (model) : 0;
  guint selected = dm_choice_get_selected (choice);
  GtkWidget *child;

  if (!stack)
    {
      stack = gtk_stack_new ();
      gtk_stack_set_hhomogeneous (GTK_STACK (stack), TRUE);
      gtk_stack_set_vhomogeneous (GTK_STACK (stack), TRUE);
    }
  while ((child = gtk_widget_get_first_child (stack)))
    gtk_stack_remove (GTK_STACK (stack), child);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GtkStringObject) choice_item = g_list_model_get_item (model, i);
      GtkWidget *label = gtk_label_new (gtk_string_object_get_string (choice_item));

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_stack_add_child (GTK_STACK (stack), label);
      if (i == selected)
        gtk_stack_set_visible_child (GTK_STACK (stack), label);
    }
  return stack;
}

static void
list_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_list_item_set_child (item, label);
}

static void
list_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  GtkStringObject *choice = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      choice ? gtk_string_object_get_string (choice) : "");
}

static void
hold_width (DmChoice *choice)
{
  g_autoptr (GtkListItemFactory) list = gtk_signal_list_item_factory_new ();

  g_signal_connect (list, "setup", G_CALLBACK (list_setup), NULL);
  g_signal_connect (list, "bind", G_CALLBACK (list_bind), NULL);
  dm_choice_set_button_func (choice, steady_button, NULL, NULL);
  dm_choice_set_list_factory (choice, list);
}

/* --- set-up ---------------------------------------------------------------- */

void
_dm_window_targets_init (DmWindow *self)
{
  g_autoptr (GtkListItemFactory) list = dm_target_factory_new ();

  self->target_store = g_list_store_new (DM_TYPE_TARGET_ITEM);
  dm_choice_set_button_func (self->target_dropdown, dm_target_factory_button, NULL, NULL);
  dm_choice_set_list_factory (self->target_dropdown, list);
  dm_choice_set_model (self->target_dropdown, G_LIST_MODEL (self->target_store));
  /* Until the scan lists the mounts, the list holds the saved target. */
  fill_store (self, NULL, 0);
  /* The unit is changed most, also with the figures on screen. */
  hold_width (self->units_dropdown);
}

/* The target key changed (the dropdown, the chooser, a saved run, the
 * command line or D-Bus): its label needs a probe, and whether it is a
 * device decides the columns a run measures. */
static void
on_target_changed (GSettings  *settings,
                   const char *key,
                   DmWindow   *self)
{
  g_autofree char *target = _dm_window_current_target (self);

  _dm_window_update_target_info (self);
  select_target (self, target, TRUE);
  if (!self->job && !self->report.finished && self->have_target_info)
    self->report.target = self->target_info;
  _dm_window_modes_changed (self);
}

static void
action_choose_folder (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  choose_folder (DM_WINDOW (widget));
}

void
_dm_window_class_targets_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.choose-folder", NULL, action_choose_folder);
}

/* Once the settings are on the widgets: the dropdown shows the target and
 * follows the dropdown and the key. */
void
_dm_window_targets_start (DmWindow *self)
{
  g_autofree char *target = _dm_window_current_target (self);

  select_target (self, target, FALSE);
  g_signal_connect_swapped (self->target_dropdown, "notify::selected",
                            G_CALLBACK (on_target_selected), self);
  g_signal_connect (self->settings, "changed::target", G_CALLBACK (on_target_changed), self);
}

/* Lists the mounts and disks and probes the target, in the background and
 * after the first frame (dm-window.c): the frame does not wait on the
 * disk, and the answer refilling the list does not delay it. */
void
_dm_window_targets_scan (DmWindow *self)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *target = _dm_window_current_target (self);

  g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, SCAN_WAIT_S, on_scan_late, g_object_ref (self),
                              g_object_unref);
  task = g_task_new (self, self->cancellable, on_targets_scanned, NULL);
  g_task_set_task_data (task, g_strdup (target), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, scan_targets_thread);
}
