#!/usr/bin/env bash
# The CLI's help, listing and every kind of bad usage: exit codes and the messages a user sees.
# Usage errors must be caught before the GPU is touched, so all of this runs without one.
#   test_cli.sh CLIMB CLIMB_TEST DATA_DIR
# CLIMB_TEST is the same CLI with the test workload (affine) registered: options, input files, two dims, new types.
climb="$1"
climb_test="$2"
data="$3"
fails=0; checks=0

refute() { # refute 'regex' args...: the output must not match
    local pattern=$1; shift
    local out
    out=$("$climb" "$@" 2>&1)
    checks=$((checks + 1))
    if grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: climb $*: output has /$pattern/"; grep -E -- "$pattern" <<<"$out" | head -3; fails=$((fails + 1))
    fi
}

expect() { # expect EXIT_CODE 'regex' args...
    local want=$1 pattern=$2; shift 2
    local out rc
    out=$("$climb" "$@" 2>&1); rc=$?
    checks=$((checks + 1))
    if [ "$rc" != "$want" ]; then
        echo "FAIL: climb $*: exit $rc, expected $want"; echo "$out" | head -5; fails=$((fails + 1)); return
    fi
    if ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: climb $*: output lacks /$pattern/"; echo "$out" | head -5; fails=$((fails + 1))
    fi
}


# Counts from the registry as `climb list W` prints it, never typed by hand: adding a rung to a workload must not
# break this test. The exact names and counts of a table are checked on the test workload (climb-test, below).
rungs_of() { "$climb" list "$1" | awk '$1 ~ /^[0-9]+$/ && $3 ~ /^(vendor|ladder|best|bound)$/' | wc -l; }
cases_of() { "$climb" bench "$@" --dry-run 2>&1 | sed -nE 's/^[a-z0-9_]+: ([0-9]+) cases? x.*/\1/p'; }
expect 0 'usage: climb <command>' --help
# help is a command too; check writes JSON like the others.
expect 0 'usage: climb <command>' help
expect 0 'usage: climb bench' help bench
expect 0 'usage: climb wisdom' help wisdom
expect 2 "unknown command 'nosuch'" help nosuch
expect 0 '--json FILE' check --help
expect 2 'usage: climb <command>'
expect 2 "unknown command 'frobnicate'" frobnicate
expect 0 'climb 0\.1\.0 \(commit [0-9a-f]+|climb 0\.1\.0 \(commit unknown' version
expect 0 "^reduce +$(rungs_of reduce) rungs +n " list
expect 0 '^ +0 +[a-z0-9_]+ +vendor ' list reduce
expect 0 ' +best ' list reduce
[ "$("$climb" list reduce | grep -cE ' +best ')" = 1 ] || { echo "FAIL: reduce lists other than one best rung"; fails=$((fails + 1)); }
expect 0 ' +ladder ' list reduce
expect 0 ' +bound ' list transpose
expect 0 'pad +int +default 0' list transpose
expect 2 'transpose takes 2 sizes \(rows, cols\), this has 1' bench transpose --size 4096
expect 2 "transpose has no i32" bench transpose --type i32
expect 0 'options: none' list reduce
# Size classes: S the smallest bench size, L the largest, M the quick run's; listed by 'climb list'; one class,
# never with --size, --quick or --sweep. Noise target: a percentage, not with --profile.
expect 0 'size classes \(bench --size-class\): S 2\^22; M 2\^24; L 2\^28' list reduce
expect 0 '^  f32 n=2\^28' bench reduce --size-class L --dry-run
[ "$(cases_of reduce --size-class S)" = 2 ] || { echo "FAIL: reduce --size-class S: not 2 cases"; fails=$((fails + 1)); }
for w in $("$climb" list --names); do
    cs=$(cases_of "$w" --size-class S) cl=$(cases_of "$w" --size-class L)
    checks=$((checks + 1))
    if [ -z "$cs" ] || [ -z "$cl" ] || [ "$cs" -lt 1 ] || [ "$cl" -lt 1 ]; then
        echo "FAIL: $w: --size-class S or L runs no case ($cs, $cl)"; fails=$((fails + 1))
    fi
done
expect 2 "--size-class: 'X' is not S, M or L" bench reduce --size-class X
expect 2 '--size-class and --size: one or the other' bench reduce --size-class S --size 100
expect 2 '--size-class and --quick: one or the other' bench reduce --size-class S --quick
expect 2 '--size-class and --sweep: one or the other' bench reduce --size-class L --sweep sizes
expect 2 '--size-class given twice' bench reduce --size-class S --size-class L
expect 2 "--max-noise: '0' is not a percentage" bench reduce --max-noise 0
expect 2 'not with --batch, --min-samples, --max-time or --max-noise' bench reduce --max-noise 1 --profile
expect 0 'reduce: 4 cases' bench reduce --max-noise 0.5 --dry-run
expect 0 '--max-noise PCT' help bench

# Sweeps: each one's arguments parse (--dry-run: no GPU); the wrong ones are refused.
# A sweep over real inputs ({data}/...) is skipped, exit 0 and said, where the data folder lacks them; one over an
# option that stands for an environment variable lists its values' processes.
while read -r w s; do
    expect 0 "^$w: [0-9]+ cases? x [0-9]+ rungs?, sweep $s|^$w [a-z_]+=[0-9]+, sweep $s: in a process of its own|--sweep $s: skipped: its real inputs are not here" \
        bench "$w" --sweep "$s" --dry-run
done < <("$climb" list --sweeps)
CLIMB_DATA=/nonexistent/data expect 0 '^climb: --sweep images: skipped: its real inputs are not here \(/nonexistent/data/images/' \
    bench conv --sweep images --dry-run
# ... and with a data folder that has them ($CLIMB_DATA), they are read: four small P2 images.
imgdata=$(mktemp -d)
mkdir -p "$imgdata/images"
for f in boat_256_ascii cameraman cuda_teapot_1024 resolution_test_1920; do
    printf 'P2\n# test\n3 2\n9\n1 2 3\n4 5 9\n' >"$imgdata/images/$f.pgm"
done
CLIMB_DATA=$imgdata expect 0 '^conv: 16 cases x [0-9]+ rungs, sweep images' bench conv --sweep images --dry-run
# a dry run reads an image's header alone: a bad pixel is the run's to find, a bad header is
# file:line, exit 2, in the dry run too
printf 'P2\n3 2\n9\n1 2 3\n4 5 x\n' >"$imgdata/images/cameraman.pgm"
CLIMB_DATA=$imgdata expect 0 '^conv: 16 cases x [0-9]+ rungs, sweep images' bench conv --sweep images --dry-run
printf 'P2\n3 x\n9\n1 2 3\n4 5 9\n' >"$imgdata/images/cameraman.pgm"
CLIMB_DATA=$imgdata expect 2 "cameraman.pgm:2: the height: expected a number, found 'x'" \
    bench conv --sweep images --dry-run
rm -rf "$imgdata"
# An option that stands for an environment variable (streams' connections, CUDA_DEVICE_MAX_CONNECTIONS): a value
# this process does not have runs in a process of its own, started with the variable (its dry run lists its case,
# not refused, so the variable reached it); the value this process has, and 0, run here; check and tune refuse the
# others, saying which variable; a child keeps every other argument but the reports and the option's own --set.
unset CUDA_DEVICE_MAX_CONNECTIONS
expect 0 'streams connections=3: in a process of its own, CUDA_DEVICE_MAX_CONNECTIONS=3 from its start' \
    bench streams --set connections=0,3 --size 8 --dry-run
out=$("$climb" bench streams --set connections=0,3 --size 8 --set threads=96 --json /tmp/climb-env.json --dry-run 2>&1)
checks=$((checks + 1))
if ! grep -q 'threads=96 connections=3\]$' <<<"$out" || ! grep -q 'threads=96 connections=0\]$' <<<"$out" ||
    grep -q refused <<<"$out"; then
    echo "FAIL: bench streams --set connections=0,3 --dry-run: one case here, one in a child, none refused"
    echo "$out" | head -8
    fails=$((fails + 1))
