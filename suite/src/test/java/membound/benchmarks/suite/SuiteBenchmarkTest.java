package membound.benchmarks.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import membound.benchmarks.TestHosts;
import membound.benchmarks.jvm.ForkFlags;
import membound.benchmarks.stream.StreamKernel;
import membound.hardware.host.Host;
import membound.vocabulary.BadInputException;

class SuiteBenchmarkTest {

    private static final Host EPYC = TestHosts.devEpyc();
    private static final Options ONE_FORK = new OptionsBuilder().forks(1).build();

    @Test
    void shouldTakeEveryKernelFromTheBareParamInTheEnumsOrder() {
        assertEquals(Arrays.stream(StreamKernel.values()).map(Enum::name).toList(),
                List.of(SuiteBenchmark.STREAM.defaults("kernel")));
        assertEquals(List.of("double"), List.of(SuiteBenchmark.STREAM.defaults("elementType")));
        assertEquals(0, SuiteBenchmark.LATENCY.defaults("kernel").length);
    }

    @Test
    void shouldSettleEveryParameterOfEveryBenchmarkFromTheBenchmarksThemselves() {
        assertEquals(List.of("batch", "elementType", "implementation", "kernel", "n", "operation", "parameters",
                "products", "row", "shape", "tenants", "threads", "widths", "workingSet"),
                List.copyOf(SuiteBenchmark.allParameterNames()));
    }

    /** What JMH's own launcher runs must be the kernels the suite runs: line-aligned, with the Vector API. */
    @ParameterizedTest
    @EnumSource(SuiteBenchmark.class)
    void shouldForkWithTheSuitesFlagsUnderJmhsOwnLauncher(SuiteBenchmark benchmark) throws Exception {
        Class<?> type = Class.forName(benchmark.benchmarkName().substring(0, benchmark.benchmarkName().lastIndexOf('.')));
        Fork fork = type.getAnnotation(Fork.class);

        assertEquals(List.of(ForkFlags.VECTOR_MODULE, ForkFlags.OBJECT_ALIGNMENT, ForkFlags.LAYOUT_EXPORT),
                List.of(fork.jvmArgsAppend()));
        List<String> suite = plan(SuiteRequest.of(benchmark).with("workingSet", "16KiB")).steps().get(0).options()
                .getJvmArgsAppend().get().stream().toList();
        assertTrue(suite.containsAll(List.of(fork.jvmArgsAppend())), suite::toString);
    }

    @Test
    void shouldSizeAStreamForkByTheArraysOfTheKernelThatTouchesMost() {
        long arrayBytes = 256L << 20;
        assertEquals(3 * arrayBytes, footprint(SuiteRequest.of(SuiteBenchmark.STREAM), arrayBytes));
        assertEquals(3 * arrayBytes, footprint(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "SUM", "TRIAD"),
                arrayBytes));
        assertEquals(2 * arrayBytes, footprint(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "copy", "Dot"),
                arrayBytes));
        assertEquals(arrayBytes, footprint(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "FILL"), arrayBytes));
    }

    @Test
    void shouldGiveAForkItsFootprintAndTheHeadroom() {
        SuitePlan plan = plan(SuiteRequest.of(SuiteBenchmark.STREAM).with("kernel", "SUM").with("workingSet", "1GiB"));

        assertTrue(plan.describe().contains("fork heap 1536 MiB"), plan::describe);
        assertTrue(plan.steps().get(0).options().getJvmArgsAppend().get().contains("-Xmx1536m"));
    }

    @ParameterizedTest(name = "{0} {1}={2}")
    @CsvSource(delimiter = '|', value = {
            "STREAM|kernel|quad|kernel must be one of Copy, Scale, Add, Triad, Dot, Nstream, Sum, Fill, BulkCopy: kernel=quad",
            "GEMM|n|0|n must be a matrix order from 1 to 16384: n=0",
            "PRODUCT|products|4x4x4:nn+4x4x4:nn|products must not repeat a shape: products=4x4x4:nn+4x4x4:nn",
            "ELEMENTWISE|operation|swish|operation must be one of softmax, cross-entropy, gelu, gelu-backward, "
                    + "rms-norm, rms-norm-backward: operation=swish",
            "ELEMENTWISE|row|0|row must be from 1 to 1048576 elements: row=0",
            "OPTIMIZER|parameters|-1|parameters must be a positive whole number: parameters=-1",
            "MLP|widths|1024|widths must be two or more positive whole numbers: widths=1024",
            "MLP|batch|3000000000|batch must be a positive whole number up to 2147483647: batch=3000000000",
            "TRANSFORMER|shape|11,10,3,12,5,3|heads must divide hidden (10): heads=3"})
    void shouldRefuseAValueItsBenchmarkWouldRefuseBeforeAnyForkRuns(SuiteBenchmark benchmark, String name,
            String value, String message) {
        BadInputException e = assertThrows(BadInputException.class, () -> plan(SuiteRequest.of(benchmark)
                .with(name, value)));

        assertEquals(message, e.getMessage());
    }

    @Test
    void shouldKeepTheResultFileForACommandLineOnly() throws Exception {
        assertTrue(plan(SuiteRequest.of(SuiteBenchmark.FMA)).resultFile().isEmpty());
        Properties properties = new Properties();
        properties.setProperty("membound.repositoryRoot", "/somewhere");
        SuitePlan fromCommandLine = SuitePlan.of(new CommandLineOptions("FmaBenchmark"), EPYC, properties);
        assertTrue(fromCommandLine.resultFile().orElseThrow().startsWith("/somewhere/results/jmh"));
        assertFalse(fromCommandLine.steps().get(0).options().getResult().hasValue(), "the suite writes one file");
    }

    @Test
    void shouldAddTheBenchmarksOwnProfilers() {
        assertEquals(List.of("membound.benchmarks.compute.ProductTimes"),
                plan(SuiteRequest.of(SuiteBenchmark.PRODUCT)).steps().get(0).options().getProfilers().stream()
                        .map(profiler -> profiler.getKlass()).toList());
        assertTrue(plan(SuiteRequest.of(SuiteBenchmark.GEMM)).steps().get(0).options().getProfilers().isEmpty());
    }

    private static long footprint(SuiteRequest request, long arrayBytes) {
        return request.benchmark().footprintBytes(request, 1, arrayBytes);
    }

    private static SuitePlan plan(SuiteRequest request) {
        return SuitePlan.of(List.of(request), ONE_FORK, EPYC);
    }
}
