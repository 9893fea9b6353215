package membound.benchmarks.stream;

import java.lang.management.ManagementFactory;

/**
 * Where a Java array's elements meet a cache line. HotSpot puts an array's first element 16 bytes after the
 * object's start, and starts objects on 8-byte boundaries: a 64-byte vector load from element 0 spans two
 * cache lines, and so does every load after it. For streams from DRAM this costs real bandwidth (on the
 * development machine's AVX-512 cores a DRAM Sum read 36 GB/s with such loads and 50 GB/s with 32-byte ones),
 * where STREAM's and likwid's C arrays start on a line.
 *
 * <p>When the JVM runs with {@code -XX:ObjectAlignmentInBytes=64} (the suite's forks do) every array starts on
 * a line, so its element {@code k} does too for the {@code k} computed here: kernels do that many elements one
 * at a time, then run their vector loop on line-aligned loads. Elsewhere (another alignment, or an unknown
 * array layout) the head is 0 and the kernels are the canonical loop.
 */
public final class LineAlignment {

    public static final int LINE_BYTES = 64;
    /** The JVM option that makes every object start on a cache line. */
    public static final String OBJECT_ALIGNMENT_OPTION = "-XX:ObjectAlignmentInBytes=" + LINE_BYTES;
    /** Lets this class read the array layout from the JVM (an export, not an open: nothing is reflected on). */
    public static final String LAYOUT_EXPORT_OPTION = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    /** Doubles before the first line-aligned one, or 0. */
    public static final int DOUBLE_HEAD = head(double[].class, Double.BYTES);
    /** Floats before the first line-aligned one, or 0. */
    public static final int FLOAT_HEAD = head(float[].class, Float.BYTES);

    private LineAlignment() {
    }

    static int head(Class<?> arrayType, int elementBytes) {
        return head(objectAlignmentBytes(), arrayBaseOffset(arrayType), elementBytes);
    }

    /** Elements before the first on a line, for objects aligned to {@code objectAlignment}; 0 when unknown. */
    static int head(int objectAlignment, int baseOffset, int elementBytes) {
        if (objectAlignment % LINE_BYTES != 0 || baseOffset < 0 || baseOffset % elementBytes != 0) {
            return 0;
        }
        return ((LINE_BYTES - baseOffset % LINE_BYTES) % LINE_BYTES) / elementBytes;
    }

    /** ObjectAlignmentInBytes of this JVM, or 8 (HotSpot's default) if it cannot be read. */
    static int objectAlignmentBytes() {
        try {
            com.sun.management.HotSpotDiagnosticMXBean hotspot =
                    ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return Integer.parseInt(hotspot.getVMOption("ObjectAlignmentInBytes").getValue());
        } catch (RuntimeException | LinkageError e) {
            return 8;
        }
    }

    /** The array base offset from the JVM's own Unsafe, or -1 where it is not exported to us. */
    static int arrayBaseOffset(Class<?> arrayType) {
        try {
            Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
            Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
            // An int up to JDK 21, a long from JDK 25 on.
            Number offset = (Number) unsafeClass.getMethod("arrayBaseOffset", Class.class).invoke(unsafe, arrayType);
            return Math.toIntExact(offset.longValue());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return -1;
        }
    }
}