fi
CUDA_DEVICE_MAX_CONNECTIONS=3 expect 0 'connections=5: in a process of its own' \
    bench streams --set connections=3,5 --size 8 --dry-run
out=$(CUDA_DEVICE_MAX_CONNECTIONS=3 "$climb" bench streams --set connections=3 --size 8 --dry-run 2>&1)
checks=$((checks + 1))
if grep -q 'process of its own' <<<"$out" || ! grep -q 'connections=3\]$' <<<"$out"; then
    echo "FAIL: the value the process has ran elsewhere"; echo "$out" | head -5; fails=$((fails + 1))
fi
expect 1 'refused: .*connections=4 needs CUDA_DEVICE_MAX_CONNECTIONS=4 from the process.s start \(here it is unset\)' \
    check streams --set connections=4 --dry-run
# No two reports to one file, stdout included.
expect 2 '^climb: --json and --csv cannot both go to stdout' bench reduce --json - --csv - --dry-run
expect 2 '^climb: --json and --md cannot both go to /tmp/climb-same' bench reduce --json /tmp/climb-same --md /tmp/./climb-same --dry-run
expect 2 '^climb: --csv and --md cannot both go to' bench reduce --csv /tmp/climb-same --md /tmp/../tmp/climb-same --dry-run
expect 0 'reduce: [0-9]+ cases' bench reduce --json /tmp/climb-a.json --csv /tmp/climb-a.csv --dry-run
# A usage error is one line, naming where the usage is
expect 2 "^climb: --size: '-1' is not a size .*\(see 'climb help bench'\)$" bench reduce --size -1
out=$("$climb" bench reduce --size -1 2>&1)
checks=$((checks + 1))
[ "$(wc -l <<<"$out")" = 1 ] || { echo "FAIL: a usage error takes $(wc -l <<<"$out") lines"; fails=$((fails + 1)); }
# --name=value (GNU style) for every option that takes a value; --max-time from 1 ms
first_ladder=$("$climb" list reduce | awk '$1 ~ /^[0-9]+$/ && $3 == "ladder" {print $2; exit}')
expect 0 '^reduce: 1 case x 1 rung' bench reduce --size=2^22 --type=i32 "--rung=$first_ladder" --dry-run
expect 0 '^reduce: 2 cases' bench reduce --size=5 --size 7 --type=f32 --dry-run
expect 0 '^reduce: [0-9]+ cases? x 2 rungs' bench reduce --rung 0 --rung=1 --dry-run   # the ordinals list prints
expect 2 "unknown rung '999'" bench reduce --rung 999 --dry-run
expect 2 "unknown or incomplete option '--quiet=1'" bench reduce --quiet=1 --dry-run
expect 2 "--max-time: '1e-9' is not a number of seconds \(0.001 to 3600\)" bench reduce --max-time 1e-9 --dry-run
# Every path a command writes is checked before any GPU work
expect 2 'cannot write /nonexistent/dir/w.json' tune reduce --wisdom /nonexistent/dir/w.json
expect 2 'cannot write /nonexistent/dir/d.json' devices --json /nonexistent/dir/d.json
expect 2 'cannot write /nonexistent/dir/cc35-block-size.svg' occupancy --cc 3.5 --threads 256 --svg /nonexistent/dir/cc35
expect 2 "--svg plots/: a prefix of file names, not a folder" occupancy --cc 3.5 --threads 256 --svg plots/
# a tunable's meaning never runs into its values
expect 0 'columns of C a thread computes \(8 rows each\) +8, 16' list sgemm
# One rule for repeats: lists add values; a value twice, or a one-value option twice, is an error
expect 0 '^reduce: 2 cases' bench reduce --size 5 --size 7 --type i32 --dry-run
expect 2 '^climb: --size 5 given twice$' bench reduce --size 5 --size 5 --dry-run
expect 2 '^climb: --type f32 given twice$' bench reduce --type f32 --type f32 --dry-run
expect 2 '^climb: --json given twice: it takes one value$' bench reduce --json /tmp/climb-a --json /tmp/climb-b --dry-run
expect 2 '^climb: --set dist given twice \(for histogram\)' bench histogram --set dist=uniform --set dist=constant --dry-run
expect 2 'bins: 7 is listed twice' bench histogram --set bins=7,7 --dry-run
expect 2 '^climb: --rung 0 given twice$' bench reduce --rung 0 --rung 0 --dry-run
# --dry-run in check and tune too, listing the cases
expect 0 '^  f32 N64 C64 56x56 K64 3x3 stride 1 \[pad=-1 tile=auto\]$' bench cnn --dry-run
expect 0 '^  f32 8192x8192 \[radius=2 dims=2 mask=random\]$' tune conv --dry-run
expect 0 '^conv: [0-9]+ cases x [0-9]+ candidates of [a-z_]+$' tune conv --dry-run
expect 0 "^reduce: [0-9]+ cases x $(rungs_of reduce) rungs" check reduce --dry-run
expect 0 '^  i32 n=1$' check reduce --quick --dry-run --type i32
# An option's check default (check_def): climb check, and so the sanitizer, runs every sgemm form and both
# histogram maps unless --set names one; bench keeps the plain default.
expect 0 '^sgemm: 12 cases x' check sgemm --quick --dry-run
expect 0 'form=tt\]$' check sgemm --quick --dry-run
expect 0 '^sgemm: 3 cases x' check sgemm --quick --set form=nt --dry-run
expect 0 '^histogram: 40 cases x' check histogram --quick --dry-run
expect 0 'map=letters' check histogram --quick --dry-run
expect 0 'u8 n=16777229 \[bins=256 map=letters dist=text\]' check histogram --quick --dry-run
expect 0 '^sgemm: 1 case x' bench sgemm --size 64x64x64 --dry-run
expect 0 'climb check runs all' list sgemm
# An option's tune default (tune_def): climb tune tunes each of gemm's precisions (a class each) unless --set
# names one; bench keeps the plain default.
expect 0 '^gemm: 18 cases x 16 candidates' tune gemm --dry-run
expect 0 'precision=3xtf32 inputs=uniform' tune gemm --dry-run
expect 0 '^gemm: 6 cases x 16 candidates' tune gemm --set precision=tf32 --dry-run
expect 0 '^gemm: 6 cases x' bench gemm --dry-run
expect 0 'climb tune runs all' list gemm
# the quick run (bench all's default, bench W --quick): each workload's main sizes; --full the bench list
expect 0 '^reduce: 2 cases x [0-9]+ rungs' bench reduce --quick --dry-run
expect 0 '^  f32 n=2\^24$' bench reduce --quick --dry-run
expect 0 '^reduce: 4 cases x [0-9]+ rungs' bench all --full --dry-run
expect 0 '^reduce: 2 cases x [0-9]+ rungs' bench all --dry-run
expect 0 '^reduce: 1 case x [0-9]+ rungs' bench reduce --quick --size 5 --type i32 --dry-run
expect 2 '^climb: --full and --quick: one or the other' bench reduce --quick --full
expect 2 '^climb: --quick given twice' bench reduce --quick --quick
expect 0 "quick run's sizes \(bench all, bench --quick\): 2\^24" list reduce
# help and version take what they document
expect 0 'usage: climb <command>' help help
expect 2 "help bench: 'nosuch' is not a workload" help bench nosuch
expect 0 '^reduce: Parallel reduction' help bench reduce
expect 2 "version takes no arguments; '--frob' is extra" version --frob
expect 2 "wisdom: unknown option '--frob'" wisdom show --frob
# --output: a file path, checked before any GPU work, for a workload that writes its output as a file
expect 2 "an empty file name or '-'" bench conv --output -
expect 2 'cannot write /nonexistent/dir/x.pgm' bench conv --output /nonexistent/dir/x.pgm --size 10x10
expect 2 'this workload writes no output file' bench reduce --output /tmp/climb-cli-out.txt --dry-run
expect 2 "name one, not 'all'" bench all --output /tmp/climb-cli-out.txt --dry-run
expect 0 '^transpose camping$' list --sweeps
expect 0 '^camping$' list transpose --sweeps
expect 0 'transpose: [0-9]+ cases x [0-9]+ rungs, sweep camping' bench transpose --sweep camping --dry-run
expect 0 "transpose: $(( 2 * $(cases_of transpose) )) cases x $(rungs_of transpose) rungs" bench transpose --dry-run --set pad=0,1
expect 2 'transpose has these sweeps: camping' bench transpose --sweep nope --dry-run
expect 2 'reduce has no sweeps' bench reduce --sweep camping
expect 2 "name one workload, not 'all'" bench all --sweep camping
expect 2 "unknown or incomplete option '--sweep'" check transpose --sweep camping
expect 0 'coalescing: [0-9]+ cases x [0-9]+ rungs, sweep offset' bench coalescing --sweep offset --dry-run
expect 0 "coalescing: [0-9]+ cases x $(rungs_of coalescing) rungs" bench coalescing --dry-run
# climb bandwidth is climb bench bandwidth
expect 0 "bandwidth: [0-9]+ cases x $(rungs_of bandwidth) rungs" bandwidth --dry-run --set direction=bidir
expect 0 'cudamemcpy_pinned +vendor' bandwidth --help
expect 0 'cudamemcpy_pinned +vendor' help bandwidth
expect 0 'bandwidth +Host <-> device transfers.*\(climb bench bandwidth\)' --help
expect 0 'command: climb bandwidth \(the same as climb bench bandwidth\)' list bandwidth
expect 2 "direction=sideways: not one of h2d, d2h, bidir" bandwidth --set direction=sideways
expect 2 "bandwidth's sweep sizes is drawn from the default bench" bandwidth --sweep sizes
expect 0 'types: i32, f32' list reduce
expect 0 '^reduce$' list --names
expect 0 'reduce: Parallel reduction' list all
expect 2 "unknown workload 'nosuch'" list nosuch
expect 2 'at most one workload' list reduce extra
expect 0 '--batch' bench --help
expect 0 'edge-size sweep' check --help
expect 0 'measured' devices --help
expect 0 'Lists the workloads' list --help
expect 2 'which workload' bench
expect 2 "unknown workload 'nosuch'" bench nosuch
expect 2 "unknown workload 'nosuch'" check nosuch
expect 2 "unknown rung 'reduce_nosuch'" bench reduce --rung reduce_nosuch
expect 2 "unknown rung 'x'" bench all --rung x
expect 2 "'f16' is not a type \(u8, i32, u32, u64, f32, f64\)" bench reduce --type f16
expect 2 '--type f64: reduce has no f64 \(its types: i32, f32\)' bench reduce --type f64
expect 2 '--type u8: reduce has no u8' check reduce --type u8
expect 2 "'abc' is not a size" bench reduce --size abc
expect 2 "'2\^x' is not a size" bench reduce --size '2^x'
expect 2 "'2\^99' is not a size" bench reduce --size '2^99'
expect 2 "'-5' is not a size" check reduce --size -5
expect 2 '--size 4096x4096: reduce takes 1 size \(n\), this has 2' bench reduce --size 4096x4096
expect 2 '--size 4097x4097x4097: reduce takes 1 size' bench reduce --size 4097x4097x4097
expect 2 "--set foo=1: reduce has no options" bench reduce --size 2^22 --set foo=1
expect 2 "--set 'foo': write NAME=VALUE" bench reduce --size 2^22 --set foo
expect 2 "--input x.txt: reduce reads no input file" bench reduce --input x.txt
expect 2 "--reference: 'gpu' is not one of auto, cpu, vendor, samples" bench reduce --reference gpu
expect 0 'Lists the workloads' list --help
expect 0 '--set NAME=V' bench reduce --help
expect 0 'reduce: Parallel reduction' bench reduce --help
expect 2 "unknown or incomplete option '--quick'" tune reduce --quick
expect 2 "'-1' is not a non-negative integer" bench reduce --seed -1
expect 2 "'0' is not a count" bench reduce --min-samples 0
expect 2 "'fast' is not a number of seconds" bench reduce --max-time fast
expect 2 "unknown or incomplete option '--frob'" bench reduce --frob
expect 2 "unknown or incomplete option '--json'" bench reduce --json
expect 2 "unknown or incomplete option '--batch'" check reduce --batch
expect 2 "'extra' is extra" check reduce extra
expect 2 "'x' is not a device ordinal" bench reduce --device x
expect 2 "unknown or incomplete option '--bogus'" devices --bogus

