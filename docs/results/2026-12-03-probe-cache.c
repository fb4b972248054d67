// Experiment (docs/results/2026-12-03-host-gauge-probes.md): a low-duty fixed-work probe in a 256 KiB table; prints
// wall epoch ms and the thread CPU ns one unit of work took.
// Build: gcc -O2 -o probe-cache 2026-12-03-probe-cache.c; run: taskset -c 1 ./probe-cache 400000 100
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/time.h>
static uint32_t table[65536]; // 256 KiB
static long ns(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
int main(int argc,char**argv){
  int iters=atoi(argv[1]); int period_ms=atoi(argv[2]);
  for(int i=0;i<65536;i++) table[i]=i*2654435761u;
  uint32_t x=1; volatile uint32_t sink;
  struct timespec sl={0,period_ms*1000000L};
  for(;;){
    long t0=ns(CLOCK_THREAD_CPUTIME_ID);
    for(int i=0;i<iters;i++){ x=table[x&65535]^(x*1103515245u+12345u); table[(x>>7)&65535]+=x; }
    long t1=ns(CLOCK_THREAD_CPUTIME_ID);
    sink=x;
    struct timeval tv; gettimeofday(&tv,NULL);
    printf("%ld %ld\n",tv.tv_sec*1000L+tv.tv_usec/1000,t1-t0); fflush(stdout);
    nanosleep(&sl,NULL);
  }
}
