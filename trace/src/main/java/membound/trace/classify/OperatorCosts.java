package membound.trace.classify;

import java.util.List;
import java.util.Locale;

import membound.trace.TraceClass;
import membound.vocabulary.Precision;

/**
 * The FLOPs and bytes of one CPU operator from the input shapes the profiler recorded ({@code record_shapes}:
 * {@code Input Dims} and {@code Input type}), for the operators whose cost their shapes fix: matrix products
 * (2·M·K·N per product), attention (4·B·H·T·S·D forward, 2.5 times that backward: FlashAttention recomputes the
 * scores), norms and elementwise operations (the bytes of their tensors, read once and the result written once).
 * Anything else has no cost from its shapes: NaN, and its time is reported without a share of a ceiling.
 */
public final class OperatorCosts {

    /** FLOPs, bytes and the precision they ran in; NaN FLOPs and bytes when the shapes do not fix them. */
    public record Cost(double flops, double bytes, Precision precision) {
        public static final Cost UNKNOWN = new Cost(Double.NaN, Double.NaN, null);

        public boolean known() {
            return !Double.isNaN(bytes);
        }
    }

    /** FlashAttention's backward: five products of the forward's size where the forward has two. */
    static final double ATTENTION_BACKWARD_FACTOR = 2.5;

    private OperatorCosts() {
    }

    /**
     * @param name the operator ({@code aten::addmm})
     * @param dims each input's shape; an empty shape is a scalar, a null one not a tensor
     * @param types each input's type as the profiler names it ({@code float}, {@code c10::BFloat16}); may be shorter
     */
    public static Cost of(String name, List<long[]> dims, List<String> types) {
        if (name == null || dims == null || dims.isEmpty()) {
            return Cost.UNKNOWN;
        }
        String op = name.toLowerCase(Locale.ROOT);
        int element = elementBytes(types, 0);
        Precision precision = precisionOf(types);
        switch (op) {
            case "aten::mm" -> {
                return product(dims, 0, 1, element, precision);
            }
            case "aten::addmm" -> {
                return product(dims, 1, 2, element, precision);
            }
            case "aten::bmm" -> {
                return product(dims, 0, 1, element, precision);
            }
            case "aten::baddbmm" -> {
                return product(dims, 1, 2, element, precision);
            }
            case "aten::linear" -> {
                return linear(dims, element, precision);
            }
            default -> {
                // below
            }
        }
        if (op.contains("scaled_dot_product") || op.contains("flash_attention") || op.contains("efficient_attention")) {
            return attention(op, dims, element, precision);
        }
        TraceClass cls = KernelClassifier.ofOperator(name);
        if (cls == TraceClass.NORM || cls == TraceClass.ELEMENTWISE) {
            return streaming(op, dims, types, precision, cls == TraceClass.NORM && op.contains("backward") ? 3 : 2);
        }
        return Cost.UNKNOWN;
    }

    /** A product a[..., M, K] x b[..., K, N]: 2·batch·M·K·N FLOPs, both operands read and the result written. */
    private static Cost product(List<long[]> dims, int a, int b, int element, Precision precision) {
        if (dims.size() <= Math.max(a, b) || dims.get(a) == null || dims.get(b) == null) {
            return Cost.UNKNOWN;
        }
        long[] x = dims.get(a);
        long[] y = dims.get(b);
        if (x.length < 2 || y.length < 2 || x[x.length - 1] != y[y.length - 2]) {
            return Cost.UNKNOWN;
        }
        double batch = 1;
        for (int i = 0; i < x.length - 2; i++) {
            batch *= x[i];
        }
        double m = x[x.length - 2];
        double k = x[x.length - 1];
        double n = y[y.length - 1];
        double flops = 2 * batch * m * k * n;
        double bytes = element * (batch * m * k + (y.length > 2 ? batch : 1) * k * n + batch * m * n);
        return new Cost(flops, bytes, precision);
    }

