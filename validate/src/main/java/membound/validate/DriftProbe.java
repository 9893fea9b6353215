package membound.validate;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import membound.benchmarks.results.ComputeResult;
import membound.benchmarks.results.StreamResult;
import membound.benchmarks.suite.ProgressOutput;
import membound.benchmarks.suite.SuiteBenchmark;
import membound.benchmarks.suite.SuiteRequest;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.Precision;
import membound.vocabulary.units.Units;

/**
 * The host's pace now against its profile's: a short DRAM Triad and float GEMM, as calibrate measures them, run
 * before and after the workloads. A host that slowed down or sped up since calibration (a noisy neighbour on a
 * VM, another frequency) would otherwise show up as the model's error.
 *
 * @param profile the profile's DRAM triad (STREAM bytes) and fp32 GEMM, the figures the prediction used
 * @param before  the probe before the workloads
 * @param after   the probe after them
 */
public record DriftProbe(Reading profile, Reading before, Reading after) {

    /** Beyond this drift (either rate, either probe) the host is flagged as having changed pace. */
    public static final double THRESHOLD = 0.10;

    /** One reading: the DRAM triad in STREAM bytes per second and the fp32 GEMM in FLOP per second. */
    public record Reading(double triadBytesPerSecond, double gemmFlopsPerSecond) {
    }

    /** What one probe runs: the DRAM Triad on doubles and the float GEMM at its default order, on every cpu. */
    public static List<SuiteRequest> requests(int cpus) {
        String all = Integer.toString(cpus);
        return List.of(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "TRIAD").with("elementType", "double")
                        .with("implementation", "vector").with("workingSet", "DRAM").with("threads", all),
                SuiteRequest.of(SuiteBenchmark.GEMM).with("elementType", "float").with("threads", all));
    }

    /** A probe's JMH settings: 1 warm-up and 3 measured iterations of half a second, one fork (a few seconds). */
    public static Options settings(Options parent) {
        return new OptionsBuilder().parent(parent).warmupIterations(1).warmupTime(TimeValue.milliseconds(500))
                .measurementIterations(3).measurementTime(TimeValue.milliseconds(500)).build();
    }

    /** The figures the prediction on {@code machine}'s measured basis uses for what the probe measures. */
    public static Reading of(Machine machine) {
        return new Reading(machine.device().mainMemory().ceiling(AccessPattern.TRIAD).value(Basis.MEASURED),
                machine.device().computeFor(Precision.FP32).attainableGemm().value(Basis.MEASURED));
    }

    /** A probe's reading from the results of {@link #requests}: medians, as the profile's are. */
    public static Reading of(List<RunResult> results) {
        double triad = Double.NaN;
        double gemm = Double.NaN;
        for (RunResult result : results) {
            if (StreamResult.isStream(result)) {
                triad = StreamResult.of(result).streamBytesPerSecond().median();
            } else if (ComputeResult.isCompute(result)) {
                gemm = ComputeResult.of(result).get(0).flopsPerSecond().median();
            }
        }
        return new Reading(triad, gemm);
    }

    /** This host's bandwidth over the profile's: the mean of the two probes' triads over the profile's. */
    public double bandwidthFactor() {
        return (before.triadBytesPerSecond() + after.triadBytesPerSecond()) / 2 / profile.triadBytesPerSecond();
    }

    /** This host's GEMM rate over the profile's, likewise. */
    public double computeFactor() {
        return (before.gemmFlopsPerSecond() + after.gemmFlopsPerSecond()) / 2 / profile.gemmFlopsPerSecond();
    }

    /** True when either probe found either rate more than {@link #THRESHOLD} away from the profile's. */
    public boolean drifted() {
        return drift(before) > THRESHOLD || drift(after) > THRESHOLD;
    }

    private double drift(Reading r) {
        return Math.max(Math.abs(r.triadBytesPerSecond() / profile.triadBytesPerSecond() - 1),
                Math.abs(r.gemmFlopsPerSecond() / profile.gemmFlopsPerSecond() - 1));
    }

    /** The machine the profile describes, at the pace the probes measured. */
    public Machine rescale(Machine measured) {
        return measured.scaled(bandwidthFactor(), computeFactor(), String.format(Locale.ROOT, "x %.3f bandwidth and "
                + "x %.3f compute: the drift probe's rates against the profile's", bandwidthFactor(), computeFactor()));
    }

    /** JMH's output during a probe as one line per benchmark: {@code [1/2] DRAM triad ..... 18.2 GB/s}. */
    static final class ProgressLines extends ProgressOutput {

        ProgressLines(PrintWriter out) {
            super(out, 2);
        }

        @Override
        protected String label(BenchmarkParams params) {
            return params.getBenchmark().contains("StreamBenchmark") ? "DRAM triad" : "fp32 GEMM";
        }

        @Override
        protected String figure(RunResult result) {
            return StreamResult.isStream(result)
                    ? Units.formatBandwidth(StreamResult.of(result).streamBytesPerSecond().median())
                    : Units.formatFlops(ComputeResult.of(result).get(0).flopsPerSecond().median());
        }
    }

    /** One line for people: each rate before and after against the profile's. */
    public String describe() {
        return String.format(Locale.ROOT, "drift probe: DRAM triad %s before, %s after (profile %s: %+.1f%%); fp32 "
                        + "GEMM %s before, %s after (profile %s: %+.1f%%)%s",
                Units.formatBandwidth(before.triadBytesPerSecond()), Units.formatBandwidth(after.triadBytesPerSecond()),
                Units.formatBandwidth(profile.triadBytesPerSecond()), 100 * (bandwidthFactor() - 1),
                Units.formatFlops(before.gemmFlopsPerSecond()), Units.formatFlops(after.gemmFlopsPerSecond()),
                Units.formatFlops(profile.gemmFlopsPerSecond()), 100 * (computeFactor() - 1),
                drifted() ? String.format(Locale.ROOT, ": the host changed pace by more than %.0f%% since calibration; "
                        + "the errors against the probe's rates are the model's", 100 * THRESHOLD) : "");
    }
}