# The occupancy calculator needs no GPU: the texts' sheets, the limits table, the series, bad input.
expect 0 'Active per SM: 384 threads, 12 warps, 2 blocks' occupancy --cc 1.0 --threads 192 --regs 20 --smem 68
expect 0 'Occupancy: 50% \(12 of 24 warps\), limited by registers$' occupancy --cc 1.0 --threads 192 --regs 20 --smem 68
expect 0 'Allocation per block: 6 warps, 3840 registers, 512 B' occupancy --cc 1.0 --threads 192 --regs 20 --smem 68
expect 0 'Occupancy: 100% \(64 of 64 warps\), limited by warps per SM, registers' occupancy --cc 3.5 --threads 256 --regs 32 --smem 4096
expect 0 'allowed by: warps 8, blocks-per-SM limit 16, registers 8, shared memory 12' occupancy --cc 3.5 --threads 256 --regs 32 --smem 4096
# A block that cannot launch: the reason alone, and exit 1.
expect 1 '^Cannot launch: more threads per block' occupancy --cc 1.3 --threads 1024
refute 'Allocation per block|blocks-per-SM limit 0|Active per SM' occupancy --cc 1.3 --threads 1024
expect 1 'Cannot launch: .*shared memory' occupancy --cc 9.0 --threads 128 --smem 300000
# Strict compute capabilities, hints and notes (item 15).
expect 2 "'8\.-0' is not a compute capability" occupancy --cc 8.-0 --threads 32
expect 2 "'8\.\+0' is not a compute capability" occupancy --cc 8.+0 --threads 32
expect 2 "' 8\.0' is not a compute capability" occupancy --cc ' 8.0' --threads 32
expect 2 "'9\.0x' is not a compute capability" occupancy --cc 9.0x --threads 32
expect 2 'CC 10\.1 is called 11\.0 from CUDA 13' occupancy --cc 10.1 --threads 32
expect 0 'more than the 48 KB a block gets without opting in' occupancy --cc 9.0 --threads 128 --smem 60000
refute 'opting in' occupancy --cc 9.0 --threads 128 --smem 40000
expect 2 '--svg: an empty prefix' occupancy --cc 9.0 --threads 128 --svg ''
expect 0 'Allocation per block: 1 warp,' occupancy --cc 9.0 --threads 32
refute '[^0-9]1 warps' occupancy --cc 9.0 --threads 32 --series
expect 0 '^ 9\.0  Hopper +64 +2048 +32 +1024 +65536' occupancy --limits
expect 0 '^12\.1 ' occupancy --limits
expect 0 '^ 1\.0  Tesla G80 +24 +768 +8 +512 +8192' occupancy --limits
expect 0 '     256           : 64 warps \(100%\)' occupancy --cc 3.0 --threads 256 --series
expect 0 '      33 - 40      : 48 warps' occupancy --cc 9.0 --threads 256 --regs 40 --series
expect 2 "'9' is not a compute capability" occupancy --cc 9 --threads 32
expect 2 'does not know CC 4\.0' occupancy --cc 4.0 --threads 32
expect 2 'needs --cc and --threads' occupancy --cc 9.0
expect 2 'CC 9\.0 offers 0, 8192' occupancy --cc 9.0 --threads 32 --smem-config 5000
expect 2 'choose one of' occupancy --limits --cc 9.0 --threads 32
expect 2 "'-3' is not a register count" occupancy --cc 9.0 --threads 32 --regs -3
expect 2 "unknown workload in 'nosuch:1'" occupancy --kernel nosuch:1
expect 2 "no such rung in 'reduce:99'" occupancy --kernel reduce:99
expect 0 'memory of the compiled code' occupancy --help
svgdir=$(mktemp -d)
expect 0 "wrote $svgdir/o-shared-memory.svg" occupancy --cc 8.6 --threads 128 --regs 64 --smem 20000 --svg "$svgdir/o"
checks=$((checks + 1))
if ! python3 - "$svgdir" <<'PY'
import sys, xml.etree.ElementTree as ET
for name in ("block-size", "registers", "shared-memory"):
    root = ET.parse(f"{sys.argv[1]}/o-{name}.svg").getroot()
    assert root.tag.endswith("svg"), name
    ns = "{http://www.w3.org/2000/svg}"
    line = root.find(ns + "polyline")
    pts = line.get("points").split()
    assert len(pts) > 10, name
    assert root.find(ns + "polygon") is not None, name + ": no marker for the chosen value"