    /** {@code aten::linear(input[..., K], weight[N, K], bias)}. */
    private static Cost linear(List<long[]> dims, int element, Precision precision) {
        if (dims.size() < 2 || dims.get(0) == null || dims.get(1) == null) {
            return Cost.UNKNOWN;
        }
        long[] x = dims.get(0);
        long[] w = dims.get(1);
        if (x.length < 1 || w.length != 2 || x[x.length - 1] != w[1]) {
            return Cost.UNKNOWN;
        }
        double rows = 1;
        for (int i = 0; i < x.length - 1; i++) {
            rows *= x[i];
        }
        double k = w[1];
        double n = w[0];
        return new Cost(2 * rows * k * n, element * (rows * k + k * n + rows * n), precision);
    }

    /** q[B, H, T, D], k[B, H, S, D], v[B, H, S, D]. */
    private static Cost attention(String op, List<long[]> dims, int element, Precision precision) {
        int first = op.contains("backward") ? 1 : 0; // the backward's first input is the output's gradient
        if (dims.size() < first + 3 || dims.get(first) == null || dims.get(first + 1) == null) {
            return Cost.UNKNOWN;
        }
        long[] q = dims.get(first);
        long[] k = dims.get(first + 1);
        if (q.length != 4 || k.length != 4) {
            return Cost.UNKNOWN;
        }
        double b = q[0];
        double h = q[1];
        double t = q[2];
        double s = k[2];
        double d = q[3];
        double flops = 4 * b * h * t * s * d;
        double bytes = element * (2 * b * h * t * d + 2 * b * h * s * d);
        if (op.contains("backward")) {
            return new Cost(ATTENTION_BACKWARD_FACTOR * flops, 2 * bytes, precision);
        }
        return new Cost(flops, bytes, precision);
    }

    /**
     * A norm or elementwise operator: every tensor input read once, the largest written once (in place or not);
     * a norm's backward reads the gradient and the input and writes the input's gradient. One FLOP per element
     * of the largest (a norm: eight), enough to place it on the roofline's memory side.
     */
    private static Cost streaming(String op, List<long[]> dims, List<String> types, Precision precision, int passes) {
        double read = 0;
        double largest = 0;
        int largestElement = 0;
        for (int i = 0; i < dims.size(); i++) {
            long[] shape = dims.get(i);
            int element = elementBytes(types, i);
            if (shape == null || element == 0) {
                continue;
            }
            double n = 1;
            for (long extent : shape) {
                n *= extent;
            }
            read += n * element;
            if (n * element > largest * largestElement) {
                largest = n;
                largestElement = element;
            }
        }
        if (largest == 0) {
            return Cost.UNKNOWN;
        }
        double bytes = passes == 3 ? 3 * largest * largestElement : read + largest * largestElement;
        double flopsPerElement = op.contains("norm") ? 8 : 1;
        return new Cost(flopsPerElement * largest, bytes, precision);
    }

    /** Bytes per element of input {@code i}: 0 where it is not a tensor (a scalar, a list, none). */
    static int elementBytes(List<String> types, int i) {
        if (types == null || i >= types.size() || types.get(i) == null) {
            return 4;
        }
        return switch (types.get(i)) {
            case "float", "Float", "c10::complex<float>" -> 4;
            case "double", "Double", "long int", "long", "Long", "int64_t" -> 8;
            case "c10::Half", "c10::BFloat16", "Half", "BFloat16", "short" -> 2;
            case "int", "Int", "unsigned int" -> 4;
            case "bool", "Bool", "unsigned char", "signed char", "c10::Float8_e4m3fn", "c10::Float8_e5m2" -> 1;
            default -> 0;
        };
    }

    /** The precision the first floating-point input is in; null where none is. */
    static Precision precisionOf(List<String> types) {
        if (types == null) {
            return null;
        }
        for (String t : types) {
            if (t == null) {
                continue;
            }
            switch (t) {
                case "float", "Float" -> {
                    return Precision.FP32;
                }
                case "c10::BFloat16", "BFloat16" -> {
                    return Precision.BF16;
                }
                case "c10::Half", "Half" -> {
                    return Precision.FP16;
                }
                case "double", "Double" -> {
                    return Precision.FP64;
                }
                case "c10::Float8_e4m3fn", "c10::Float8_e5m2" -> {
                    return Precision.FP8;
                }
                default -> {
                    // not floating point
                }
            }
        }
        return null;
    }
}
