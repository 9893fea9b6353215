package membound.benchmarks.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import membound.benchmarks.results.PassTimes;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamValidationException;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.Units;

/** {@code jmh:run -Djmh.include=GpuSuite}: which patterns select the GPU suite, its table, and its exit statuses. */
class GpuSuiteRunTest {

    @Test
    void anIncludeThatNamesTheGpuSuiteAloneSelectsIt() {
        assertTrue(GpuSuiteRun.isSelected(include("GpuSuite")));
        assertTrue(GpuSuiteRun.isSelected(include("gpu")));
        assertFalse(GpuSuiteRun.isSelected(include("Triad")), "a CPU benchmark");
        assertFalse(GpuSuiteRun.isSelected(include(".*")), "everything: the CPU suite, as before");
        assertFalse(GpuSuiteRun.isSelected(new Properties()), "nothing selected: the CPU suite's plan");
        assertFalse(GpuSuiteRun.isSelected(include("Gpu[")), "not a pattern: JMH says so");
    }

    @Test
    void withoutAGpuItIsOneLineAndExitTwo() {
        Output o = new Output();
        int status = GpuSuiteRun.run(include("GpuSuite"), o.out, o.err, plan -> {
            throw new GpuUnavailableException("cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device "
                    + "is detected", "CUDA_ERROR_NO_DEVICE");
        });
        assertEquals(2, status);
        assertEquals("membound: the GPU cannot be measured: cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no "
                + "CUDA-capable device is detected\n", o.err());
        assertEquals("", o.out());
    }

    @Test
    void aWrongAnswerOnTheDeviceIsAnErrorNotAFigure() {
        Output o = new Output();
        int status = GpuSuiteRun.run(include("GpuSuite"), o.out, o.err, plan -> {
            throw new StreamValidationException("GPU GEMM bf16 8192x8192x8192:nn failed validation: D[0][0][0] is NaN, "
                    + "expected 12");
        });
        assertEquals(1, status);
        assertTrue(o.err().contains("failed validation"), o.err());
        assertEquals("", o.out());
    }

    @Test
    void anUnknownModeIsBadInput() {
        Properties p = include("GpuSuite");
        p.setProperty("membound.gpu.mode", "fast");
        Output o = new Output();
        assertEquals(2, GpuSuiteRun.run(p, o.out, o.err, plan -> {
            throw new AssertionError("not measured");
        }));
        assertTrue(o.err().endsWith("membound.gpu.mode=fast\n"), o.err());
    }

    @Test
    void theModeAndProductsShapeThePlan() {
        Properties p = include("GpuSuite");
        p.setProperty("jmh.products", "256x1024x1024:tn");
        GpuPlan plan = GpuSuiteRun.plan(p);
        assertEquals(List.of(ProductShape.parse("256x1024x1024:tn")), plan.gemm().products());
        assertEquals(5, plan.passes());
        p.setProperty("membound.gpu.mode", "smoke");
        assertTrue(GpuSuiteRun.plan(p).smoke());
    }

    @Test
    void theTablePrintsEveryFigureAndWhatWasNotMeasured() {
        GpuProperties h200 = new GpuProperties("NVIDIA H200", new ComputeCapability(9, 0), 132, 2048, 50 * Units.MIB, 150_000_000_000L, 6144,
                2_619_000, 1_980_000, false, true, false, false, true, 12080);
        GpuPlan.WorkingSetSize dram = new GpuPlan.WorkingSetSize("DRAM", Units.GIB, MemoryLevel.DRAM);
        GpuRun run = new GpuRun(h200, GpuPlan.of(false, 3), List.of(new GpuStreamResult(StreamKernel.TRIAD,
                ElementType.BF16, dram, Units.GIB / 2, 1056, 256, 1, PassTimes.ofNanos(800_000, 810_000, 820_000))),
                PassTimes.ofNanos(9_000), PassTimes.ofNanos(2_000), List.of(),
                List.of(new GpuGemmResult(Precision.BF16, new ProductShape(8192, 8192, 8192, ProductShape.Layout.NN),
                        true, 1, 0, PassTimes.ofNanos(1_500_000, 1_600_000))), "libcublasLt.so.12 12.8.3", List.of(),
                List.of("gpu fp4 GEMM not measured: compute capability 9.0 has no fp4 tensor-core GEMM (it needs 10.0)"));
        Output o = new Output();
        assertEquals(0, GpuSuiteRun.run(include("GpuSuite"), o.out, o.err, plan -> run));
        String table = o.out();
        assertTrue(table.startsWith("GPU suite on NVIDIA H200 (compute capability 9.0, 132 SMs"), table);
        assertTrue(table.contains("Triad  bf16   DRAM"), table);
        double triadBytes = 3.0 * Units.GIB;
        assertEquals(triadBytes, run.stream().get(0).streamBytesPerPass(), "three bf16 arrays of 1 GiB");
        assertTrue(table.contains(Units.formatBandwidth(run.stream().get(0).passTimes().rates(triadBytes).median())),
                table);
        assertTrue(table.contains("GEMM    bf16  8192x8192x8192:nn"), table);
        assertTrue(table.contains("GEMMs by libcublasLt.so.12 12.8.3"), table);
        assertTrue(table.endsWith("gpu fp4 GEMM not measured: compute capability 9.0 has no fp4 tensor-core GEMM "
                + "(it needs 10.0)\n"), table);
    }

    private static Properties include(String pattern) {
        Properties p = new Properties();
        p.setProperty("jmh.include", pattern);
        return p;
    }

    private static final class Output {
        final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

        String out() {
            return outBytes.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return errBytes.toString(StandardCharsets.UTF_8);
        }
    }
}
