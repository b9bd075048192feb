#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Debian packages as a user gets them: in a fresh Debian 12 (debootstrap
# minbase) chroot, installing diskmeter-cli pulls no GTK, GLib or X library
# and the CLI runs the demo profile on a folder; installing diskmeter brings
# a desktop file and metainfo that desktop-file-validate and appstreamcli
# validate --no-net accept where they are installed, and the compiled
# GSettings schema; the translations come with diskmeter-cli; apt-get purge
# leaves no file of either package.
#
# The packages are dist/*.deb when they are newer than every source file
# (build-aux/package-deb made them from this tree), else build-aux/package-deb
# makes them (without its unit suite: CI runs that apart). The minbase tree
# and the .deb files apt downloads are kept in ~/.cache/diskmeter-debootstrap
# (DM_DEBOOTSTRAP_CACHE), outside the repository, so a rerun downloads little.
# Needs root and the network (the Debian mirror debootstrap and apt use by
# default, or DM_DEBOOTSTRAP_MIRROR).

source "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || dm_skip "not root: debootstrap, chroot and mounts need root"
for tool in debootstrap chroot dpkg-deb mount umount mountpoint; do
  command -v "$tool" >/dev/null || dm_die "$tool is missing (build-aux/dev installs debootstrap)"
done

src="$DM_SOURCE_ROOT"
suite=bookworm
cache="${DM_DEBOOTSTRAP_CACHE:-$HOME/.cache/diskmeter-debootstrap}"
base="$cache/$suite-minbase"
archives="$cache/archives"
mkdir -p "$cache" "$archives/partial"

# --- The packages -------------------------------------------------------------
version="$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$src/debian/changelog")"
arch="$(dpkg --print-architecture)"
cli_deb="$src/dist/diskmeter-cli_${version}_$arch.deb"
gui_deb="$src/dist/diskmeter_${version}_$arch.deb"

newest_source ()
{
  "$src/build-aux/source-files" | (cd "$src" && xargs -0 stat -c %Y -- 2>/dev/null) |
    sort -n | tail -n1
}
if [ -f "$cli_deb" ] && [ -f "$gui_deb" ] \
   && [ "$(stat -c %Y "$cli_deb")" -gt "$(newest_source)" ] \
   && [ "$(stat -c %Y "$gui_deb")" -gt "$(newest_source)" ]; then
  dm_log "using dist/ (newer than every source file)"
else
  dm_log "building the packages: build-aux/package-deb"
  start=$SECONDS
  DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" "$src/build-aux/package-deb" >"$DM_BUILD_ROOT/package-deb.log" 2>&1 \
    || { tail -n 40 "$DM_BUILD_ROOT/package-deb.log"; dm_die "build-aux/package-deb failed (log: $DM_BUILD_ROOT/package-deb.log)"; }
  dm_log "built in $((SECONDS - start)) s"
fi
dm_check "dist/ holds diskmeter-cli $version" test -f "$cli_deb"
dm_check "dist/ holds diskmeter $version" test -f "$gui_deb"
[ -f "$cli_deb" ] && [ -f "$gui_deb" ] || dm_finish

# What the CLI's package declares, before anything is installed.
no_gui_depends ()
{
  local deps
  deps="$(dpkg-deb -f "$cli_deb" Depends)"
  dm_log "diskmeter-cli Depends: $deps"
  ! grep -qiE 'gtk|glib|libx11|wayland|cairo|pango' <<<"$deps"
}
dm_check "diskmeter-cli depends on no GTK, GLib or X library" no_gui_depends
gui_depends_on_cli ()
{
  dpkg-deb -f "$gui_deb" Depends | grep -qE "diskmeter-cli \(= $version\)"
}
dm_check "diskmeter depends on diskmeter-cli of its version" gui_depends_on_cli

