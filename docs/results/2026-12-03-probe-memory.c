#define _GNU_SOURCE
// Experiment (docs/results/2026-12-03-host-gauge-probes.md): a low-duty memory-latency probe, a dependent random walk
// over a table larger than the L3; prints wall epoch ms and the thread CPU ns one walk took.
// Build: gcc -O2 -o probe-memory 2026-12-03-probe-memory.c; run: nice -n 19 ./probe-memory 10000 100 16777216 1
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <sys/time.h>
#include <sched.h>
static long ns(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
int main(int argc,char**argv){
  int steps=atoi(argv[1]); int period_ms=atoi(argv[2]); long n=atol(argv[3]);
  uint32_t *next=malloc(n*sizeof(uint32_t));
  for(long i=0;i<n;i++) next[i]=i;
  uint64_t r=88172645463325252ULL; // Sattolo with xorshift: one cycle through every entry
  for(long i=n-1;i>0;i--){ r^=r<<13; r^=r>>7; r^=r<<17; long j=r%i; uint32_t t=next[i]; next[i]=next[j]; next[j]=t; }
  cpu_set_t set; CPU_ZERO(&set); CPU_SET(atoi(argv[4]),&set); sched_setaffinity(0,sizeof(set),&set);
  uint32_t x=0; volatile uint32_t sink;
  struct timespec sl={0,period_ms*1000000L};
  for(;;){
    long t0=ns(CLOCK_THREAD_CPUTIME_ID);
    for(int i=0;i<steps;i++) x=next[x];
    long t1=ns(CLOCK_THREAD_CPUTIME_ID);
    sink=x;
    struct timeval tv; gettimeofday(&tv,NULL);
    printf("%ld %ld\n",tv.tv_sec*1000L+tv.tv_usec/1000,t1-t0); fflush(stdout);
    nanosleep(&sl,NULL);
  }
}