PY
then echo "FAIL: occupancy --svg did not write three valid SVG plots"; fails=$((fails + 1)); fi
rm -rf "$svgdir"

# Report paths are checked before any GPU work, every one of them, with the reason.
odir=$(mktemp -d)
expect 2 'cannot write /nonexistent/dir/r.json: No such file or directory' bench reduce --json /nonexistent/dir/r.json
refute 'CUDA device|NVIDIA driver|rung run' bench reduce --json /nonexistent/dir/r.json
expect 2 "cannot write /nonexistent/b.csv: No such file or directory" bench reduce --json /nonexistent/a.json \
    --csv /nonexistent/b.csv --md "$odir"
expect 2 "cannot write $odir: Is a directory" bench reduce --json /nonexistent/a.json --csv /nonexistent/b.csv --md "$odir"
expect 2 'cannot write /nonexistent/t.md' tune reduce --md /nonexistent/t.md --no-save
expect 2 'cannot write /nonexistent/c.json' check reduce --json /nonexistent/c.json
echo keep >"$odir/old.json"
expect 2 'cannot write /nonexistent/b.csv' bench reduce --json "$odir/old.json" --csv /nonexistent/b.csv
checks=$((checks + 1))
if [ "$(cat "$odir/old.json")" != keep ] || [ -e "$odir/new.json" ]; then
    echo "FAIL: checking the report paths changed a file"; fails=$((fails + 1))
fi
"$climb" bench reduce --json "$odir/new.json" --csv /nonexistent/b.csv >/dev/null 2>&1
checks=$((checks + 1))
if [ -e "$odir/new.json" ]; then echo "FAIL: a path tried for a run that did not start was left behind"; fails=$((fails + 1)); fi
rm -rf "$odir"

# Wisdom files without a GPU: climb wisdom show|check.
wdir=$(mktemp -d)
entry() { # entry GPU CC BLOCK BLOCKS_PER_SM WORKLOAD
    printf '    {"workload": "%s", "gpu": "%s", "cc": "%s", "driver": 13000, "climb": "0.1.0",\n' "$5" "$1" "$2"
    printf '     "params": {"block": %s, "blocks_per_sm": %s, "vecs": 4}, "tuned": "2026-11-22T00:00:00Z"}' "$3" "$4"
}
{ echo '{"format": "climb wisdom 1", "entries": ['; entry "NVIDIA H200" 9.0 512 4 reduce; echo ','
  entry "NVIDIA L4" 8.9 256 6 reduce; echo; echo ']}'; } >"$wdir/w.json"
expect 0 'reduce +NVIDIA H200 +9\.0 +13000 +0\.1\.0 +block=512 blocks_per_sm=4 vecs=4' wisdom show "$wdir/w.json"
expect 0 "$wdir/w.json: 2 entries, all valid" wisdom check "$wdir/w.json"
{ echo '{"format": "climb wisdom 1", "entries": ['; entry "NVIDIA H200" 9.0 96 4 reduce; echo ','
  entry "NVIDIA L4" 8.9 512 4 reduce; echo ','; entry "NVIDIA H200" 9.0 512 4 nosuch; echo; echo ']}'; } >"$wdir/bad.json"
expect 1 "$wdir/bad.json:3: reduce: block is not one of 128, 256, 512, 1024" wisdom check "$wdir/bad.json"
expect 1 "$wdir/bad.json:5: reduce: block x blocks_per_sm is more threads than one SM holds" wisdom check "$wdir/bad.json"
expect 1 "$wdir/bad.json:6: no workload 'nosuch' in this climb" wisdom check "$wdir/bad.json"
expect 1 "3 entries, 3 not valid" wisdom check "$wdir/bad.json"
head -c 60 "$wdir/w.json" >"$wdir/cut.json"
expect 1 "$wdir/cut.json:[0-9]+: " wisdom check "$wdir/cut.json"
expect 1 "no wisdom file at $wdir/none.json" wisdom check "$wdir/none.json"
expect 1 "$wdir: not a regular file \(a directory\)" wisdom show "$wdir"
CLIMB_WISDOM="$wdir/w.json" expect 0 "$wdir/w.json: 2 entries, all valid" wisdom check
expect 2 "wisdom: 'frob' is not show or check" wisdom frob
expect 0 'usage: climb wisdom' wisdom --help
rm -rf "$wdir"

# Tuning and wisdom options.
expect 0 'Experiment mode' tune --help
expect 0 'tunable parameters of reduce_vectorized_single_pass' list reduce
expect 0 'tuned per class of type and shape: the element type, and large .*one wisdom entry a class' list transpose
expect 2 'which workload' tune
expect 2 "unknown workload 'nosuch'" tune nosuch
expect 2 "unknown or incomplete option '--rung'" tune reduce --rung reduce_seq_addressing
expect 2 "unknown or incomplete option '--no-wisdom'" tune reduce --no-wisdom
expect 2 "unknown or incomplete option '--no-save'" bench reduce --no-save
expect 2 'an empty file name' bench reduce --wisdom ''
expect 2 'cannot both go to stdout' tune reduce --json - --md -

# The test CLI: the test workload's options, input files, two dims and types, all refused before the GPU.
tclimb() { climb="$climb_test" expect "$@"; }
tclimb 0 '^affine +[0-9]+ rungs +rows, cols' list
tclimb 0 'shape: rows, cols \(--size rowsxcols\)' list affine
tclimb 0 'types: u8, u32, f32, f64' list affine
tclimb 0 'alpha +float +default 1.5 +the scale' list affine
tclimb 0 'pad +int +default 0,3 ' list affine
tclimb 0 'op +choice +default axpb .*one of axpb rsqrt' list affine
tclimb 0 'input +file +default \(none\) .*also --input FILE' list affine
tclimb 0 'candidates: the 8 sets listed' list affine
tclimb 0 'affine_tuned +best' list affine
# the test workload's table is this test's fixture: its names and counts are exact (contract v3's fields too)
tclimb 0 'affine_cub_transform +vendor' list affine
tclimb 0 'affine_host_blocks +ladder .*host part: timed by the wall clock' list affine
tclimb 0 'op +choice .*keys the tuning \(tuned per value\)' list affine
tclimb 0 'affine: 32 cases x [67] rungs' bench affine --dry-run --set op=all
tclimb 0 'affine: 4 cases x 1 rung' bench affine --dry-run --rung affine_host_blocks --type f32 --set pad=0,3
tclimb 0 'dist +choice' bench affine --help
tclimb 2 '--size 2\^22: affine takes 2 sizes \(rows, cols\), this has 1' bench affine --size 2^22
tclimb 2 '--size 2\^22: .*with .all., every size must fit every workload' bench all --size 2^22
tclimb 2 '--type i32: affine has no i32 \(its types: u8, u32, f32, f64\)' bench affine --type i32
tclimb 2 "--set bins=3: affine has no option 'bins' \\(its options: alpha, beta, pad, op, dist, input\\)" bench affine --set bins=3
tclimb 2 '--set affine: pad=x: not a whole number' bench affine --set pad=x
tclimb 2 '--set affine: pad=65: not in 0..64' check affine --set pad=65
tclimb 2 '--set affine: alpha: 5 is listed twice' bench affine --set alpha=1,5,5
tclimb 2 '--set affine: op=cube: not one of axpb, rsqrt \(or all\)' bench affine --set op=cube
tclimb 2 '--set affine: alpha=nan: not a number' tune affine --set alpha=nan
tclimb 2 "--set reduce.pad=1: reduce has no options" bench all --set reduce.pad=1
tclimb 2 "--set nosuch.pad=1: no workload 'nosuch' in this run" bench all --set nosuch.pad=1
tclimb 2 "--set zzz=1: no workload in this run has an option 'zzz'" bench all --set zzz=1
tclimb 2 '--input .*: name one workload, not .all.' bench all --input "$data/affine-3x4.txt"
tclimb 2 "--size cannot go with $data/affine-3x4.txt: the file gives the shape" bench affine --size 3x4 \
    --input "$data/affine-3x4.txt"
