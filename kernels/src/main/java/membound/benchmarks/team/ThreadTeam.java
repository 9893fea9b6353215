package membound.benchmarks.team;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import membound.benchmarks.placement.CpuBinding;
import membound.vocabulary.BadInputException;

/**
 * A fixed team of threads that run passes together, as STREAM's OpenMP loops do.
 *
 * <ul>
 *   <li>Each thread builds its own state ({@code init.apply(thread)} runs on that thread), so the arrays
 *       it allocates are first touched, and placed, by the thread that will stream them. A pinning
 *       {@link CpuBinding} binds each thread to its cpu first, so first touch happens where it will run.</li>
 *   <li>A pass starts every thread at once (the leader is thread 0, the caller; the others spin on a
 *       generation counter while passes follow each other, and park once idle for {@link #SPIN_NANOS}).</li>
 *   <li>A pass lasts from the first thread's start to the last thread's finish: bandwidth is total bytes
 *       over the wall time of the slowest thread, never an average of per-thread rates.</li>
 * </ul>
 *
 * @param <S> per-thread state, e.g. the thread's slice of the arrays
 */
public final class ThreadTeam<S> implements AutoCloseable {

    /** Workers spin this long after a pass before parking: back-to-back passes start without wake-up lag. */
    static final long SPIN_NANOS = 20_000_000L;

    /** Per-thread timestamps sit this many longs apart, so threads never share a cache line. */
    private static final int PAD = 16;

    private final List<S> states;
    private final Consumer<S> pass;
    private final Thread[] workers;
    private final long[] timesNanos;
    private final AtomicInteger remaining = new AtomicInteger();
    private final Throwable[] failures;
    /** What the current pass runs; published to the workers by the write to {@link #generation}. */
    private volatile Consumer<S> current;
    private volatile long generation;
    private volatile boolean closed;

    /**
     * Starts {@code threads - 1} workers and builds every thread's state on that thread.
     *
     * @param threads number of threads including the caller, at least 1
     * @param init builds thread {@code i}'s state; runs on thread {@code i}
     * @param pass what each thread does in one pass, on its own state
     */
    public ThreadTeam(int threads, IntFunction<S> init, Consumer<S> pass) {
        this(threads, CpuBinding.none(), init, pass);
    }

    /**
     * As {@link #ThreadTeam(int, IntFunction, Consumer)}, each thread first bound to its cpu by {@code binding}
     * (thread {@code i} calls {@code binding.bind(i)} before {@code init}).
     */
    public ThreadTeam(int threads, CpuBinding binding, IntFunction<S> init, Consumer<S> pass) {
        if (threads < 1) {
            throw new BadInputException("threads must be at least 1: threads=" + threads);
        }
        this.pass = pass;
        this.timesNanos = new long[threads * 2 * PAD];
        this.failures = new Throwable[threads];
        this.workers = new Thread[threads - 1];
        List<S> built = new ArrayList<>(threads);
        for (int i = 0; i < threads; i++) {
            built.add(null);
        }
        CountDownLatch ready = new CountDownLatch(threads - 1);
        Throwable[] initFailures = new Throwable[threads];
        for (int t = 1; t < threads; t++) {
            int thread = t;
            workers[t - 1] = new Thread(() -> {
                try {
                    binding.bind(thread);
                    built.set(thread, init.apply(thread));
                } catch (Throwable e) {
                    initFailures[thread] = e;
                } finally {
                    ready.countDown();
                }
                if (initFailures[thread] == null) {
                    work(thread);
                }
            }, "membound-team-" + t);
            workers[t - 1].setDaemon(true);
            workers[t - 1].start();
        }
        try {
            binding.bind(0);
            built.set(0, init.apply(0));
            ready.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while the team built its state", e);
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
        for (Throwable failure : initFailures) {
            if (failure != null) {
                close();
                rethrow(failure);
            }
        }
        this.states = List.copyOf(built);
    }

    /** Number of threads, the caller included. */
    public int threads() {
        return workers.length + 1;
    }

    /** Thread {@code i}'s state. */
    public S state(int thread) {
        return states.get(thread);
    }

    /** All states, thread 0 first. */
    public List<S> states() {
        return states;
    }

    /**
     * Runs one pass on every thread and returns its wall time: first start to last finish, in nanoseconds.
     * A failure on any thread is rethrown here once all threads have finished.
     */
    public long runPass() {
        return run(pass);
    }

    /** Runs {@code action} once on every thread, on its own state, like a pass (used to reset and check). */
    public long run(Consumer<S> action) {
        if (closed) {
            throw new IllegalStateException("team is closed");
        }
        current = action;
        remaining.set(workers.length);
        generation++;
        for (Thread worker : workers) {
            LockSupport.unpark(worker);
        }
        runOn(0, action);
        while (remaining.get() != 0) {
            Thread.onSpinWait();
        }
        for (int t = 0; t < failures.length; t++) {
            Throwable failure = failures[t];
            if (failure != null) {
                failures[t] = null;
                rethrow(failure);
            }
        }
        long firstStart = Long.MAX_VALUE;
        long lastFinish = Long.MIN_VALUE;
        for (int t = 0; t <= workers.length; t++) {
            firstStart = Math.min(firstStart, timesNanos[2 * PAD * t]);
            lastFinish = Math.max(lastFinish, timesNanos[2 * PAD * t + PAD]);
        }
        return lastFinish - firstStart;
    }

    private void work(int thread) {
        long seen = 0;
        long idleSince = System.nanoTime();
        while (true) {
            long now = generation;
            if (now != seen) {
                seen = now;
                runOn(thread, current);
                remaining.decrementAndGet();
                idleSince = System.nanoTime();
            } else if (closed) {
                return;
            } else if (System.nanoTime() - idleSince < SPIN_NANOS) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(this, 1_000_000L);
            }
        }
    }

    private void runOn(int thread, Consumer<S> action) {
        try {
            timesNanos[2 * PAD * thread] = System.nanoTime();
            action.accept(states == null ? null : states.get(thread));
        } catch (Throwable e) {
            failures[thread] = e;
        } finally {
            timesNanos[2 * PAD * thread + PAD] = System.nanoTime();
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Thread worker : workers) {
            if (worker != null) {
                LockSupport.unpark(worker);
            }
        }
    }

    private static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(failure);
    }
}
