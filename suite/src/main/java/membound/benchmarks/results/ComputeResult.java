package membound.benchmarks.results;

import java.util.ArrayList;
import java.util.List;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;

import membound.benchmarks.compute.FmaBenchmark;
import membound.benchmarks.compute.GemmBenchmark;
import membound.benchmarks.compute.ProductBenchmark;
import membound.benchmarks.compute.ProductTimes;
import membound.benchmarks.sizing.Threads;
import membound.vocabulary.ProductShape;
import membound.vocabulary.units.RateStatistics;

/**
 * One compute-ceiling result: FMA peak, GEMM or a training product at one shape, its element type and team,
 * and FLOP/s over the distribution of pass times.
 *
 * @param kind {@code fma-peak}, {@code gemm} or {@code product}
 * @param matrixOrder the GEMM's n, 0 for the others
 * @param shape the product's shape and layout, null for the others
 */
public record ComputeResult(String kind, String elementType, int threads, int matrixOrder, ProductShape shape,
        double flopsPerPass, PassTimes passTimes) {

    public static boolean isCompute(RunResult result) {
        String name = result.getParams().getBenchmark();
        return name.startsWith(FmaBenchmark.class.getName() + ".") || name.startsWith(GemmBenchmark.class.getName() + ".")
                || name.startsWith(ProductBenchmark.class.getName() + ".");
    }

    /**
     * The results of a compute run: one for an FMA peak or a GEMM; one per shape for a product run (each
     * shape's own passes, from {@link ProductTimes}; none if the run lacked that profiler).
     */
    public static List<ComputeResult> of(RunResult result) {
        BenchmarkParams params = result.getParams();
        int threads = Threads.resolve(params.getParam("threads"));
        if (params.getBenchmark().startsWith(ProductBenchmark.class.getName() + ".")) {
            List<ComputeResult> products = new ArrayList<>();
            ProductTimes.of(result).forEach((shape, times) -> products.add(new ComputeResult("product", "float",
                    threads, 0, shape, shape.flops(), PassTimes.of(times))));
            return products;
        }
        PassTimes times = PassTimes.of(result.getPrimaryResult());
        String elementType = params.getParam("elementType");
        if (params.getBenchmark().startsWith(FmaBenchmark.class.getName() + ".")) {
            boolean doubles = elementType.equalsIgnoreCase("double");
            return List.of(new ComputeResult("fma-peak", elementType, threads, 0, null,
                    FmaBenchmark.flopsPerPass(doubles, threads), times));
        }
        int n = Integer.parseInt(params.getParam("n"));
        return List.of(new ComputeResult("gemm", elementType, threads, n, null, GemmBenchmark.flopsPerMultiply(n),
                times));
    }

    public RateStatistics flopsPerSecond() {
        return passTimes.rates(flopsPerPass);
    }
}
