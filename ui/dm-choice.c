/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * DmChoice: a GtkDropDown to its user and its code, made cheap to start.
 * GtkDropDown builds its popover, scrolled window, list view and search
 * entry when it is made; five of them cost the main window's first frame
 * about 14 ms. Here a GtkMenuButton holds the button, and its popover is
 * made by the create-popup function on the first open.
 */
#include "dm-choice.h"

struct _DmChoice
{
  GtkWidget           parent_instance;
  GtkWidget          *button;        /* the GtkMenuButton */
  GtkWidget          *content;       /* the button's child, from button_func */
  GtkWidget          *list;          /* the popover's list view, NULL until opened */
  GtkSingleSelection *selection;     /* over model, for the list; NULL until opened */
  GListModel         *model;
  gpointer            shown;         /* the item the button shows (weak) */
  guint               selected;
  GtkListItemFactory *list_factory;
  DmChoiceButtonFunc  button_func;
  gpointer            button_data;
  GDestroyNotify      button_destroy;
};

G_DEFINE_FINAL_TYPE (DmChoice, dm_choice, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_MODEL,
  PROP_SELECTED,
  PROP_SELECTED_ITEM,
  PROP_LIST_FACTORY,
  N_PROPS
};

enum
{
  ACTIVATE,
  N_SIGNALS
};

static GParamSpec *props[N_PROPS];
static guint signals[N_SIGNALS];

/* --- the button ------------------------------------------------------------ */

static GtkWidget *
default_button (DmChoice  *self,
                gpointer   item,
                GtkWidget *old_child,
                gpointer   unused)
{
  GtkWidget *label = old_child ? old_child : gtk_label_new (NULL);

  if (!old_child)
    gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_text (GTK_LABEL (label),
                      GTK_IS_STRING_OBJECT (item) ? gtk_string_object_get_string (item) : "");
  return label;
}

static void
update_button (DmChoice *self)
{
  g_autoptr (GObject) item = NULL;
  DmChoiceButtonFunc func = self->button_func ? self->button_func : default_button;
  GtkWidget *child;

  if (self->model && self->selected != GTK_INVALID_LIST_POSITION)
    item = g_list_model_get_item (self->model, self->selected);
  self->shown = item;
  child = func (self, item, self->content, self->button_data);
  if (child == self->content)
    return;
  self->content = child;
  /* The label takes the room, the arrow stays at the end, as in GtkDropDown. */
  if (child)
    gtk_widget_set_hexpand (child, TRUE);
  gtk_menu_button_set_child (GTK_MENU_BUTTON (self->button), child);
  /* GtkMenuButton centres the box of child and arrow; GtkDropDown's
   * fills the button, its arrow at the end. */
  if (child && gtk_widget_get_parent (child) != self->button)
    gtk_widget_set_halign (gtk_widget_get_parent (child), GTK_ALIGN_FILL);
  /* Its "arrow-button" is themed with other padding and spacing than a
   * drop-down's button; without it the button is GtkDropDown's. */
  gtk_widget_remove_css_class (gtk_widget_get_first_child (self->button), "arrow-button");
}

/* --- the popover, made on first open --------------------------------------- */

static void
on_row_activated (GtkListView *list,
                  guint        position,
                  DmChoice    *self)
{
  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->button));
  dm_choice_set_selected (self, position);
}

/* The default rows: the string, and a check beside the one chosen. */
static void
on_selected_row (GtkListItem *item,
                 GParamSpec  *pspec,
                 GtkWidget   *check)
{
  gtk_widget_set_opacity (check, gtk_list_item_get_selected (item) ? 1.0 : 0.0);
}

static void
default_row_setup (GtkSignalListItemFactory *factory,
                   GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), check);
  g_signal_connect_object (item, "notify::selected", G_CALLBACK (on_selected_row), check, 0);
  gtk_list_item_set_child (item, box);
}

static void
default_row_bind (GtkSignalListItemFactory *factory,
                  GtkListItem              *item)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *label = gtk_widget_get_first_child (box);
  gpointer string = gtk_list_item_get_item (item);

  gtk_label_set_text (GTK_LABEL (label),
                      GTK_IS_STRING_OBJECT (string) ? gtk_string_object_get_string (string) : "");
  on_selected_row (item, NULL, gtk_widget_get_last_child (box));
}

static GtkListItemFactory *
default_list_factory (void)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (default_row_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (default_row_bind), NULL);
  return factory;
}

static void
make_popover (DmChoice *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  g_autoptr (GtkListItemFactory) fallback = NULL;

  /* Built as GtkDropDown builds its own (gtkdropdown.ui), so the list
   * looks and moves the same. */
  gtk_widget_add_css_class (popover, "menu");
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 400);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  self->selection = gtk_single_selection_new (self->model ? g_object_ref (self->model) : NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  if (!self->list_factory)
    fallback = default_list_factory ();
  self->list = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                  g_object_ref (self->list_factory ? self->list_factory : fallback));
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (self->list), TRUE);
  g_signal_connect (self->list, "activate", G_CALLBACK (on_row_activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->list);
  gtk_popover_set_child (GTK_POPOVER (popover), scrolled);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), popover);
}