tdir=$(mktemp -d)
printf '2 2\n1 2\n3\n' >"$tdir/short.txt"
tclimb 2 "^climb: $tdir/short.txt:3: row 2 has 1 numbers, expected 2$" bench affine --input "$tdir/short.txt"
printf '1 2\n1 abc\n' >"$tdir/word.txt"
tclimb 2 "$tdir/word.txt:2: 'abc' is not a finite number" check affine --input "$tdir/word.txt"
printf '' >"$tdir/empty.txt"
tclimb 2 "$tdir/empty.txt:1: the file is empty" bench affine --input "$tdir/empty.txt"
tclimb 2 "$tdir/none.txt: cannot read: No such file" bench affine --input "$tdir/none.txt"
tclimb 2 "--input $tdir: a folder; affine reads one file a case: name the files" bench affine --input "$tdir"
tclimb 2 "--input: an empty file name" bench affine --input ''
tclimb 2 '^climb: --input .*affine-3x4.txt given twice$' bench affine --input "$data/affine-3x4.txt" \
    --input "$data/affine-3x4.txt"
tclimb 2 '--input: input: .*affine-3x4.txt is listed twice' bench affine --set "input=$data/affine-3x4.txt" \
    --input "$data/affine-3x4.txt"
# climb compare: a report against itself (every row the same, exit 0); a planted 20% regression (SLOW, exit 1); a
# change within the noise (SAME); another GPU refused without --force; a file that is not a report; bad usage.
rep="$(cd "$(dirname "$0")/.." && pwd)/results/h100-80gb-hbm3/reduce/bench.json"
if [ -f "$rep" ] && command -v python3 >/dev/null; then
    python3 - "$rep" "$tdir" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for name, factor, noise in (("slow", 1.2, 0.5), ("noisy", 1.02, 0.5), ("fast", 0.7, 0.5)):
    e = json.loads(json.dumps(d))
    for r in e["results"]:
        if r.get("median_us"):
            r["median_us"] *= factor
            r["noise_pct"] = noise
    json.dump(e, open(sys.argv[2] + "/" + name + ".json", "w"))
g = json.loads(json.dumps(d)); g["device"]["name"] = "Another GPU"; json.dump(g, open(sys.argv[2] + "/gpu.json", "w"))
t = json.loads(json.dumps(d)); t["timing"] = "batch"; json.dump(t, open(sys.argv[2] + "/batch.json", "w"))
o = json.loads(json.dumps(d)); o["results"] = o["results"][1:]; json.dump(o, open(sys.argv[2] + "/fewer.json", "w"))
PY
    expect 0 " 0 slower, 0 faster, [0-9]+ the same" compare "$rep" "$rep"
    expect 1 "\| SLOW \|" compare "$rep" "$tdir/slow.json"
    expect 1 " [1-9][0-9]* slower" compare "$rep" "$tdir/slow.json"
    expect 0 " 0 slower, 0 faster" compare "$rep" "$tdir/noisy.json"
    expect 0 "\| FAST \|" compare "$rep" "$tdir/fast.json"
    expect 0 " 0 slower" compare "$rep" "$tdir/slow.json" --threshold 25
    expect 2 "different GPUs; --force compares them anyway" compare "$rep" "$tdir/gpu.json"
    expect 2 "different timing modes" compare "$rep" "$tdir/batch.json"
    expect 0 "forced: different GPUs" compare "$rep" "$tdir/gpu.json" --force
    expect 0 "\| 1\.000× \|" compare "$rep" "$tdir/gpu.json" --force
    expect 1 "\| \+20\.0% \| 0\.833× \|" compare "$rep" "$tdir/slow.json"
    expect 0 "only in the old report: reduce cub_device_reduce i32 2\^22" compare "$rep" "$tdir/fewer.json"
    printf '{"tool": "other", "results": []}\n' >"$tdir/other.json"
    expect 1 "other.json: not a climb report" compare "$rep" "$tdir/other.json"
    expect 1 "affine-3x4.txt:line 1: " compare "$data/affine-3x4.txt" "$rep"
    expect 1 "none.json: No such file" compare "$rep" "$tdir/none.json"
    expect 2 "name the old and the new report" compare "$rep"
    # a report of format 2 with a rung renamed since (matadd's seed_2d) pairs with today's name in format 3
    old="$(dirname "$rep")/../matadd/bench.json"
    if [ -f "$old" ] && grep -q '"seed_2d"' "$old"; then
        python3 - "$old" "$tdir/renamed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["format"] = 3
for r in d["results"]:
    if r["rung"] == "seed_2d":
        r["rung"] = "textbook_2d"
for w in d.get("workloads", []):
    w["sources"] = w.pop("seed_ref", "")
json.dump(d, open(sys.argv[2], "w"))
PY
        expect 0 " 0 slower, 0 faster, [0-9]+ the same" compare "$old" "$tdir/renamed.json"
        expect 0 "textbook_2d" compare "$old" "$tdir/renamed.json"
        expect 0 " 0 only in the old report, 0 only in the new" compare "$old" "$tdir/renamed.json"
    fi
    expect 2 "--threshold 'x': a percentage" compare "$rep" "$rep" --threshold x
    expect 0 "usage: climb report \\[PATH...\\]" report --help
    expect 0 "report \\[PATH...\\] +one HTML page" help
fi
# The histogram's input file: an empty, missing or unreadable file is a clear error before any GPU work.
: >"$tdir/empty.bin"
expect 2 "$tdir/empty.bin: the file is empty: nothing to count" bench histogram --input "$tdir/empty.bin"
expect 2 "$tdir/none.bin: cannot read: No such file" check histogram --input "$tdir/none.bin"
expect 2 "--input $tdir: a folder; histogram reads one file a case: name the files" bench histogram --input "$tdir"
# A folder as SpMV's input: each .mtx file in it, by name, a case each (other files and folders left out); a folder
# with none is an error.
mkdir -p "$tdir/mtx/sub.mtx" "$tdir/nomtx"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1.5\n2 2 -2\n' >"$tdir/mtx/b.mtx"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 3\n' >"$tdir/mtx/a.mtx"
printf 'not a matrix\n' >"$tdir/mtx/README.md"
printf 'x\n' >"$tdir/nomtx/notes.txt"
expect 0 "spmv: 4 cases x" bench spmv --input "$tdir/mtx" --dry-run
expect 0 "f32 rows,cols=3x3 .*input=$tdir/mtx/a.mtx\]" bench spmv --input "$tdir/mtx" --type f32 --dry-run
expect 0 "f32 rows,cols=2x2 .*input=$tdir/mtx/b.mtx\]" bench spmv --input "$tdir/mtx" --type f32 --dry-run
refute "README|sub.mtx" bench spmv --input "$tdir/mtx" --type f32 --dry-run
expect 2 "--input $tdir/nomtx: no file ending in .mtx in this folder" bench spmv --input "$tdir/nomtx" --dry-run
expect 0 'histogram: 1 case x [0-9]+ rungs' bench histogram --input "$data/histogram-sample.txt" --set map=letters --dry-run
expect 2 "--sweep bins sets dist, an option of generated inputs: it cannot go with --input" \
    bench histogram --input "$data/histogram-sample.txt" --sweep bins --dry-run
