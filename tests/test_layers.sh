#!/usr/bin/env bash
# The layers of src/ include only downward: base (utilities everyone may use: sizes, random numbers, host memory,
# build facts, the CUDA check macros) <- io (readers and writers of files) and device (what runs on or asks the GPU)
# <- core (the contract, the harness, the reports) <- workloads (one room each) <- lib (the C API) <- cli. io and
# device never include each other or anything above (a workload may use another's exported launcher: cnn's im2col
# rung runs sgemm's best rung); nothing below
# lib includes the public climb.h (the calculator's own climb_occupancy.h and climb_base.h may be, from device up).
# Every include of a file in src/ is resolved against the including file's folder; one that crosses upward is
# printed with its line, and the test fails.
#   test_layers.sh SOURCE_DIR
set -u
src="$1/src"
[ -d "$src" ] || { echo "no src folder at $src"; exit 1; }
allowed() { # allowed FROM_LAYER TO_LAYER
    case "$1:$2" in
        base:base | io:io | io:base | device:device | device:base) return 0 ;;
        core:core | core:io | core:device | core:base) return 0 ;;
        workloads:workloads | workloads:core | workloads:device | workloads:io | workloads:base) return 0 ;;
        lib:lib | lib:workloads | lib:core | lib:device | lib:io | lib:base) return 0 ;;
        cli:*) return 0 ;;
    esac
    return 1
}
bad=0 n=0
while IFS= read -r -d '' f; do
    rel=${f#"$src"/}
    layer=${rel%%/*}
    dir=$(dirname "$f")
    while IFS= read -r hit; do
        line=${hit%%:*}
        inc=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"${hit#*:}")
        n=$((n + 1))
        case "$inc" in
            climb.h)
                case "$layer" in lib | cli) ;; *) echo "$rel:$line: includes the public climb.h below the library face"; bad=1 ;; esac
                continue ;;
            climb_base.h | climb_occupancy.h)
                case "$layer" in base | io) echo "$rel:$line: includes $inc below device"; bad=1 ;; esac
                continue ;;
        esac
        case "$inc" in *@*) continue ;; esac # a template's placeholder, filled in by CMake
        target=$(realpath -m "$dir/$inc")
        case "$target" in "$src"/*) ;; *) continue ;; esac # a generated or system file
        trel=${target#"$src"/}
        tlayer=${trel%%/*}
        allowed "$layer" "$tlayer" || { echo "$rel:$line: $layer includes $trel ($tlayer): upward"; bad=1; }
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include "' "$f")
done < <(find "$src" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' -o -name '*.in' \) -print0)
[ "$n" -gt 100 ] || { echo "only $n includes read: the check cannot be working"; exit 1; }
[ $bad = 0 ] && echo "layers: $n includes, none upward"
exit $bad
