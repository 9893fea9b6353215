package membound.hardware.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Watches, while benchmarks run (a calibration, a validation), how much cpu time other processes take: busy
 * time of the whole machine ({@code /proc/stat}) minus the time of this JVM and every process it started
 * ({@code /proc/<pid>/stat}, children it has reaped included). A benchmark that shares the machine with a build or another user's job
 * measures a share of the memory, not the memory: such a run is flagged, never silently averaged.
 *
 * <p>Linux only; elsewhere {@link #start} returns empty and the run says load was not monitored.
 */
public final class LoadMonitor implements AutoCloseable {

    /** Other processes using more than this many cpus during a measurement flag it. */
    public static final double OTHER_CPUS_THRESHOLD = 0.25;
    static final long PERIOD_MILLIS = 200;

    /** One reading: when, the machine's busy and total clock ticks, and this process tree's ticks. */
    record Sample(long nanoTime, long busyTicks, long totalTicks, long ownTicks) {
    }

    private final Path proc;
    private final int cpus;
    /** This process and every process it started, as pids. */
    private final Supplier<List<Long>> processTree;
    private final List<Sample> samples = new ArrayList<>();
    private final Thread sampler;
    private volatile boolean stopped;

    private LoadMonitor(Path proc, int cpus, Supplier<List<Long>> processTree) {
        this.proc = proc;
        this.cpus = cpus;
        this.processTree = processTree;
        this.sampler = new Thread(this::sampleUntilStopped, "membound-load-monitor");
        this.sampler.setDaemon(true);
    }

    /** Starts sampling, or returns empty where {@code /proc/stat} cannot be read. */
    public static Optional<LoadMonitor> start(Path proc, int cpus) {
        return start(proc, cpus, LoadMonitor::liveProcessTree);
    }

    /** As {@link #start(Path, int)}, counting the given processes as this one's (a test's recorded tree). */
    static Optional<LoadMonitor> start(Path proc, int cpus, Supplier<List<Long>> processTree) {
        LoadMonitor monitor = new LoadMonitor(proc, cpus, processTree);
        if (monitor.sample().isEmpty()) {
            return Optional.empty();
        }
        monitor.sampler.start();
        return Optional.of(monitor);
    }

    /** Cpus other processes used on average between two instants ({@link System#nanoTime()}). */
    public synchronized double otherCpus(long fromNanos, long toNanos) {
        // The window from the last reading at or before the start to the first at or after the end.
        Sample first = null;
        Sample last = null;
        for (Sample sample : samples) {
            if (first == null || sample.nanoTime() <= fromNanos) {
                first = sample;
            }
            if (last == null || last.nanoTime() < toNanos) {
                last = sample;
            }
        }
        if (first == null || last.totalTicks() <= first.totalTicks()) {
            return 0;
        }
        long other = (last.busyTicks() - first.busyTicks()) - (last.ownTicks() - first.ownTicks());
        return Math.max(0, (double) other / (last.totalTicks() - first.totalTicks()) * cpus);
    }

    /** Cpus other processes used on average since the monitor started. */
    public synchronized double otherCpusOverall() {
        return samples.isEmpty() ? 0 : otherCpus(samples.get(0).nanoTime(), Long.MAX_VALUE);
    }

    @Override
    public void close() {
        stopped = true;
        sampler.interrupt();
        try {
            sampler.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
    }

    private void sampleUntilStopped() {
        while (!stopped) {
            try {
                Thread.sleep(PERIOD_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    private Optional<Sample> sample() {
        try {
            String cpuLine = Files.readAllLines(proc.resolve("stat")).get(0);
            String[] fields = cpuLine.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < fields.length; i++) {
                total += Long.parseLong(fields[i]);
            }
            // user nice system idle iowait irq softirq steal guest guest_nice: idle and iowait are not busy;
            // guest time is already inside user.
            long idle = Long.parseLong(fields[4]) + (fields.length > 5 ? Long.parseLong(fields[5]) : 0);
            long guest = (fields.length > 9 ? Long.parseLong(fields[9]) : 0) + (fields.length > 10 ? Long.parseLong(fields[10]) : 0);
            total -= guest;
            long own = 0;
            for (long pid : processTree.get()) {
                own += ticks(pid);
            }
            Sample sample = new Sample(System.nanoTime(), total - idle, total, own);
            synchronized (this) {
                samples.add(sample);
            }
            return Optional.of(sample);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static List<Long> liveProcessTree() {
        List<Long> pids = new ArrayList<>();
        pids.add(ProcessHandle.current().pid());
        ProcessHandle.current().descendants().forEach(child -> pids.add(child.pid()));
        return pids;
    }

    /** utime + stime + cutime + cstime of a process, in clock ticks; 0 once it is gone. */
    private long ticks(long pid) {
        try {
            String stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // After "pid (comm) ": state is field 3, so utime (14) is index 11 here.
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
