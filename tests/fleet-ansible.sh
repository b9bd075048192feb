#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The fleet playbook (deploy/ansible) run for real with ansible-playbook:
# three hosts on this machine (ansible_connection=local), each measuring
# its own ext4 on a loop device read-throttled by its own block cgroup to
# 30, 40 and 50 MB/s, all at one TIME the playbook computes. The merged sum
# must be within 3 % of 120 MB/s and each host within 3 % of its throttle;
# the merged p99 must be the p99 of one histogram of all hosts' buckets.
. "$(dirname "$0")/lib.sh"
dm_need_cli
dm_need_loop
dm_need_cgroup
command -v ansible-playbook >/dev/null \
  || dm_die "ansible-playbook is missing (build-aux/dev installs Debian's ansible)"
dm_tmpdir
work="$DM_TMPDIR"
playbook="$DM_SOURCE_ROOT/deploy/ansible/diskmeter-fleet.yml"

# Ansible keeps its state in the test's folder, never in the tester's home.
export ANSIBLE_HOME="$work/ansible" ANSIBLE_LOCAL_TEMP="$work/ansible/tmp"
export ANSIBLE_REMOTE_TEMP="$work/ansible/remote" ANSIBLE_ASYNC_DIR="$work/ansible/async"
export ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0
export ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3

rates=(30000000 40000000 50000000) # bytes per second, read
hosts=""
dm_cgroup_create
first_group="$DM_CGROUP"
for i in 1 2 3; do
  dm_loop_create 256
  dm_mkfs_mount
  if [ "$i" = 1 ]; then
    DM_CGROUP="$first_group"
  else
    DM_CGROUP="$DM_CGROUP_ROOT/diskmeter-test-$$-h$i"
    mkdir "$DM_CGROUP" || dm_skip "cannot create block cgroup $DM_CGROUP"
    _dm_cgroups+=("$DM_CGROUP")
  fi
  dm_throttle read_bps "${rates[i - 1]}"
  dm_log "host h$i: $DM_MNT on $DM_LOOP, reads throttled to ${rates[i - 1]} B/s in $DM_CGROUP"
  mkdir "$work/remote-h$i"
  # The run enters its host's cgroup before it starts.
  hosts+="    h$i:
      diskmeter_target: '$DM_MNT'
      diskmeter_remote_dir: '$work/remote-h$i'
      diskmeter_wrapper: ['sh', '-c', 'echo \$\$ > $DM_CGROUP/cgroup.procs && exec \"\$@\"', 'sh']
"
done

formats="[text, json, csv]"
"$DM_CLI" merge x.json y.json --format xlsx 2>&1 | grep -q "without Excel" \
  || formats="[text, json, csv, xlsx]"
cat > "$work/inventory.yml" <<EOF
diskmeter:
  vars:
    ansible_connection: local
    diskmeter_margin: 25
    diskmeter_tests: SEQ1M_Q8T1
    diskmeter_modes: read
    diskmeter_count: 3
    diskmeter_duration: 3
    diskmeter_warmup: 1
    diskmeter_interval: 0
    diskmeter_size: 64MiB
    diskmeter_results_dir: '$work/results'
    diskmeter_controller_cli: '$DM_CLI'
    diskmeter_binary_src: '$DM_CLI'
    diskmeter_merge_formats: $formats
  hosts:
$hosts
EOF
sed 's/^/#   /' "$work/inventory.yml"

dm_settle
t0=$(date +%s)
(cd "$work" && ansible-playbook -i inventory.yml -f 3 "$playbook") > "$work/ansible.log" 2>&1
rc=$?
t1=$(date +%s)
sed 's/^/#   /' "$work/ansible.log" | grep -v '^#   *$' | tail -n 60
dm_log "ansible-playbook took $((t1 - t0)) s"
dm_check "ansible-playbook exits 0" [ "$rc" = 0 ]
res="$work/results"
for i in 1 2 3; do
  dm_check "h$i's report was fetched" [ -s "$res/h$i.json" ]
  dm_check "h$i's run completed" [ "$(dm_json "$res/h$i.json" 'j["status"]')" = complete ]
done
[ -s "$res/merged.json" ] || dm_die "no merged report"
dm_check "the merged text report is there" grep -q 'fleet report of 3 hosts' "$res/merged.txt"
dm_check "and every format asked for" \
  eval '[ -s "$res/merged.csv" ] && { [ "$formats" = "[text, json, csv]" ] || [ -s "$res/merged.xlsx" ]; }'
dm_check "the hosts ran scheduled" [ "$(dm_json "$res/merged.json" 'j["scheduled"]')" = True ]
dm_check "all three planned the same TIME and began on it" python3 - "$res" <<'EOF'
import datetime, json, sys
f = lambda s: datetime.datetime.strptime(s, '%Y-%m-%dT%H:%M:%S.%fZ').timestamp()
runs = [json.load(open('%s/h%d.json' % (sys.argv[1], i)))['results'][0] for i in (1, 2, 3)]
planned = {r['planned_start'] for r in runs}
late = [f(r['started']) - f(r['planned_start']) for r in runs]
print('# planned', planned, 'late by', late)
sys.exit(0 if len(planned) == 1 and all(0 <= x < 0.5 for x in late) else 1)
EOF

row='j["results"][0]'
sum=$(dm_json "$res/merged.json" "$row[\"mb_per_s\"]")
dm_within "merged sum MB/s vs the throttles' sum" "$sum" 120 3
for i in 1 2 3; do
  dm_within "h$i MB/s vs its throttle" \
    "$(dm_json "$res/merged.json" "$row[\"per_host\"][$((i - 1))][\"mb_per_s\"]")" \
    "$(python3 -c "print(${rates[i - 1]} / 1e6)")" 3
done

# The merged p99 against one histogram built here from every host's
# buckets, read as engine/dm-histogram.c reads a histogram.
dm_check "merged p99 (and p50, p99.9) = the percentile of one histogram of all buckets" \
  python3 - "$res" <<'EOF'
import json, math, sys
def bucket(ns):
    if ns < 128:
        return ns, 1
    width = 1 << (ns.bit_length() - 1 - 6)
    return ns - ns % width, width
buckets, lo, hi = {}, None, None
for i in (1, 2, 3):
    r = json.load(open('%s/h%d.json' % (sys.argv[1], i)))['results'][0]
    lo = min(x for x in (lo, int(r['latency_us']['min'] * 1000)) if x is not None)
    hi = max(x for x in (hi, int(r['latency_us']['max'] * 1000)) if x is not None)
    for ns, n in r['latency_histogram']['read'] + r['latency_histogram']['write']:
        low, _ = bucket(int(ns))
        buckets[low] = buckets.get(low, 0) + int(n)
total = sum(buckets.values())
def quantile(q):
    rank, seen = max(1, math.ceil(q * total)), 0
    for low in sorted(buckets):
        seen += buckets[low]
        if seen >= rank:
            w = bucket(low)[1]
            return min(max(low + (w - 1) / 2.0 if w > 1 else float(low), lo), hi) / 1000
m = json.load(open(sys.argv[1] + '/merged.json'))['results'][0]['latency_us']
bad = 0
for key, q in (('p50', 0.5), ('p99', 0.99), ('p99_9', 0.999)):
    ok = abs(m[key] - quantile(q)) <= 0.0011
    print('# %s merged %.3f us, one histogram %.3f us' % (key, m[key], quantile(q)))
    bad += not ok
sys.exit(1 if bad else 0)
EOF
dm_finish
