package membound.benchmarks.results;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.compute.FmaBenchmark;
import membound.benchmarks.compute.GemmBenchmark;
import membound.benchmarks.sizing.Threads;

/**
 * One compute-ceiling result: FMA peak or GEMM, its element type and team, and FLOP/s over the distribution
 * of pass times.
 *
 * @param kind {@code fma-peak} or {@code gemm}
 * @param matrixOrder the GEMM's n, 0 for the FMA peak
 */
public record ComputeResult(String kind, String elementType, int threads, int matrixOrder, double flopsPerPass,
        PassTimes passTimes) {

    public static boolean isCompute(RunResult result) {
        String name = result.getParams().getBenchmark();
        return name.startsWith(FmaBenchmark.class.getName() + ".") || name.startsWith(GemmBenchmark.class.getName() + ".");
    }

    public static ComputeResult of(RunResult result) {
        BenchmarkParams params = result.getParams();
        String elementType = params.getParam("elementType");
        int threads = Threads.resolve(params.getParam("threads"));
        PassTimes times = PassTimes.of(result.getPrimaryResult());
        if (params.getBenchmark().startsWith(FmaBenchmark.class.getName() + ".")) {
            boolean doubles = elementType.equalsIgnoreCase("double");
            return new ComputeResult("fma-peak", elementType, threads, 0, FmaBenchmark.flopsPerPass(doubles, threads),
                    times);
        }
        int n = Integer.parseInt(params.getParam("n"));
        return new ComputeResult("gemm", elementType, threads, n, GemmBenchmark.flopsPerMultiply(n), times);
    }

    public Rate flopsPerSecond() {
        return Rate.of(flopsPerPass, passTimes);
    }
}
