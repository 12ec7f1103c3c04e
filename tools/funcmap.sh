#!/usr/bin/env bash
# Prints the MPI function map of docs/architecture.md: for each folder of
# lib/, a markdown table of its files and the MPI functions each defines
# (found as PMPI_ definitions at the start of a line).  Regenerate after
# moving functions:  tools/funcmap.sh [repo] > /tmp/map.md, then replace the
# map section of docs/architecture.md with it.
set -eu
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$repo"
grep -rHoE '^[A-Za-z_][A-Za-z0-9_ *]*[ *]PMPI_[A-Za-z0-9_]+\(' --include='*.c' lib |
    sed -E 's/^([^:]+):.*PMPI_([A-Za-z0-9_]+)\($/\1 MPI_\2/' |
    sort -u -k1,1 -k2,2 |
    awk '
    function flush() { if (file != "") printf "| `%s` | %s |\n", file, names }
    {
        n = split($1, p, "/"); dir = p[1]; for (i = 2; i < n; i++) dir = dir "/" p[i]
        top = p[1] "/" p[2]
        if (top != folder) {
            flush(); file = ""
            folder = top; total[folder] = 0
            printf "%s### %s\n\n| file | MPI functions |\n|---|---|\n", (NR > 1 ? "\n" : ""), folder
        }
        if ($1 != file) { flush(); file = $1; names = $2 } else names = names ", " $2
        count++
    }
    END { flush(); printf "\n%d MPI functions defined in lib/.\n", count }'
