package membound.calibrator.run;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;

import membound.benchmarks.gpu.GpuPlan;
import membound.benchmarks.gpu.GpuRun;
import membound.benchmarks.gpu.GpuSuites;
import membound.benchmarks.gpu.GpuUnavailableException;
import membound.benchmarks.gpu.GpuCopyResult;
import membound.benchmarks.gpu.GpuGemmResult;
import membound.benchmarks.gpu.GpuStreamResult;
import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/**
 * The GPU part of a calibration: runs the GPU suite where the policy asks, and says in one line what came of it.
 * It runs before the CPU suite, so that {@code --gpu required} fails before anything is measured.
 */
final class GpuMeasurement {

    /** The profile flag of a calibration that measured no GPU, with the reason as its message. */
    static final String NOT_MEASURED = "gpu-not-measured";

    /** What came of it: the run, or the one-line reason there is none. */
    record Outcome(Optional<GpuRun> run, String notMeasuredReason) {
        static Outcome measured(GpuRun run) {
            return new Outcome(Optional.of(run), null);
        }

        static Outcome notMeasured(String reason) {
            return new Outcome(Optional.empty(), reason);
        }
    }

    /** How a calibration reaches the suite: {@link GpuSuites#measure} in use, a stand-in in tests. */
    interface Suite {
        GpuRun measure(GpuPlan plan);
    }

    private GpuMeasurement() {
    }

    static Outcome attempt(GpuPolicy policy, GpuPlan plan, PrintWriter progress) {
        return attempt(policy, plan, progress, GpuSuites::measure);
    }

    /**
     * @throws BadInputException with {@link GpuPolicy#REQUIRED} where the GPU cannot be measured
     * @throws membound.benchmarks.stream.StreamValidationException when a pass on the device gives a wrong answer
     */
    static Outcome attempt(GpuPolicy policy, GpuPlan plan, PrintWriter progress, Suite suite) {
        if (policy == GpuPolicy.OFF) {
            progress.println("gpu: not measured (--gpu off)");
            progress.flush();
            return Outcome.notMeasured("not attempted: --gpu off");
        }
        try {
            GpuRun run = suite.measure(plan);
            progress.println(describe(run));
            for (String line : run.notMeasured()) {
                progress.println(line);
            }
            progress.flush();
            return Outcome.measured(run);
        } catch (GpuUnavailableException e) {
            if (policy == GpuPolicy.REQUIRED) {
                throw new BadInputException("--gpu required, but the GPU cannot be measured: " + e.getMessage());
            }
            progress.println("gpu: not measured, the CPU suite runs alone: " + e.getMessage());
            progress.flush();
            return Outcome.notMeasured(e.getMessage());
        }
    }

    /** The square GEMM the line shows per precision: the one PyTorch's comparison in gpu-check.sh times. */
    static final int GEMM_ORDER_SHOWN = 8192;

    /** One line: the device and its DRAM Triad, launch latency, pinned copies and the 8192³ GEMMs. */
    static String describe(GpuRun run) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "gpu: %s (compute capability %s, %d SMs, L2 %s, "
                        + "CUDA %s driver): %d STREAM figures", run.device().name(), run.device().computeCapability(),
                run.device().multiprocessors(), Units.formatBytes(run.device().l2Bytes()),
                run.device().driverCudaVersionText(), run.stream().size()));
        for (GpuStreamResult result : run.stream()) {
            if (result.kernel() == membound.benchmarks.stream.StreamKernel.TRIAD
                    && result.workingSet().level() == membound.vocabulary.MemoryLevel.DRAM
                    && !result.workingSet().label().equals(GpuProfile.HOST_PAGEABLE)
                    && result.elementType() == membound.benchmarks.stream.ElementType.DOUBLE) {
                s.append(", DRAM triad ").append(Units.formatBandwidth(
                        result.passTimes().rates(result.streamBytesPerPass()).median()));
            }
        }
        s.append(String.format(Locale.ROOT, ", launch+sync %.1f us", run.launchSync().percentileNanos(50) / 1e3));
        for (GpuCopyResult copy : run.copies()) {
            s.append(", pinned ").append(copy.direction()).append(' ')
                    .append(Units.formatBandwidth(copy.passTimes().rates(copy.bytes()).median()));
        }
        for (GpuGemmResult gemm : run.gemm()) {
            if (gemm.square() && gemm.shape().m() == GEMM_ORDER_SHOWN) {
                s.append(String.format(Locale.ROOT, ", %s GEMM %d^3 %.1f TFLOP/s", gemm.precision().label(),
                        GEMM_ORDER_SHOWN, gemm.passTimes().rates(gemm.flopsPerPass()).median() / 1e12));
            }
        }
        if (run.gemmLibrary() != null) {
            s.append(" (").append(run.gemmLibrary()).append(')');
        }
        return s.toString();
    }
}
