/*
 * membound's C reference for the STREAM-style kernels: the same kernels, array sizes, start values,
 * thread count and byte counting as the Java suite, in plain C with OpenMP, so that the Vector API
 * kernels can be held against what gcc -O3 -march=native makes of them.
 *
 *   gcc -O3 -march=native -fopenmp -fno-tree-loop-distribute-patterns stream-omp.c -o stream-omp
 *   OMP_NUM_THREADS=2 ./stream-omp triad 266338304 20
 *
 * -fno-tree-loop-distribute-patterns keeps Copy and Fill as loops: without it gcc turns them into
 * memcpy/memset, whose large-size paths use non-temporal stores that Java cannot issue, and the
 * comparison would no longer be of the same code. Build with -DUSE_LIBC=1 to measure exactly that
 * difference (see scripts/compare-peers.sh).
 *
 * Each array is allocated once and first touched by the thread that streams its slice (static
 * schedule, as in STREAM); a pass is one parallel loop, timed around the whole region; the result
 * is checked against STREAM's closed form. Output: one line of key=value pairs, bytes in STREAM's
 * convention (what the code reads and writes).
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef USE_LIBC
#define USE_LIBC 0
#endif

static int compare(const void *x, const void *y) {
    double a = *(const double *) x, b = *(const double *) y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: stream-omp copy|scale|add|triad|dot|nstream|sum|fill ELEMENTS PASSES\n");
        return 2;
    }
    const char *kernel = argv[1];
    long n = atol(argv[2]);
    int passes = atoi(argv[3]);
    if (n < 1 || passes < 2) {
        fprintf(stderr, "stream-omp: ELEMENTS must be >= 1 and PASSES >= 2: elements=%s passes=%s\n", argv[2], argv[3]);
        return 2;
    }
    int arrays_moved; /* STREAM convention */
    if (!strcmp(kernel, "copy") || !strcmp(kernel, "scale") || !strcmp(kernel, "dot")) arrays_moved = 2;
    else if (!strcmp(kernel, "add") || !strcmp(kernel, "triad")) arrays_moved = 3;
    else if (!strcmp(kernel, "nstream")) arrays_moved = 4;
    else if (!strcmp(kernel, "sum") || !strcmp(kernel, "fill")) arrays_moved = 1;
    else {
        fprintf(stderr, "stream-omp: kernel must be copy, scale, add, triad, dot, nstream, sum or fill: kernel=%s\n", kernel);
        return 2;
    }

    double *a = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
    double *b = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
    double *c = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
    if (!a || !b || !c) {
        fprintf(stderr, "stream-omp: cannot allocate 3 arrays of %ld doubles\n", n);
        return 1;
    }
    const double s = 3.0;
    /* STREAM's start state after one iteration of its recurrence, as membound's StreamValues. */
    const double a0 = 30.0, b0 = 6.0, c0 = 8.0;
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++) {
        a[i] = a0;
        b[i] = b0;
        c[i] = c0;
    }

    double *seconds = malloc(passes * sizeof(double));
    double result = 0;
    for (int p = 0; p < passes; p++) {
        double sum = 0;
        double start = omp_get_wtime();
        if (!strcmp(kernel, "copy")) {
#if USE_LIBC
            memcpy(c, a, n * sizeof(double));
#else
#pragma omp parallel for schedule(static)
            for (long i = 0; i < n; i++) c[i] = a[i];
#endif
        } else if (!strcmp(kernel, "scale")) {
#pragma omp parallel for schedule(static)
            for (long i = 0; i < n; i++) b[i] = s * c[i];
        } else if (!strcmp(kernel, "add")) {
#pragma omp parallel for schedule(static)
            for (long i = 0; i < n; i++) c[i] = a[i] + b[i];
        } else if (!strcmp(kernel, "triad")) {
#pragma omp parallel for schedule(static)
            for (long i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        } else if (!strcmp(kernel, "nstream")) {
#pragma omp parallel for schedule(static)
            for (long i = 0; i < n; i++) a[i] += b[i] + s * c[i];
        } else if (!strcmp(kernel, "dot")) {
#pragma omp parallel for schedule(static) reduction(+ : sum)
            for (long i = 0; i < n; i++) sum += a[i] * b[i];
        } else if (!strcmp(kernel, "sum")) {
#pragma omp parallel for schedule(static) reduction(+ : sum)
            for (long i = 0; i < n; i++) sum += a[i];
        } else {
#if USE_LIBC
            memset(c, 0, n * sizeof(double));
#else
#pragma omp parallel for schedule(static)
            for (long i = 0; i < n; i++) c[i] = s;
#endif
        }
        seconds[p] = omp_get_wtime() - start;
        result = sum;
    }

    /* Closed form (USE_LIBC's memset writes 0 instead of s). */
    double ea = a0, eb = b0, ec = c0, er = 0;
    if (!strcmp(kernel, "copy")) ec = a0;
    else if (!strcmp(kernel, "scale")) eb = s * c0;
    else if (!strcmp(kernel, "add")) ec = a0 + b0;
    else if (!strcmp(kernel, "triad")) ea = b0 + s * c0;
    else if (!strcmp(kernel, "nstream")) ea = a0 + passes * (b0 + s * c0);
    else if (!strcmp(kernel, "dot")) er = a0 * b0 * n;
    else if (!strcmp(kernel, "sum")) er = a0 * n;
    else ec = USE_LIBC ? 0.0 : s;
    long bad = 0;
    for (long i = 0; i < n; i++) {
        if (a[i] != ea || b[i] != eb || c[i] != ec) bad++;
    }
    if ((!strcmp(kernel, "dot") || !strcmp(kernel, "sum")) && fabs(result - er) > 1e-13 * fabs(er)) bad++;
    if (bad) {
        fprintf(stderr, "stream-omp: %s failed validation: %ld wrong elements\n", kernel, bad);
        return 1;
    }

    /* Drop the first pass (page faults, as STREAM does), then best and median of the rest. */
    qsort(seconds + 1, passes - 1, sizeof(double), compare);
    double best = seconds[1], median = seconds[1 + (passes - 1) / 2];
    double bytes = (double) arrays_moved * n * sizeof(double);
    printf("tool=stream-omp kernel=%s elements=%ld threads=%d passes=%d libc=%d stream_bytes_per_pass=%.0f "
           "best_seconds=%.6f median_seconds=%.6f best_GBps=%.2f median_GBps=%.2f\n",
           kernel, n, omp_get_max_threads(), passes, USE_LIBC, bytes, best, median, bytes / best / 1e9,
           bytes / median / 1e9);
    return 0;
}
