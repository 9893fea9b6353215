package membound.benchmarks.compute;

import java.util.Locale;

/**
 * The shape of a matrix product of a training step: C (m × n) = op(A) · op(B) over an inner dimension k, in
 * one of the three layouts {@link Matmul} runs, or a batch of such products (attention runs one per sequence
 * and head). Written {@code MxNxK:layout}, e.g. {@code 256x1024x1024:tn}, or {@code BxMxNxK:layout} for a
 * batch of B, e.g. {@code 16x256x256x64:nt}.
 *
 * <ul>
 *   <li>{@code nn}: {@code C = A·B}, a forward pass ({@code Y = X·W}: m tokens, k in, n out);</li>
 *   <li>{@code nt}: {@code C = A·Bᵀ}, an input gradient ({@code dX = dY·Wᵀ}) or attention scores ({@code Q·Kᵀ});</li>
 *   <li>{@code tn}: {@code C = Aᵀ·B}, a weight gradient ({@code dW = Xᵀ·dY}: m in, n out, k tokens).</li>
 * </ul>
 */
public record ProductShape(int batch, int m, int n, int k, Layout layout) {

    /** Largest dimension accepted: a 16384 × 16384 float matrix is 1 GiB. */
    public static final int MAX_DIMENSION = 16384;

    public enum Layout {
        NN, NT, TN;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Largest batch accepted. */
    public static final int MAX_BATCH = 4096;

    public ProductShape {
        if (m < 1 || n < 1 || k < 1 || m > MAX_DIMENSION || n > MAX_DIMENSION || k > MAX_DIMENSION || batch < 1
                || batch > MAX_BATCH) {
            throw new IllegalArgumentException("product dimensions must be from 1 to " + MAX_DIMENSION
                    + " and the batch from 1 to " + MAX_BATCH + ": batch=" + batch + ", m=" + m + ", n=" + n + ", k="
                    + k);
        }
        if (layout == null) {
            throw new IllegalArgumentException("product needs a layout (nn, nt or tn)");
        }
    }

    /** Parses {@code MxNxK:layout}; a malformed text is an {@link IllegalArgumentException} that quotes it. */
    public static ProductShape parse(String text) {
        String rule = "shape must be MxNxK:layout or BxMxNxK:layout with layout nn, nt or tn (e.g. 256x1024x1024:tn): "
                + "shape=" + text;
        if (text == null) {
            throw new IllegalArgumentException(rule);
        }
        String[] parts = text.trim().split(":");
        if (parts.length != 2) {
            throw new IllegalArgumentException(rule);
        }
        String[] dims = parts[0].split("x", -1);
        if (dims.length != 3 && dims.length != 4) {
            throw new IllegalArgumentException(rule);
        }
        Layout layout;
        try {
            layout = Layout.valueOf(parts[1].trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(rule);
        }
        int[] values = new int[dims.length];
        for (int i = 0; i < dims.length; i++) {
            try {
                values[i] = Integer.parseInt(dims[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(rule);
            }
        }
        return dims.length == 3 ? new ProductShape(1, values[0], values[1], values[2], layout)
                : new ProductShape(values[0], values[1], values[2], values[3], layout);
    }

    /** Parses shapes joined by {@code +} ({@code 1024x1024x1024:nn+256x1024x1024:tn}), at least one, no repeats. */
    public static java.util.List<ProductShape> parseList(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("products must be shapes MxNxK:layout joined by + (e.g. "
                    + "1024x1024x1024:nn+256x1024x1024:tn): products=" + text);
        }
        java.util.List<ProductShape> shapes = new java.util.ArrayList<>();
        for (String part : text.split("\\+", -1)) {
            ProductShape shape = parse(part);
            if (shapes.contains(shape)) {
                throw new IllegalArgumentException("products must not repeat a shape: products=" + text);
            }
            shapes.add(shape);
        }
        return java.util.List.copyOf(shapes);
    }

    /** FLOPs of the batch: 2·batch·m·n·k. */
    public double flops() {
        return 2.0 * batch * m * n * k;
    }

    /** Bytes of the batch's A, B and C in floats. */
    public long floatBytes() {
        return 4L * batch * ((long) m * k + (long) k * n + (long) m * n);
    }

    @Override
    public String toString() {
        return (batch > 1 ? batch + "x" : "") + m + "x" + n + "x" + k + ":" + layout.label();
    }
}
