package membound.benchmarks.gpu;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import membound.benchmarks.stream.StreamValidationException;
import membound.vocabulary.BadInputException;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.RateStatistics;
import membound.vocabulary.units.Units;

/**
 * The GPU suite from {@code mvn -pl benchmarks jmh:run -Djmh.include=GpuSuite} (and
 * {@code java -jar benchmarks.jar}), as the CPU suite runs from there: it is timed with CUDA events, not by JMH, so
 * {@link membound.benchmarks.BenchmarkMain} hands it over when the include pattern names the GPU suite
 * ({@value #NAME}) and none of the CPU suite's benchmarks. It prints every figure with its distribution and what was
 * not measured, one line each.
 *
 * <p>Properties: {@code membound.gpu.mode} {@code smoke} (tiny sizes), {@code quick} (default, 5 passes) or
 * {@code standard} (10), {@code full} (20 and the working-set sweep); {@code jmh.products} the product shapes
 * ({@code MxNxK:layout} joined by {@code +}, default {@value #DEFAULT_PRODUCTS}).
 *
 * <p>Exit status: 0; 2 when the GPU cannot be measured (one line naming the cause and the CUDA error), or for bad
 * input; 1 when a result fails validation on the device (an error, never a figure).
 *
 * <p>HOW TO RUN: {@code JAVA_HOME=<JDK 22+> mvn -pl benchmarks jmh:run -Djmh.include=GpuSuite
 * -Dmembound.gpu.mode=quick}, after a build on that JDK.
 */
public final class GpuSuiteRun {

    /** The name the include pattern is matched against. */
    public static final String NAME = "membound.benchmarks.gpu.GpuSuite";
    /** A CPU benchmark's name: a pattern that also matches it (".*") runs the CPU suite, as before. */
    static final String CPU_NAME = "membound.benchmarks.stream.StreamBenchmark";
    static final String DEFAULT_PRODUCTS = "1024x1024x1024:nn+1024x1024x1024:nt+1024x1024x1024:tn";

    private GpuSuiteRun() {
    }

    /** Whether {@code jmh.include} selects the GPU suite alone. */
    public static boolean isSelected(Properties properties) {
        String include = properties.getProperty("jmh.include");
        if (include == null || include.isBlank()) {
            return false;
        }
        try {
            Pattern pattern = Pattern.compile(include);
            return pattern.matcher(NAME).find() && !pattern.matcher(CPU_NAME).find();
        } catch (PatternSyntaxException e) {
            return false;
        }
    }

    /** The plan the properties ask for. */
    static GpuPlan plan(Properties properties) {
        String mode = properties.getProperty("membound.gpu.mode", "quick").trim().toLowerCase(Locale.ROOT);
        GpuGemmPlan gemm = GpuGemmPlan.of(ProductShape.parseList(properties.getProperty("jmh.products",
                DEFAULT_PRODUCTS)), 5);
        return switch (mode) {
            case "smoke" -> GpuPlan.smokePlan();
            case "quick" -> GpuPlan.of(false, 5).withGemm(gemm);
            case "standard" -> GpuPlan.of(false, 10).withGemm(withPasses(gemm, 10));
            case "full" -> GpuPlan.of(true, 20).withGemm(withPasses(gemm, 20));
            default -> throw new BadInputException("membound.gpu.mode must be one of smoke, quick, standard, full: "
                    + "membound.gpu.mode=" + mode);
        };
    }

    private static GpuGemmPlan withPasses(GpuGemmPlan gemm, int passes) {
        return new GpuGemmPlan(gemm.squareOrders(), gemm.products(), gemm.precisions(), gemm.warmupPasses(), passes);
    }

    /** Runs the suite and prints its table; returns the exit status. */
    public static int run(Properties properties, PrintStream out, PrintStream err) {
        return run(properties, out, err, GpuSuites::measure);
    }

    static int run(Properties properties, PrintStream out, PrintStream err, GpuSuite suite) {
        GpuPlan plan;
        try {
            plan = plan(properties);
        } catch (BadInputException e) {
            err.println("membound: " + e.getMessage());
            return 2;
        }
        GpuRun run;
        try {
            run = suite.measure(plan);
        } catch (GpuUnavailableException e) {
            err.println("membound: the GPU cannot be measured: " + e.getMessage());
            return 2;
        } catch (StreamValidationException e) {
            err.println("membound: " + e.getMessage());
            return 1;
        }
        print(out, run);
        out.flush();
        return out.checkError() ? 1 : 0;
    }

    /** Every figure of the run, with its distribution, and what was not measured. */
    static void print(PrintStream out, GpuRun run) {
        GpuProperties d = run.device();
        out.printf(Locale.ROOT, "GPU suite on %s (compute capability %s, %d SMs, L2 %s, %s memory, CUDA %s driver)%n",
                d.name(), d.computeCapability(), d.multiprocessors(), Units.formatBytes(d.l2Bytes()),
                Units.formatBytes(d.memoryBytes()), d.driverCudaVersionText());
        out.printf(Locale.ROOT, "%-6s %-6s %-6s %11s %13s %25s %6s%n", "kernel", "type", "level", "array",
                "median", "p5 - p95", "CV");
        for (GpuStreamResult r : run.stream()) {
            RateStatistics rates = r.passTimes().rates(r.streamBytesPerPass());
            out.printf(Locale.ROOT, "%-6s %-6s %-6s %10s %12s %25s %5.1f%%%n", r.kernel().label(),
                    r.elementType().javaName(), r.workingSet().label(), Units.formatBytes(r.workingSet().arrayBytes()),
                    Units.formatBandwidth(rates.median()), Units.formatBandwidth(rates.p5()) + " - "
                            + Units.formatBandwidth(rates.p95()), 100 * rates.coefficientOfVariationOrZero());
        }
        out.printf(Locale.ROOT, "launch + synchronise p50 %.1f us, back-to-back launch p50 %.2f us%n",
                run.launchSync().percentileNanos(50) / 1e3, run.launchInterval().percentileNanos(50) / 1e3);
        for (GpuCopyResult copy : run.copies()) {
            out.printf(Locale.ROOT, "pinned %s %s: median %s%n", copy.direction(), Units.formatBytes(copy.bytes()),
                    Units.formatBandwidth(copy.passTimes().rates(copy.bytes()).median()));
        }
        for (GpuGemmResult g : run.gemm()) {
            RateStatistics rates = g.passTimes().rates(g.flopsPerPass());
            out.printf(Locale.ROOT, "%s %-5s %-22s median %s (p5 %s, %d calls per sample)%n",
                    g.square() ? "GEMM   " : "product", g.precision().label(), g.shape(),
                    Units.formatFlops(rates.median()), Units.formatFlops(rates.p5()), g.launchesPerSample());
        }
        if (run.gemmLibrary() != null) {
            out.println("GEMMs by " + run.gemmLibrary() + " (FP32 accumulation, every sample checked)");
        }
        for (String line : run.notMeasured()) {
            out.println(line);
        }
    }
}
