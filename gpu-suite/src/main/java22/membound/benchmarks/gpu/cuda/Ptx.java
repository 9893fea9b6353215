package membound.benchmarks.gpu.cuda;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import membound.benchmarks.stream.ElementType;

/** The PTX kernels, resources under {@code membound/benchmarks/gpu/}: one module per element type and the empty kernel. */
final class Ptx {

    static final String DIRECTORY = "/membound/benchmarks/gpu/";

    private Ptx() {
    }

    /** The module of STREAM kernels on {@code type}: {@code stream-f64.ptx} or {@code stream-f32.ptx}. */
    static String streamResource(ElementType type) {
        return "stream-" + suffix(type) + ".ptx";
    }

    /** The entries' suffix: {@code f64}, {@code f32} or {@code bf16}. */
    static String suffix(ElementType type) {
        return switch (type) {
            case DOUBLE -> "f64";
            case FLOAT -> "f32";
            case BF16 -> "bf16";
        };
    }

    static String text(String resource) {
        try (InputStream in = Ptx.class.getResourceAsStream(DIRECTORY + resource)) {
            if (in == null) {
                throw new IllegalStateException("the PTX resource " + DIRECTORY + resource + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the PTX resource " + DIRECTORY + resource, e);
        }
    }
}
