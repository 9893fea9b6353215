package membound.benchmarks.gpu.cuda;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;

/**
 * One element type's loaded module: its STREAM kernels (entries {@code copy_f64}, {@code triad_f32}, ...) and its
 * verify kernel, with the parameter blocks {@code cuLaunchKernel} takes ({@code void*[]}, one pointer per
 * parameter to its value).
 */
final class Kernels {

    final ElementType type;
    final MemorySegment verify;
    final String verifyName;
    private final Map<StreamKernel, MemorySegment> functions = new EnumMap<>(StreamKernel.class);

    Kernels(CudaCalls cuda, MemorySegment module, ElementType type) {
        this.type = type;
        this.verifyName = verifyEntry(type);
        this.verify = cuda.function(module, verifyName);
        for (StreamKernel kernel : membound.benchmarks.gpu.GpuPlan.DEVICE_KERNELS) {
            functions.put(kernel, cuda.function(module, name(kernel)));
        }
    }

    /** The PTX entry of {@code kernel}: {@code triad_f64}. */
    String name(StreamKernel kernel) {
        return entry(kernel, type);
    }

    /** The PTX entry of {@code kernel} on {@code type}: {@code triad_f64}. */
    static String entry(StreamKernel kernel, ElementType type) {
        return kernel.name().toLowerCase(Locale.ROOT) + "_" + Ptx.suffix(type);
    }

    /** The verify kernel's entry on {@code type}: {@code verify_f64}. */
    static String verifyEntry(ElementType type) {
        return "verify_" + Ptx.suffix(type);
    }

    MemorySegment function(StreamKernel kernel) {
        return functions.get(kernel);
    }

    /** {@code (a, b, c, s, n, sum)}, the parameters every STREAM kernel takes. */
    MemorySegment streamParameters(Arena arena, long[] arrays, double scalar, long elements, long sum) {
        return streamParameters(arena, type, arrays, scalar, elements, sum);
    }

    /** {@code (x, expected, n, count)}. */
    MemorySegment verifyParameters(Arena arena, long array, double expected, long elements, long count) {
        return verifyParameters(arena, type, array, expected, elements, count);
    }

    /** The STREAM kernels' parameter block on {@code type}, as {@code cuLaunchKernel} takes it. */
    static MemorySegment streamParameters(Arena arena, ElementType type, long[] arrays, double scalar, long elements,
                                          long sum) {
        return parameters(arena, arena.allocateFrom(JAVA_LONG, arrays[0]), arena.allocateFrom(JAVA_LONG, arrays[1]),
                arena.allocateFrom(JAVA_LONG, arrays[2]), scalar(arena, type, scalar),
                arena.allocateFrom(JAVA_LONG, elements), arena.allocateFrom(JAVA_LONG, sum));
    }

    /** The verify kernel's parameter block on {@code type}. */
    static MemorySegment verifyParameters(Arena arena, ElementType type, long array, double expected, long elements,
                                          long count) {
        return parameters(arena, arena.allocateFrom(JAVA_LONG, array), scalar(arena, type, expected),
                arena.allocateFrom(JAVA_LONG, elements), arena.allocateFrom(JAVA_LONG, count));
    }

    /** The scalar parameter: an f64 for the f64 kernels, an f32 for the f32 and bf16 ones (they compute in f32). */
    private static MemorySegment scalar(Arena arena, ElementType type, double value) {
        return type == ElementType.DOUBLE ? arena.allocateFrom(JAVA_DOUBLE, value)
                : arena.allocateFrom(JAVA_FLOAT, (float) value);
    }

    private static MemorySegment parameters(Arena arena, MemorySegment... values) {
        MemorySegment pointers = arena.allocate(ADDRESS, values.length);
        for (int i = 0; i < values.length; i++) {
            pointers.setAtIndex(ADDRESS, i, values[i]);
        }
        return pointers;
    }
}