# an option that shapes generated inputs is refused beside a file, not silently ignored
expect 2 "--set dist: histogram's option dist shapes generated inputs; with --input it has no effect" \
    bench histogram --input "$data/histogram-sample.txt" --set map=letters --set dist=uniform --dry-run
expect 2 "bins=300" bench histogram --set bins=300
# SpMV's Matrix Market input: a malformed file is file:line and exit 2 before any GPU work; a good one fixes the
# shape (one case per type).
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n4 2 1\n' >"$tdir/bad.mtx"
expect 2 "$tdir/bad.mtx:4: " bench spmv --input "$tdir/bad.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n1 2 nan\n' >"$tdir/nan.mtx"
expect 2 "$tdir/nan.mtx:4: " check spmv --input "$tdir/nan.mtx"
printf '\037\213gzipped' >"$tdir/z.mtx"
expect 2 "gzip" bench spmv --input "$tdir/z.mtx"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n4 4 3\n1 1\n3 1\n4 4\n' >"$tdir/ok.mtx"
expect 0 "spmv: 2 cases x $(rungs_of spmv) rungs" bench spmv --input "$tdir/ok.mtx" --dry-run
# A dry run reads only the header a listing needs: entries past it are not read (a real run
# reads and checks them); a bad header is still file:line, exit 2.
printf '%%%%MatrixMarket matrix coordinate real general\n3 5 2\n1 1 2.5\nnot an entry\n' >"$tdir/head.mtx"
expect 0 "f32 rows,cols=3x5 " bench spmv --input "$tdir/head.mtx" --dry-run --rung 1
printf '%%%%MatrixMarket matrix coordinate real general\n3 x 2\n' >"$tdir/badhead.mtx"
expect 2 "badhead.mtx:2: " bench spmv --input "$tdir/badhead.mtx" --dry-run
expect 0 'scan: 16 cases x 9 rungs' bench scan --dry-run
expect 0 'trapezoid: 4 cases x 5 rungs' bench trapezoid --dry-run
expect 2 "a=x" bench trapezoid --set a=x
rm -rf "$tdir"

# --profile: one warm-up and one run a rung, for nsys and ncu; no sampling options beside it.
expect 2 "--profile runs each rung once: not with --batch" bench reduce --profile --batch
expect 2 "--profile runs each rung once" bench reduce --max-time 2 --profile
expect 2 "--profile given twice" bench reduce --profile --profile
# bench all is a quick run unless --full: the flag is bench's, once, and not with --profile
expect 2 "--full given twice" bench all --full --full
expect 2 "--full and --profile: one or the other" bench all --full --profile
expect 2 "unknown or incomplete option '--full'" check all --full
expect 0 "reduce: 4 cases x" bench all --full --dry-run
# --dry-run applies the workloads' own size limits, as the run would: exit 1, each case said
expect 1 "i32 n=2\^62 - refused: i32 n=2\^62: its inputs and outputs need 18.4 EB of host memory" bench reduce --size 2^62 --dry-run
expect 1 "refused by the workload's limits" check scan --size 2^61 --dry-run
expect 1 "the counts are 32-bit, so n must be below 2\^32 - 1" bench histogram --size 2^32 --dry-run
expect 1 "sizes and leading dimensions must be below 2\^31" bench sgemm --size 2147483648x1x1 --dry-run
expect 1 "more than 2\^31 samples or voxels" bench mriq --size 2147483648x1 --dry-run
expect 1 "this layer is outside what the kernels take" bench cnn --size 1x1x8x8x1x3x3x0 --dry-run
expect 1 "the source is not a vertex of the graph" bench bfs --set source=1000 --size 1000 --dry-run
printf '0 1\n1 2\n2 z\n' > /tmp/climb-cli-bad-graph.txt
expect 2 "climb-cli-bad-graph.txt:3:" bench bfs --input /tmp/climb-cli-bad-graph.txt --dry-run
expect 1 "indices are 32-bit, so n must be below 2\^31" bench sort --size 2^31 --dry-run
expect 0 "u8 n=2\^20" bench histogram --size 2^20 --dry-run
expect 2 "unknown or incomplete option '--profile'" check reduce --profile
if "$climb" devices --no-measure 2>/dev/null | grep -q '^device 0: '; then
    pdir=$(mktemp -d)
    expect 0 "" bench reduce --profile --size 4096 --type i32 --rung 1 --quiet --json "$pdir/p.json"
    checks=$((checks + 1))
    if ! python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; sys.exit(0 if r and all(x['samples'] == 1 for x in r) else 1)" \
        "$pdir/p.json" 2>/dev/null; then
        echo "FAIL: bench --profile: not one sample a row"; fails=$((fails + 1))
    fi
    rm -rf "$pdir"
fi

# Without a GPU, commands that need one say so and fail; with one, they would run (covered by GPU tests).
if ! "$climb" devices --no-measure >/dev/null 2>&1; then
    if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
        expect 1 '^climb: no NVIDIA driver found' devices # no libcuda at all
    fi
    expect 1 'no (usable )?CUDA device|no NVIDIA driver' devices
    expect 1 'no (usable )?CUDA device|no NVIDIA driver' check reduce --seed 1
    expect 1 'no (usable )?CUDA device|no NVIDIA driver' check reduce --seed 1 --json -
    expect 1 'no (usable )?CUDA device|no NVIDIA driver' bench reduce --seed 1
    expect 1 'no (usable )?CUDA device|no NVIDIA driver' tune reduce --no-save
    expect 1 'no (usable )?CUDA device|no NVIDIA driver' occupancy --kernel all
    tclimb 1 'no (usable )?CUDA device|no NVIDIA driver' bench affine --input "$data/affine-3x4.txt" --set op=all
else
    expect 1 'no device 999' devices --device 999
    expect 0 'check reduce: .* 0 failures' check reduce --rung reduce_seq_addressing --size 1025 --seed 3 --quiet
    # too large: refused before any allocation by the host-memory estimate (case_bytes), or by the device's memory
    expect 1 'i32 n=2\^40: its inputs and outputs need 4.4 TB of host memory|out of device memory for the reduce input \(4398046511120 bytes\)' \
        check reduce --size '2^40' --type i32 --quiet
    expect 0 'check reduce: .* 0 failures' check reduce --quick --seed 4 --quiet
    # The test workload from a file, every option's sweep, and a rung that refuses batch timing.
    tclimb 0 '\(affine-3x4.txt: 3 x 4 text matrix\)' bench affine --input "$data/affine-3x4.txt" \
        --min-samples 3 --max-time 0.02 --quiet --no-ceilings
    tclimb 0 'affine_in_place +refused: no batch timing' bench affine --size 64x64 --type f32 --batch --min-samples 3 \
        --max-time 0.02 --quiet --no-ceilings
    tclimb 0 'reference: affine_cub_transform.s output' bench affine --size 2048x2048 --type u32 --set pad=0 \
        --rung affine_tuned --min-samples 3 --max-time 0.02 --quiet --no-ceilings
    tclimb 0 'check affine: .* 0 failures' check affine --quick --set op=all --set dist=all --quiet
    # A report on stdout stays machine-readable: the table goes to stderr.
    checks=$((checks + 1))
    json=$("$climb" bench reduce --rung reduce_vectorized_single_pass --size 100000 --type f32 --seed 5 \
           --min-samples 5 --max-time 0.2 --quiet --no-ceilings --json - 2>/dev/null)
    if ! python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["results"][0]["status"] == "ok"' <<<"$json"; then
        echo "FAIL: bench --json - did not print a clean JSON report"; fails=$((fails + 1))
    fi
    # The registry's kernels against the runtime.
    expect 0 'the calculator matches the runtime for every kernel' occupancy --kernel all
    expect 0 'reduce_vectorized_single_pass_kernel<f32, 512, 4>|reduce_vectorized_single_pass_kernel<f32, [0-9]+, [0-9]+>' occupancy --kernel reduce:reduce_vectorized_single_pass
    # tune writes wisdom that bench then uses; foreign, stale and corrupt files give a warning and the defaults.
    wdir=$(mktemp -d)
    expect 0 "saved to $wdir/w.json" tune reduce --size 65536 --type i32 --seed 9 --min-samples 3 --max-time 0.05 \
        --quiet --wisdom "$wdir/w.json" --json "$wdir/t.json" --md "$wdir/t.md"
    checks=$((checks + 1))
    if ! python3 - "$wdir" <<'PY'