/* Called by the menu button on every open. */
static void
on_create_popup (GtkMenuButton *button,
                 gpointer       data)
{
  DmChoice *self = data;
  GtkWidget *popover;

  if (!self->list)
    make_popover (self);
  popover = GTK_WIDGET (gtk_menu_button_get_popover (button));
  /* At least as wide as the button, as GtkDropDown's popup. */
  gtk_widget_set_size_request (popover, gtk_widget_get_width (GTK_WIDGET (self)), -1);
  gtk_single_selection_set_selected (self->selection, self->selected);
  if (self->selected != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (self->list, "list.scroll-to-item", "u", self->selected);
}

/* --- the selection --------------------------------------------------------- */

/* Keeps the selection on its item, as GtkSingleSelection with autoselect
 * does (GtkDropDown's): an item moved keeps it, one removed hands it to its
 * place's new item, and an empty choice in a list that has items takes
 * the first. */
static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  DmChoice   *self)
{
  guint n = g_list_model_get_n_items (model);
  guint old = self->selected;
  gpointer shown = self->shown;

  if (self->selected == GTK_INVALID_LIST_POSITION || self->selected < position)
    ;
  else if (self->selected >= position + removed)
    self->selected += added - removed;
  else
    {
      self->selected = GTK_INVALID_LIST_POSITION;
      for (guint i = position; i < position + added; i++)
        {
          g_autoptr (GObject) item = g_list_model_get_item (model, i);

          if (item == shown)
            self->selected = i;
        }
      if (self->selected == GTK_INVALID_LIST_POSITION && n > 0)
        self->selected = MIN (position, n - 1);
    }
  if (self->selected == GTK_INVALID_LIST_POSITION && n > 0)
    self->selected = 0;
  /* The button may show every item (a width held for the widest). */
  update_button (self);
  if (self->selected != old)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED]);
  if (self->shown != shown)
    g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED_ITEM]);
}

void
dm_choice_set_selected (DmChoice *self,
                        guint     position)
{
  guint n;

  g_return_if_fail (DM_IS_CHOICE (self));
  n = self->model ? g_list_model_get_n_items (self->model) : 0;
  if (position >= n)
    position = GTK_INVALID_LIST_POSITION;
  if (position == self->selected)
    return;
  self->selected = position;
  if (self->selection)
    gtk_single_selection_set_selected (self->selection, position);
  update_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED_ITEM]);
}

guint
dm_choice_get_selected (DmChoice *self)
{
  g_return_val_if_fail (DM_IS_CHOICE (self), GTK_INVALID_LIST_POSITION);
  return self->selected;
}

gpointer
dm_choice_get_selected_item (DmChoice *self)
{
  g_return_val_if_fail (DM_IS_CHOICE (self), NULL);
  return self->shown;
}

void
dm_choice_set_model (DmChoice   *self,
                     GListModel *model)
{
  g_return_if_fail (DM_IS_CHOICE (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));
  if (model == self->model)
    return;
  if (self->model)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_set_object (&self->model, model);
  if (self->selection)
    gtk_single_selection_set_model (self->selection, model);
  if (model)
    g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), self);
  self->selected = model && g_list_model_get_n_items (model) > 0 ? 0
                                                                 : GTK_INVALID_LIST_POSITION;
  if (self->selection)
    gtk_single_selection_set_selected (self->selection, self->selected);
  update_button (self);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_MODEL]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED]);
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_SELECTED_ITEM]);
}

GListModel *
dm_choice_get_model (DmChoice *self)
{
  g_return_val_if_fail (DM_IS_CHOICE (self), NULL);
  return self->model;
}

void
dm_choice_set_button_func (DmChoice           *self,
                           DmChoiceButtonFunc  func,
                           gpointer            user_data,
                           GDestroyNotify      destroy)
{
  g_return_if_fail (DM_IS_CHOICE (self));
  if (self->button_destroy)
    self->button_destroy (self->button_data);
  self->button_func = func;
  self->button_data = user_data;
  self->button_destroy = destroy;
  /* A new function starts from its own widget. */
  self->content = NULL;
  update_button (self);
}

void
dm_choice_set_list_factory (DmChoice           *self,
                            GtkListItemFactory *factory)
{
  g_return_if_fail (DM_IS_CHOICE (self));
  g_return_if_fail (factory == NULL || GTK_IS_LIST_ITEM_FACTORY (factory));
  if (!g_set_object (&self->list_factory, factory))
    return;
  if (self->list)
    {
      g_autoptr (GtkListItemFactory) fallback = factory ? NULL : default_list_factory ();

      gtk_list_view_set_factory (GTK_LIST_VIEW (self->list), factory ? factory : fallback);
    }
  g_object_notify_by_pspec (G_OBJECT (self), props[PROP_LIST_FACTORY]);
}

