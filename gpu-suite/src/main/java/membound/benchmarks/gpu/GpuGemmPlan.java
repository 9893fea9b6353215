package membound.benchmarks.gpu;

import java.util.List;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.ProductShape;

/**
 * The GEMMs the GPU suite times through cuBLASLt: square {@code n×n×n} products at each of {@code squareOrders} and the
 * training step's products at {@code products} (the shape list the CPU suite's products use), in each of
 * {@code precisions} the device and the library offer.
 *
 * @param squareOrders  n of the square GEMMs (4096 and 8192; 256 for a smoke run)
 * @param products      the step's product shapes ({@code [B]xMxNxK:layout}, as {@link ProductShape#parseList} reads them)
 * @param precisions    the number formats tried, among {@link #PRECISIONS}
 * @param warmupPasses  samples run and not kept
 * @param passes        samples kept, each timed with CUDA events and checked
 */
public record GpuGemmPlan(List<Integer> squareOrders, List<ProductShape> products, List<Precision> precisions,
                          int warmupPasses, int passes) {

    /** What cuBLASLt multiplies on NVIDIA tensor cores (FP8 is E4M3; FP4 is NVFP4: E2M1 with UE4M3 block scales). */
    public static final List<Precision> PRECISIONS = List.of(Precision.FP32, Precision.TF32, Precision.BF16,
            Precision.FP16, Precision.FP8, Precision.FP4);

    /** The square orders of a measuring run. */
    public static final List<Integer> SQUARE_ORDERS = List.of(4096, 8192);

    /** The largest order accepted: three 16384² FP32 matrices are 3 GiB. */
    public static final int MAX_ORDER = 16384;

    public GpuGemmPlan {
        squareOrders = List.copyOf(squareOrders);
        products = List.copyOf(products);
        precisions = List.copyOf(precisions);
        for (int order : squareOrders) {
            if (order < 32 || order > MAX_ORDER || order % 32 != 0) {
                throw new BadInputException("square GEMM orders must be multiples of 32 from 32 to " + MAX_ORDER
                        + ": order=" + order);
            }
        }
        for (ProductShape shape : products) {
            if (shape.m() % 16 != 0 || shape.n() % 16 != 0 || shape.k() % 32 != 0) {
                throw new BadInputException("GPU product shapes need m and n multiples of 16 and k a multiple of 32 "
                        + "(cuBLASLt's FP8 and FP4 alignment): shape=" + shape);
            }
        }
        for (Precision precision : precisions) {
            if (!PRECISIONS.contains(precision)) {
                throw new BadInputException("GPU GEMM precisions must be among " + PRECISIONS + ": precision="
                        + precision);
            }
        }
        if (warmupPasses < 0 || passes < 1) {
            throw new BadInputException("GEMM passes must be at least 1 and warm-up passes at least 0: passes="
                    + passes + ", warmupPasses=" + warmupPasses);
        }
    }

    /** Every precision at 4096 and 8192 and at {@code products}. */
    public static GpuGemmPlan of(List<ProductShape> products, int passes) {
        return new GpuGemmPlan(SQUARE_ORDERS, products, PRECISIONS, 2, passes);
    }

    /** Every precision at 256 and two 64³ products: the machinery in a second. */
    public static GpuGemmPlan smoke() {
        return new GpuGemmPlan(List.of(256), ProductShape.parseList("64x64x64:nn+64x64x64:nt"), PRECISIONS, 1, 2);
    }

    /** No GEMM at all. */
    public static GpuGemmPlan none() {
        return new GpuGemmPlan(List.of(), List.of(), List.of(), 0, 1);
    }
}
