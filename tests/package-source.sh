#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Debian packages can be built from a tree without git, as a user who
# downloaded a tarball has it: in a copy of the source tree without .git,
# with build folders, dist/ and scratch files in it, and a PATH without
# git, build-aux/source-files lists what git lists in the clone, and
# build-aux/package-deb hands dpkg-buildpackage exactly those files and
# puts its packages into dist/. dpkg-buildpackage itself is a stand-in that
# records the tree it was given: the real build is tests/package-deb.sh's.

source "$(dirname "$0")/lib.sh"

src="$DM_SOURCE_ROOT"
for tool in tar find dpkg-parsechangelog; do
  command -v "$tool" >/dev/null || dm_skip "$tool is missing (build-aux/dev installs dpkg-dev)"
done

out="$(mktemp -d "${TMPDIR:-/tmp}/dm-package-source.XXXXXX")" || dm_die "mktemp failed"
_dm_dirs+=("$out")
tree="$out/diskmeter-tarball"
mkdir "$tree"

# The tree as a tarball has it: no .git, and none of what a build leaves.
tar -C "$src" --exclude=./.git --exclude=./build --exclude='./build-*' --exclude=./dist \
  --exclude='*.tmp' --exclude=__pycache__ -cf - . | tar -C "$tree" -xf - \
  || dm_die "cannot copy the source tree"
cp -a "$src/build-aux/." "$tree/build-aux/"
# What a build and a user leave in it, which neither list may hold.
mkdir -p "$tree/build/engine" "$tree/build-win/x" "$tree/dist" "$tree/tests/__pycache__"
touch "$tree/build/engine/dm-runner.c.o" "$tree/build-win/x/diskmeter-cli.exe" \
  "$tree/dist/diskmeter_0_all.deb" "$tree/tests/__pycache__/png.cpython.pyc" "$tree/notes.tmp"

# A PATH of everything the machine has but git, and a dpkg-buildpackage
# (and dh, only looked for) that record the tree instead of building.
bin="$out/bin"
mkdir "$bin"
IFS=: read -r -a path_dirs <<<"$PATH"
for d in "${path_dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name="${f##*/}"
    case "$name" in git | git-* | dpkg-buildpackage | dh | lintian) continue ;; esac
    [ -x "$f" ] && [ ! -e "$bin/$name" ] && ln -s "$f" "$bin/$name"
  done
done
cat >"$bin/dpkg-buildpackage" <<'STUB'
#!/bin/bash
# Records the files it was given and leaves two empty packages.
set -e
# Symbolic links are sources too: the sysfs trees in tests/data are made of them.
find . \( -type f -o -type l \) -printf '%P\n' | LC_ALL=C sort >"$DM_STUB_LIST"
v="$(dpkg-parsechangelog -S Version)"
a="$(dpkg --print-architecture)"
touch ../diskmeter_"$v"_"$a".deb ../diskmeter-cli_"$v"_"$a".deb
STUB
printf '#!/bin/sh\nexit 0\n' >"$bin/dh"
chmod +x "$bin/dpkg-buildpackage" "$bin/dh"
no_git () { ! PATH="$bin" command -v git >/dev/null; }
dm_check "git is not on the test's PATH" no_git

# What the clone holds, as git names it (where this tree is a clone).
if [ -e "$src/.git" ] && command -v git >/dev/null; then
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    (cd "$src" && while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\n' "$f"; done) |
    LC_ALL=C sort >"$out/expected"
  from_git=1
else
  # A tree without git: every file of the copy but what was planted.
  (cd "$tree" && find . \( -path ./build -o -path ./build-win -o -path ./dist \
      -o -name __pycache__ \) -prune -o -type f ! -name '*.tmp' -printf '%P\n') |
    LC_ALL=C sort >"$out/expected"
  from_git=0
  dm_log "no git clone here: the expected list is the copy less what was planted"
fi
dm_log "$(wc -l <"$out/expected") source files"

listed ()
{
  PATH="$bin" "$tree/build-aux/source-files" >"$out/listed.z" || return 1
  tr '\0' '\n' <"$out/listed.z" | LC_ALL=C sort >"$out/listed"
  diff -u "$out/expected" "$out/listed" | sed 's/^/#   /' | head -n 20
  cmp -s "$out/expected" "$out/listed"
}
dm_check "without git, source-files lists the files git lists in the clone" listed

package ()
{
  (cd "$tree" && PATH="$bin" DM_STUB_LIST="$out/built" build-aux/package-deb) \
    >"$out/package.log" 2>&1
  local rc=$?
  sed 's/^/#   /' "$out/package.log" | tail -n 20
  return "$rc"
}
dm_check "without git, build-aux/package-deb runs to its end" package
given ()
{
  [ -f "$out/built" ] || return 1
  diff -u "$out/expected" "$out/built" | sed 's/^/#   /' | head -n 20
  cmp -s "$out/expected" "$out/built"
}
dm_check "dpkg-buildpackage was given the source files, no build folder or dist/" given
version="$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$src/debian/changelog")"
in_dist () { ls "$tree"/dist/diskmeter_"$version"_*.deb "$tree"/dist/diskmeter-cli_"$version"_*.deb >/dev/null 2>&1; }
dm_check "the packages are in dist/" in_dist
[ "$from_git" = 1 ] || dm_skip_part "comparing with git's list: this tree is no git clone"

dm_finish
