package membound.benchmarks.stream;

/**
 * The kernel table: what each STREAM-style kernel reads and writes, declared once.
 *
 * <p>As in BabelStream's {@code benchmark.h} ({@code bytes = weight * sizeof(T) * ARRAY_SIZE}), the byte
 * counts follow from the arrays a kernel touches:
 * <ul>
 *   <li>STREAM convention: every array read counts once, every array written once, an array updated in
 *       place (read and written) twice. Copy/Scale move 2 arrays, Add/Triad 3, Dot 2, Nstream 4.</li>
 *   <li>Hardware convention (write-allocate): a store to a line the kernel has not read also reads that
 *       line first, so each written-only array counts twice. Copy/Scale ×1.5, Add/Triad ×4/3; an updated
 *       array costs nothing extra because its line was already read. Java cannot issue non-temporal
 *       (streaming) stores, so this applies to every store a Java kernel makes.</li>
 * </ul>
 * Arrays are named as in STREAM: {@code a}, {@code b}, {@code c}; {@code s} is the scalar.
 */
public enum StreamKernel {
    /** {@code c = a} (STREAM). */
    COPY("Copy", "a", "c", "", 0),
    /** {@code b = s * c} (STREAM). */
    SCALE("Scale", "c", "b", "", 1),
    /** {@code c = a + b} (STREAM). */
    ADD("Add", "ab", "c", "", 1),
    /** {@code a = b + s * c} (STREAM). */
    TRIAD("Triad", "bc", "a", "", 2),
    /** {@code sum += a * b} (BabelStream). */
    DOT("Dot", "ab", "", "", 2),
    /** {@code a += b + s * c} (BabelStream). */
    NSTREAM("Nstream", "bc", "", "a", 3),
    /** {@code sum += a}: read-only. */
    SUM("Sum", "a", "", "", 1),
    /** {@code c = s}: write-only. */
    FILL("Fill", "", "c", "", 0);

    private final String label;
    private final String reads;
    private final String writes;
    private final String updates;
    private final int arraysRead;
    private final int arraysWritten;
    private final int arraysUpdated;
    private final int flopsPerElement;

    StreamKernel(String label, String reads, String writes, String updates, int flopsPerElement) {
        this.label = label;
        this.reads = reads;
        this.writes = writes;
        this.updates = updates;
        this.arraysRead = reads.length();
        this.arraysWritten = writes.length();
        this.arraysUpdated = updates.length();
        this.flopsPerElement = flopsPerElement;
    }

    /** True if the kernel touches array {@code name} ('a', 'b' or 'c'). */
    public boolean touches(char name) {
        return reads.indexOf(name) >= 0 || writes.indexOf(name) >= 0 || updates.indexOf(name) >= 0;
    }

    /** True if the kernel only writes array {@code name}: its old contents never matter. */
    public boolean onlyWrites(char name) {
        return writes.indexOf(name) >= 0;
    }

    /** The name STREAM and BabelStream print, e.g. {@code Triad}. */
    public String label() {
        return label;
    }

    /** Distinct arrays the kernel touches: its footprint is this many arrays. */
    public int arrays() {
        return arraysRead + arraysWritten + arraysUpdated;
    }

    /** Arrays only read. */
    public int arraysRead() {
        return arraysRead;
    }

    /** Arrays only written. */
    public int arraysWritten() {
        return arraysWritten;
    }

    /** Arrays read and written in place. */
    public int arraysUpdated() {
        return arraysUpdated;
    }

    /** STREAM-convention arrays moved per element: reads + writes, an updated array twice. */
    public int streamArraysMoved() {
        return arraysRead + arraysWritten + 2 * arraysUpdated;
    }

    /** Hardware-convention arrays moved per element: a written-only array is also read (write-allocate). */
    public int hardwareArraysMoved() {
        return arraysRead + 2 * arraysWritten + 2 * arraysUpdated;
    }

    /** Floating-point operations per element (an FMA-able multiply-add counts 2). */
    public int flopsPerElement() {
        return flopsPerElement;
    }

    /** True for Dot and Sum, which return a reduction instead of writing an array. */
    public boolean isReduction() {
        return arraysWritten + arraysUpdated == 0;
    }

    /**
     * Parses a kernel name as users type it: {@code Triad}, {@code triad} or {@code TRIAD}.
     *
     * @throws IllegalArgumentException naming the value and the known kernels
     */
    public static StreamKernel of(String name) {
        for (StreamKernel kernel : values()) {
            if (kernel.name().equalsIgnoreCase(name.trim())) {
                return kernel;
            }
        }
        throw new IllegalArgumentException("kernel must be one of " + java.util.Arrays.toString(values())
                + ": kernel=" + name);
    }
}
