#!/bin/bash
# Host speed over time (docs/results/2026-11-27-ab-three-ways.md): the host check's calibration probe (awk, 2M LCG
# steps) on each CPU every 5 s. Usage: bash 2026-11-27-host-probe.sh [seconds, default 600] > series.txt
end=$((SECONDS+${1:-600}))
while [ $SECONDS -lt $end ]; do
  for cpu in 0 1; do
    t0=$(date +%s.%N)
    taskset -c $cpu awk 'BEGIN { x = 1; for (i = 0; i < 2000000; i++) x = (x * 1103515245 + 12345) % 2147483648; print x }' >/dev/null
    t1=$(date +%s.%N)
    echo "$(date +%H:%M:%S) cpu$cpu $(echo "2 / ($t1 - $t0)" | bc -l | cut -c1-6)"
  done
  sleep 4
done