GtkListItemFactory *
dm_choice_get_list_factory (DmChoice *self)
{
  g_return_val_if_fail (DM_IS_CHOICE (self), NULL);
  return self->list_factory;
}

GtkWidget *
dm_choice_new (GListModel *model)
{
  return g_object_new (DM_TYPE_CHOICE, "model", model, NULL);
}

/* --- the class ------------------------------------------------------------- */

static void
dm_choice_activate (DmChoice *self)
{
  gtk_menu_button_popup (GTK_MENU_BUTTON (self->button));
}

static gboolean
dm_choice_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (DM_CHOICE (widget)->button);
}

/* Only an hexpand set on the choice counts: the label's, which keeps the
 * arrow at the end, must not make every choice take the row's room. */
static void
dm_choice_compute_expand (GtkWidget *widget,
                          gboolean  *hexpand,
                          gboolean  *vexpand)
{
  *hexpand = FALSE;
  *vexpand = FALSE;
}

static void
dm_choice_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  DmChoice *self = DM_CHOICE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_SELECTED:
      g_value_set_uint (value, self->selected);
      break;
    case PROP_SELECTED_ITEM:
      g_value_set_object (value, self->shown);
      break;
    case PROP_LIST_FACTORY:
      g_value_set_object (value, self->list_factory);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dm_choice_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  DmChoice *self = DM_CHOICE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      dm_choice_set_model (self, g_value_get_object (value));
      break;
    case PROP_SELECTED:
      dm_choice_set_selected (self, g_value_get_uint (value));
      break;
    case PROP_LIST_FACTORY:
      dm_choice_set_list_factory (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
dm_choice_dispose (GObject *object)
{
  DmChoice *self = DM_CHOICE (object);

  if (self->model)
    g_signal_handlers_disconnect_by_func (self->model, on_items_changed, self);
  g_clear_object (&self->model);
  self->shown = NULL;
  g_clear_object (&self->selection);
  g_clear_object (&self->list_factory);
  if (self->button_destroy)
    self->button_destroy (self->button_data);
  self->button_destroy = NULL;
  self->button_func = NULL;
  g_clear_pointer (&self->button, gtk_widget_unparent);
  self->content = NULL;
  self->list = NULL;
  G_OBJECT_CLASS (dm_choice_parent_class)->dispose (object);
}

static void
dm_choice_class_init (DmChoiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = dm_choice_get_property;
  object_class->set_property = dm_choice_set_property;
  object_class->dispose = dm_choice_dispose;
  widget_class->grab_focus = dm_choice_grab_focus;
  widget_class->compute_expand = dm_choice_compute_expand;

  props[PROP_MODEL] = g_param_spec_object ("model", NULL, NULL, G_TYPE_LIST_MODEL,
                                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                             | G_PARAM_STATIC_STRINGS);
  props[PROP_SELECTED] = g_param_spec_uint ("selected", NULL, NULL, 0, G_MAXUINT,
                                            GTK_INVALID_LIST_POSITION,
                                            G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                              | G_PARAM_STATIC_STRINGS);
  props[PROP_SELECTED_ITEM] = g_param_spec_object ("selected-item", NULL, NULL, G_TYPE_OBJECT,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  props[PROP_LIST_FACTORY] = g_param_spec_object ("list-factory", NULL, NULL,
                                                  GTK_TYPE_LIST_ITEM_FACTORY,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                    | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, props);

  /* Opens the list, as GtkDropDown's "activate" (a mnemonic, a test). */
  signals[ACTIVATE] = g_signal_new_class_handler ("activate", G_TYPE_FROM_CLASS (klass),
                                                  G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
                                                  G_CALLBACK (dm_choice_activate), NULL, NULL,
                                                  NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_activate_signal (widget_class, signals[ACTIVATE]);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "dropdown");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_COMBO_BOX);
}

static void
dm_choice_init (DmChoice *self)
{
  GtkWidget *toggle;

  self->selected = GTK_INVALID_LIST_POSITION;
  self->button = gtk_menu_button_new ();
  gtk_menu_button_set_always_show_arrow (GTK_MENU_BUTTON (self->button), TRUE);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (self->button), on_create_popup, self,
                                         NULL);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
  /* A screen reader is on the focused toggle button: it is named by the
   * choice, whose label the window sets (the target's figures, the modes'
   * "Columns to run"). */
  toggle = gtk_widget_get_first_child (self->button);
  if (toggle)
    gtk_accessible_update_relation (GTK_ACCESSIBLE (toggle), GTK_ACCESSIBLE_RELATION_LABELLED_BY,
                                    self, NULL, -1);
  update_button (self);
}