# --- The chroot -----------------------------------------------------------------
if [ ! -x "$base/usr/bin/apt-get" ]; then
  dm_log "debootstrap --variant=minbase $suite into $base (once; kept for later runs)"
  rm -rf --one-file-system "$base.tmp"
  debootstrap --variant=minbase "$suite" "$base.tmp" ${DM_DEBOOTSTRAP_MIRROR:+"$DM_DEBOOTSTRAP_MIRROR"} \
    >"$cache/debootstrap.log" 2>&1 \
    || { tail -n 20 "$cache/debootstrap.log"; dm_die "debootstrap failed (log: $cache/debootstrap.log)"; }
  rm -f "$base.tmp"/var/cache/apt/archives/*.deb
  mv "$base.tmp" "$base"
fi

root="$(mktemp -d /var/tmp/diskmeter-chroot.XXXXXX)" || dm_die "mktemp failed"
_dm_dirs+=("$root")
start=$SECONDS
cp -a "$base/." "$root/"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
for m in proc sys dev; do
  mount --bind "/$m" "$root/$m" || dm_die "cannot bind /$m into the chroot"
  dm_track_mount "$root/$m"
done
# apt's downloads are kept between runs.
mount --bind "$archives" "$root/var/cache/apt/archives" || dm_die "cannot bind the apt cache"
dm_track_mount "$root/var/cache/apt/archives"
# No service starts inside the chroot.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
mkdir -p "$root/pkgs"
cp "$cli_deb" "$gui_deb" "$root/pkgs/"
dm_log "fresh $suite minbase chroot in $((SECONDS - start)) s: $root"

in_root ()
{
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

start=$SECONDS
in_root apt-get update -q >"$root/apt-update.log" 2>&1 \
  || { cat "$root/apt-update.log"; dm_die "apt-get update failed in the chroot"; }
dm_log "apt-get update: $((SECONDS - start)) s"

# --- diskmeter-cli --------------------------------------------------------------
start=$SECONDS
in_root apt-get install -y -q ./pkgs/"$(basename "$cli_deb")" >"$root/apt-cli.log" 2>&1 \
  || { tail -n 30 "$root/apt-cli.log"; dm_die "apt-get install diskmeter-cli failed"; }
dm_log "apt-get install ./diskmeter-cli: $((SECONDS - start)) s"
pulled="$(sed -n 's/^Unpacking \([^ :]*\).*/\1/p' "$root/apt-cli.log" | sort -u | tr '\n' ' ')"
dm_log "diskmeter-cli pulled: $pulled"
no_gui_pulled () { ! grep -qiE 'gtk|glib|libx11|wayland|cairo|pango|gdk|mesa' <<<"$pulled"; }
dm_check "installing diskmeter-cli pulls no GTK, GLib or X library" no_gui_pulled
links_resolve () { ! in_root ldd /usr/bin/diskmeter-cli | grep -q 'not found'; }
dm_check "every library diskmeter-cli needs is installed" links_resolve
no_gtk_linked () { ! in_root ldd /usr/bin/diskmeter-cli | grep -qiE 'gtk|glib|gobject'; }
dm_check "diskmeter-cli links no GTK or GLib" no_gtk_linked
dm_check "the man page is installed" test -f "$root/usr/share/man/man1/diskmeter-cli.1.gz"
dm_check "the bash completion is installed" \
  test -f "$root/usr/share/bash-completion/completions/diskmeter-cli"
# The translations serve both programs and come with diskmeter-cli.
if [ -d "$src/po" ]; then
  mo_files="$(dpkg-deb -c "$cli_deb" | grep -oE '/usr/share/locale/[^ ]*/diskmeter\.mo$')"
  dm_log "translations: $(echo $mo_files)"
  dm_check "diskmeter-cli carries the translations" test -n "$mo_files"
  mo_installed ()
  {
    local f
    for f in $mo_files; do [ -f "$root$f" ] || return 1; done
  }
  dm_check "the translations are installed" mo_installed
fi

