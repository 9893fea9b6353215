package membound.trace.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import membound.trace.RankTrace;
import membound.trace.Traces;

/**
 * How fast the trace reader takes a large Kineto trace on one core, and in how much heap: the issue asks for a
 * 2 GB trace in at most 512 MiB at 100 MB/s or more. The trace is generated ({@link GeneratedKineto}: a cpu_op
 * with shapes, its launch and its kernel per launch, as torch.profiler writes them) and read whole, linking and
 * classifying included, by {@link Traces#read(Path)} on the benchmark thread alone; the fork runs with
 * {@code -Xmx512m}. MB/s is the file's size (uncompressed JSON, MB = 10^6 bytes) over the time of one read; the
 * heap figure is the peak of the heap pools during the fork, printed at its end.
 *
 * <p>Expect the time to grow linearly with the size: the reader keeps a few dozen bytes per event in primitive
 * columns and nothing of the JSON text.
 *
 * <p>HOW TO RUN (docs/trace.md, "Speed"): {@code mvn -B -q -pl trace -am verify -Dmembound.jmh=true
 * -Dtest=ReaderBenchmarkRunner -Dsurefire.failIfNoSpecifiedTests=false [-Dmembound.jmh.traceMegabytes=2048]}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-XX:+UseSerialGC"})
public class ReaderBenchmark {

    @Param("512")
    public int traceMegabytes;

    private Path file;
    private long bytes;

    @Setup(Level.Trial)
    public void generate() throws IOException {
        file = Files.createTempFile("membound-trace-bench", ".json");
        bytes = GeneratedKineto.write(file, traceMegabytes * 1_000_000L);
        System.out.printf(Locale.ROOT, "%ngenerated %s: %d bytes%n", file, bytes);
    }

    @Benchmark
    public int read() {
        RankTrace t = Traces.read(file);
        return t.activities().size();
    }

    @TearDown(Level.Trial)
    public void report() throws IOException {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf(Locale.ROOT, "%ntrace bytes %d; peak heap %.1f MiB of max %.1f MiB%n", bytes,
                peak / 1048576.0, Runtime.getRuntime().maxMemory() / 1048576.0);
        Files.deleteIfExists(file);
    }
}