import json, sys
d = sys.argv[1]
t = json.load(open(f"{d}/t.json"))["tuning"][0]
w = json.load(open(f"{d}/w.json"))["entries"][0]
assert t["winner"] == w["params"], (t["winner"], w["params"])
ok = [c for c in t["candidates"] if c["status"] == "ok"]
assert len(ok) >= 40 and all(c["median_us"][0] > 0 for c in ok)
assert t["cases"][0]["shape"] == [65536] and t["candidate_list"] == "every combination"
assert min(c["score"] for c in ok) == 1.0
assert "| rank | parameters | score |" in open(f"{d}/t.md").read()
PY
    then echo "FAIL: tune's JSON report, markdown and wisdom file disagree"; fails=$((fails + 1)); fi
    expect 0 'reduce: tuned parameters from the wisdom file .*w\.json:[0-9]+ \(block=' bench reduce --rung reduce_vectorized_single_pass --size 4096 \
        --type i32 --min-samples 3 --max-time 0.05 --quiet --no-ceilings --wisdom "$wdir/w.json"
    expect 0 'reduce: tuned parameters from the wisdom file' check reduce --rung reduce_vectorized_single_pass --size 1000 --quiet \
        --wisdom "$wdir/w.json"
    sed 's/"driver": [0-9]*/"driver": 1/' "$wdir/w.json" >"$wdir/stale.json"
    expect 0 'warning: reduce: .*wisdom not used: .*stale' bench reduce --rung reduce_vectorized_single_pass --size 4096 \
        --type i32 --min-samples 3 --max-time 0.05 --quiet --no-ceilings --wisdom "$wdir/stale.json"
    # Each warning once, and a named file that is missing is a warning too.
    checks=$((checks + 1))
    n=$("$climb" check reduce --rung reduce_vectorized_single_pass --size 1000 --quiet --wisdom "$wdir/stale.json" 2>&1 |
        grep -c 'stale')
    if [ "$n" != 1 ]; then echo "FAIL: the stale-wisdom warning was printed $n times"; fails=$((fails + 1)); fi
    expect 0 "warning: reduce: .*wisdom not used: no wisdom file at $wdir/typo.json" check reduce \
        --rung reduce_vectorized_single_pass --size 1000 --quiet --wisdom "$wdir/typo.json"
    sed 's/"gpu": "[^"]*"/"gpu": "Some Other GPU"/' "$wdir/w.json" >"$wdir/foreign.json"
    expect 0 'warning: reduce: .*is for Some Other GPU' bench reduce --rung reduce_vectorized_single_pass --size 4096 \
        --type i32 --min-samples 3 --max-time 0.05 --quiet --no-ceilings --wisdom "$wdir/foreign.json"
    head -c 100 "$wdir/w.json" >"$wdir/corrupt.json"
    expect 0 "warning: reduce: .*wisdom not used: $wdir/corrupt.json:[0-9]+: " check reduce --rung reduce_vectorized_single_pass \
        --size 1000 --quiet --wisdom "$wdir/corrupt.json"
    sed 's/"block": [0-9]*/"block": 96/' "$wdir/w.json" >"$wdir/bad.json"
    expect 0 'warning: .*not a valid candidate: block is not one of' check reduce --rung reduce_vectorized_single_pass \
        --size 1000 --quiet --wisdom "$wdir/bad.json"
    rm -rf "$wdir"
fi

# scripts/gpu-run.sh on a machine without a GPU stops after the build, says so, exit 1, and keeps its logs in a
# folder of its own. Only where there is no GPU: there the script would run everything.
if ! "$climb" devices --no-measure 2>/dev/null | grep -q '^device 0: '; then
    checks=$((checks + 1))
    out=$(cd "$(dirname "$0")/.." && CLIMB_BUILD="$(cd "$(dirname "$climb")" && pwd)" bash scripts/gpu-run.sh reduce 2>&1)
    rc=$?
    logdir=$(sed -nE 's/.*Logs: (.*)$/\1/p' <<<"$out")
    if [ "$rc" != 1 ] || ! grep -q "no CUDA GPU here" <<<"$out" || grep -q "=== tests" <<<"$out" ||
        [ ! -f "$logdir/build.log" ]; then
        echo "FAIL: gpu-run.sh without a GPU: exit $rc"; echo "$out" | tail -5; fails=$((fails + 1))
    fi
    [ -n "$logdir" ] && rm -rf "$logdir"
fi

# The main command keeps what it measures: `climb bench all` (no report option) writes bench.json, bench.md and a page
# into climb-bench/<gpu>-<UTC time>/ and ends with a line a workload; --out DIR names the folder (a dry run only says
# so and makes nothing); --out goes with no other report option; a folder that cannot be made is refused first.
expect 0 '^reports: climb-bench/<gpu>-<UTC time>/bench.json, bench.md and index.html' bench all --dry-run
refute '^reports:' bench all --json /tmp/climb-main.json --dry-run
refute '^reports:' bench all --full --dry-run
outdir=$(mktemp -d)/not/yet
expect 0 "^reports: $outdir/bench.json" bench reduce --out "$outdir" --dry-run
checks=$((checks + 1))
[ ! -e "$outdir" ] || { echo "FAIL: bench --out --dry-run made $outdir"; fails=$((fails + 1)); }
expect 2 '^climb: --out writes bench.json and bench.md in its folder' bench reduce --out "$outdir" --md /tmp/x.md --dry-run
expect 2 "^climb: --out: an empty folder name or '-'" bench reduce --out - --dry-run
expect 2 '^climb: --out given twice' bench reduce --out /tmp/a --out /tmp/b --dry-run
expect 2 '^climb: --out /etc/passwd/x: cannot write there: /etc/passwd is not a folder' bench reduce --out /etc/passwd/x --dry-run
expect 2 '^climb: --out and --profile' bench reduce --out "$outdir" --profile --dry-run
rm -rf "$(dirname "$(dirname "$outdir")")"
# The page of a run of one's own beside committed results: one report read twice is two GPUs, the run's own named so.
src=$(cd "$(dirname "$0")/.." && pwd)
page=$(mktemp --suffix=.html)
expect 0 'climb report: 2 reports, 2 GPUs, 1 workload' report "$src/results/h100-80gb-hbm3/reduce/bench.json" \
    --this-run "$src/results/h100-80gb-hbm3/reduce/bench.json" --html "$page"
checks=$((checks + 1))
grep -q 'NVIDIA H100 80GB HBM3 (this run)' "$page" || { echo "FAIL: the page lacks the run's own GPU"; fails=$((fails + 1)); }
expect 0 'climb report: 1 report, 1 GPU' report --this-run "$src/results/h100-80gb-hbm3/reduce/bench.json" --html "$page"
expect 2 'report: --this-run given twice' report --this-run a.json --this-run b.json --html "$page"
# A workload this build has is described in its table's words, not in those an older report kept.
old=$(mktemp --suffix=.json)
python3 - "$src/results/h100-80gb-hbm3/reduce/bench.json" "$old" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for w in d["workloads"]:
    w["title"], w["sources"] = "words of an older day", "an older source line"
json.dump(d, open(sys.argv[2], "w"))
PY
expect 0 'climb report: 1 report, 1 GPU' report "$old" --html "$page"
checks=$((checks + 1))
if grep -q "older" "$page" || ! grep -qF "$("$climb" list reduce | sed -n '1s/^reduce: //p')" "$page" ||
    ! grep -qF "$("$climb" list reduce | sed -n 's/^  from: //p' | cut -c1-30)" "$page"; then
    echo "FAIL: the page does not describe reduce in this build's words"; fails=$((fails + 1))
fi
rm -f "$page" "$old"