mkdir -p "$root/var/tmp/dm-target" "$root/var/tmp/dm-home"
run_demo ()
{
  in_root env XDG_DATA_HOME=/var/tmp/dm-home diskmeter-cli --profile demo --count 1 \
    --size 16MiB --duration 1 --warmup 0 --interval 0 --quiet /var/tmp/dm-target \
    >"$root/demo.txt" 2>&1
  local rc=$?
  sed 's/^/#   /' "$root/demo.txt"
  [ "$rc" = 0 ] && grep -q 'SEQ' "$root/demo.txt"
}
dm_check "diskmeter-cli --profile demo runs on a folder" run_demo
dm_check "the demo run left no test file" test -z "$(ls -A "$root/var/tmp/dm-target")"

# --- diskmeter (the window) -------------------------------------------------------
start=$SECONDS
in_root apt-get install -y -q --no-install-recommends ./pkgs/"$(basename "$gui_deb")" \
  desktop-file-utils appstream >"$root/apt-gui.log" 2>&1 \
  || { tail -n 30 "$root/apt-gui.log"; dm_die "apt-get install diskmeter failed"; }
dm_log "apt-get install ./diskmeter desktop-file-utils appstream: $((SECONDS - start)) s"
gui_links () { ! in_root ldd /usr/bin/diskmeter | grep -q 'not found'; }
dm_check "every library diskmeter needs is installed" gui_links
desktop="/usr/share/applications/io.github.diskmeter.Diskmeter.desktop"
metainfo="/usr/share/metainfo/io.github.diskmeter.Diskmeter.metainfo.xml"
validate_desktop () { in_root desktop-file-validate "$desktop"; }
dm_check "desktop-file-validate accepts the installed desktop file" validate_desktop
validate_metainfo () { in_root appstreamcli validate --no-net "$metainfo"; }
dm_check "appstreamcli validate --no-net accepts the installed metainfo" validate_metainfo
dm_check "the icon is installed" \
  test -f "$root/usr/share/icons/hicolor/scalable/apps/io.github.diskmeter.Diskmeter.svg"
schema_compiled () { grep -q io.github.diskmeter.Diskmeter "$root/usr/share/glib-2.0/schemas/gschemas.compiled"; }
dm_check "the GSettings schema is compiled" schema_compiled
dm_check "the window's man page is installed" test -f "$root/usr/share/man/man1/diskmeter.1.gz"
gui_help () { in_root env GSETTINGS_BACKEND=memory diskmeter --help | grep -q -- --save-screenshot; }
dm_check "diskmeter --help runs" gui_help

# --- apt-get purge --------------------------------------------------------------
files="$(in_root dpkg -L diskmeter diskmeter-cli | sort -u)"
rm -rf "$root/var/tmp/dm-target" "$root/var/tmp/dm-home" "$root/demo.txt"
start=$SECONDS
in_root apt-get purge -y -q diskmeter diskmeter-cli >"$root/apt-purge.log" 2>&1 \
  || { tail -n 30 "$root/apt-purge.log"; dm_die "apt-get purge failed"; }
dm_log "apt-get purge: $((SECONDS - start)) s"
left_behind ()
{
  local f left=""
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    # Folders others share (/usr/bin) stay; files and our own folders go.
    if [ -e "$root$f" ] && { [ ! -d "$root$f" ] || [[ $f == *diskmeter* ]]; }; then
      left+=" $f"
    fi
  done <<<"$files"
  # Anything named for Diskmeter, and anything in a folder so named.
  left+=" $(in_root find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /pkgs \
    -o -path /var/log \) -prune -o -ipath '*diskmeter*' -print | tr '\n' ' ')"
  [ -z "${left// /}" ] || { dm_log "left behind:$left"; return 1; }
}
dm_check "apt-get purge leaves no file of the packages" left_behind
schema_gone () { ! grep -q io.github.diskmeter.Diskmeter "$root/usr/share/glib-2.0/schemas/gschemas.compiled"; }
dm_check "the compiled GSettings schema no longer holds ours" schema_gone

dm_finish
