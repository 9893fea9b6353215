package membound.vocabulary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A matrix product as it is measured: {@code batch} products of an m×k by a k×n matrix into m×n, with the
 * operands' layout. Written {@code MxNxK:layout}, or {@code BxMxNxK:layout} for a batch (attention runs one
 * product per head). The benchmarks time products at such shapes, the profile keeps them, and the model times
 * each GEMM at the nearest measured shape of its layout.
 */
public record ProductShape(int batch, int m, int n, int k, Layout layout) {

    /** How the operands are stored: {@code nn} a forward pass, {@code nt} an input gradient or attention scores, {@code tn} a weight gradient. */
    public enum Layout implements Labelled {
        NN, NT, TN;

        @Override
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** A profile's JSON name, exactly; an unknown one lists the known names. */
        public static Layout ofLabel(String text) {
            return Labelled.parse(Layout.class, "compute.shape.layout", text);
        }

        @Override
        public String toString() {
            return label();
        }
    }

    public ProductShape {
        if (batch < 1 || m < 1 || n < 1 || k < 1) {
            throw new BadInputException("product dimensions and batch must be at least 1: batch=" + batch + ", m=" + m
                    + ", n=" + n + ", k=" + k);
        }
        if (layout == null) {
            throw new BadInputException("product needs a layout (nn, nt or tn): layout=null");
        }
    }

    /** One product (no batch). */
    public ProductShape(int m, int n, int k, Layout layout) {
        this(1, m, n, k, layout);
    }

    /** Parses {@code MxNxK:layout} or {@code BxMxNxK:layout}; a malformed text is an error that quotes it. */
    public static ProductShape parse(String text) {
        String rule = "shape must be MxNxK:layout or BxMxNxK:layout with layout nn, nt or tn (e.g. 256x1024x1024:tn): "
                + "shape=" + text;
        if (text == null) {
            throw new BadInputException(rule);
        }
        String[] parts = text.trim().split(":");
        if (parts.length != 2) {
            throw new BadInputException(rule);
        }
        String[] dims = parts[0].split("x", -1);
        if (dims.length != 3 && dims.length != 4) {
            throw new BadInputException(rule);
        }
        Layout layout = null;
        for (Layout l : Layout.values()) {
            if (l.label().equals(parts[1].trim().toLowerCase(Locale.ROOT))) {
                layout = l;
            }
        }
        if (layout == null) {
            throw new BadInputException(rule);
        }
        int[] values = new int[dims.length];
        for (int i = 0; i < dims.length; i++) {
            try {
                values[i] = Integer.parseInt(dims[i].trim());
            } catch (NumberFormatException e) {
                throw new BadInputException(rule);
            }
        }
        return dims.length == 3 ? new ProductShape(1, values[0], values[1], values[2], layout)
                : new ProductShape(values[0], values[1], values[2], values[3], layout);
    }

    /** Parses shapes joined by {@code +} ({@code 1024x1024x1024:nn+256x1024x1024:tn}), at least one, no repeats. */
    public static List<ProductShape> parseList(String text) {
        if (text == null || text.isBlank()) {
            throw new BadInputException("products must be shapes MxNxK:layout joined by + (e.g. "
                    + "1024x1024x1024:nn+256x1024x1024:tn): products=" + text);
        }
        List<ProductShape> shapes = new ArrayList<>();
        for (String part : text.split("\\+", -1)) {
            ProductShape shape = parse(part);
            if (shapes.contains(shape)) {
                throw new BadInputException("products must not repeat a shape: products=" + text);
            }
            shapes.add(shape);
        }
        return List.copyOf(shapes);
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