# --gpus and --devices: refused before any GPU is touched where they cannot apply or do not parse.
expect 2 "reduce runs on one GPU: --gpus and --devices choose the GPUs of a workload that spans several" bench reduce --gpus 2
expect 2 "reduce runs on one GPU" check reduce --devices 0-1
expect 2 "^climb: --devices: '0,0': device 0 is listed twice" bench reduce --devices 0,0
expect 2 "^climb: --devices: '1-0': the range of item 1 runs backwards" bench reduce --devices 1-0
expect 2 "^climb: --gpus and --devices: one or the other" bench reduce --gpus 2 --devices 1
expect 2 "^climb: --device names a one-GPU run's GPU" check reduce --device 1 --gpus 1
expect 2 "^climb: --gpus: '65' is not a number of GPUs from 1 to 64" tune reduce --gpus 65
expect 0 "reduce: [0-9]+ cases" bench reduce --devices 0 --dry-run
# Every workload whose cases span GPUs (its listing says so; none named here): the links among its roofline's
# ceilings, its tuned crossover's sizes, a count of GPUs below its least refused for bench and tune alike.
spanning=0
for w in $("$climb" list --names); do
    least=$("$climb" list "$w" | sed -nE 's/^  GPUs: ([0-9]+) to .*/\1/p')
    [ -n "$least" ] || continue
    spanning=$((spanning + 1))
    expect 0 "roofline: .*the links between GPUs" list "$w"
    if [ "$least" -gt 1 ]; then
        expect 2 "^climb: $w spans $least to [0-9]+ GPUs, not $((least - 1))" bench "$w" --gpus $((least - 1)) --dry-run
    else # from one GPU: no count below its least, and one past the most is refused the same way
        expect 2 "^climb: --gpus: '0' is not a number of GPUs" bench "$w" --gpus 0 --dry-run
        expect 0 "$w: [0-9]+ cases" bench "$w" --gpus 1 --dry-run
    fi
    if "$climb" list "$w" | grep -q "tunable parameters"; then
        expect 0 "climb tune $w, over " list "$w"
        expect 2 "^climb: $w spans $least to" tune "$w" --gpus $((least - 1)) --dry-run
    fi
done
# Under an MPI launcher of several processes the GPU commands refuse (each would drive every GPU); one process, or
# a command that runs no GPU, goes on.
under() { # under VAR=VALUE EXIT_CODE 'regex' args...: expect, with VAR=VALUE in climb's environment
    local env=$1 real=$climb; shift
    climb=$(mktemp); printf '#!/bin/sh\nexec env %s "%s" "$@"\n' "$env" "$real" >"$climb"; chmod +x "$climb"
    expect "$@"
    rm -f "$climb"; climb=$real
}
under OMPI_COMM_WORLD_SIZE=2 2 "started as one of 2 processes by an MPI launcher \(OMPI_COMM_WORLD_SIZE=2\).*--gpus 2" \
    tune allreduce --dry-run
under PMI_SIZE=4 2 "one of 4 processes by an MPI launcher \(PMI_SIZE=4\).*'bench' and 'check' of allreduce" devices
# bench and check under a launcher: one process a GPU where MPI is built in, else how to build it
if "$climb" version | grep -q "MPI not built in"; then
    under OMPI_COMM_WORLD_SIZE=2 2 "one process a GPU: this climb was built without MPI.*libopenmpi-dev" \
        bench allreduce --dry-run
elif command -v mpirun >/dev/null; then
    # Under the sanitizers' build, leaks are not looked for in these runs: Open MPI's own allocations (its plugins',
    # MPI_Init's) outlive MPI_Finalize and would be reported as climb's; memory errors still are.
    mpi() { # mpi EXIT_CODE 'regex' args...: expect, for climb started twice by mpirun
        local real=$climb asan=${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0}; climb=$(mktemp)
        printf '#!/bin/sh\nexec env %s mpirun --allow-run-as-root --oversubscribe -np 2 "%s" "$@"\n' "$asan" "$real" \
            >"$climb"
        chmod +x "$climb"; expect "$@"; rm -f "$climb"; climb=$real
    }
    mpi 2 "climb: bench: peer runs in one process .*one process a GPU runs .*allreduce" bench peer --quick
    mpi 2 "climb: bench: --gpus names 3 GPUs, and the launcher started 2 processes" bench allreduce --gpus 3 --quick
    mpi 2 "climb: check: peer runs in one process" check peer --quick
    mpi 2 "climb: tune: started as one of 2 processes by an MPI launcher" tune allreduce
    if ! "$climb" devices --no-measure >/dev/null 2>&1; then # no GPU: each process says so, the run fails
        mpi 1 "climb: rank [01]: " bench allreduce --quick
        mpi 1 "climb: rank [01]: " check allreduce --quick
    fi
fi
under OMPI_COMM_WORLD_SIZE=2 0 "allreduce" list allreduce
under OMPI_COMM_WORLD_SIZE=1 0 "allreduce: [0-9]+ cases?" bench allreduce --dry-run
checks=$((checks + 1))
[ "$spanning" -ge 4 ] || { echo "FAIL: $spanning workloads span GPUs (peer, allreduce, allgather, reducescatter at least)"; fails=$((fails + 1)); }

# climb plot: a chart from a description; a bad description is "file:line: what is wrong" (exit 2), nothing written.
pd=$(mktemp -d)
printf '{"chart": "lines", "title": "T & U", "x_label": "n", "y_label": "GB/s", "log_x": true, "x_bytes": true,\n "series": [{"label": "a", "points": [[1024, 1], [1048576, 500]]}, {"label": "b", "points": [[4096, 2]]}],\n "ceilings": [{"value": 900, "label": "copy"}, {"value": 9000, "label": "far"}]}\n' >"$pd/l.json"
expect 0 '' plot "$pd/l.json" -o "$pd/l.svg"
checks=$((checks + 1))
[ "$(grep -c '<polyline' "$pd/l.svg")" = 2 ] && grep -q '>1 KiB<' "$pd/l.svg" && grep -q '>1 MiB<' "$pd/l.svg" &&
    grep -q 'T &amp; U' "$pd/l.svg" && [ "$(grep -c 'class="ceiling"' "$pd/l.svg")" = 1 ] &&
    [ "$(grep -c '(log scale)' "$pd/l.svg")" = 2 ] || { echo "FAIL: climb plot lines: $(head -c 300 "$pd/l.svg")"; fails=$((fails + 1)); }
printf '{"chart": "bars", "bars": [{"label": "x", "value": 2.5, "group": 1}, {"label": "y", "value": 0.5}]}' >"$pd/b.json"
expect 0 'class="level"' plot "$pd/b.json"
expect 0 '>2.50×<' plot "$pd/b.json"
printf '{"chart": "lines",\n "series": [{"label": "a", "points": [[1, 2], [3]]}]}' >"$pd/bad1.json"
expect 2 "bad1.json:2: a point is \[x, y\]" plot "$pd/bad1.json" -o "$pd/bad.svg"
checks=$((checks + 1))
[ ! -e "$pd/bad.svg" ] || { echo "FAIL: climb plot wrote a chart from a bad description"; fails=$((fails + 1)); }
printf '{"chart": "pie"}' >"$pd/bad2.json"
expect 2 'bad2.json:1: "chart" is "lines" or "bars"' plot "$pd/bad2.json"
printf '{"chart": "lines", "log_x": true,\n\n "series": [{"label": "a", "points": [[0, 2]]}]}' >"$pd/bad3.json"
expect 2 'bad3.json:3: log_x: every x must be above 0' plot "$pd/bad3.json"
printf '{"chart": "bars", "bars": [\n{"label": "x", "value": -1}]}' >"$pd/bad4.json"
expect 2 'bad4.json:2: a bar is' plot "$pd/bad4.json"
printf '{"chart": "bars",' >"$pd/bad5.json"
expect 2 'bad5.json:1: ' plot "$pd/bad5.json"
expect 2 "plot: name a chart description" plot
expect 2 "plot: unknown option '--frob'" plot --frob
rm -rf "$pd"

echo "test_cli: $checks checks, $fails failed"
[ "$fails" = 0 ]
