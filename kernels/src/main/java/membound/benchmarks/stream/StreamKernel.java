package membound.benchmarks.stream;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;

/**
 * The kernel table: what each STREAM-style kernel reads and writes, declared once.
 *
 * <p>As in BabelStream's {@code benchmark.h} ({@code bytes = weight * sizeof(T) * ARRAY_SIZE}), the byte
 * counts follow from the arrays a kernel touches:
 * <ul>
 *   <li>STREAM convention: every array read counts once, every array written once, an array updated in
 *       place (read and written) twice. Copy/Scale move 2 arrays, Add/Triad 3, Dot 2, Nstream 4.</li>
 *   <li>Hardware convention: what the memory moved. Where stores allocate (write-allocate), a store to a line
 *       the kernel has not read also reads that line first, so each written-only array counts twice: Copy/Scale
 *       ×1.5, Add/Triad ×4/3, Fill ×2; an updated array costs nothing extra because its line was already read
 *       (Nstream ×1), and a kernel that only reads moves what it reads. Java cannot issue non-temporal stores,
 *       but some CPUs stop allocating by themselves on a stream of full-line stores (Arm cores' write-streaming
 *       mode, some x86 cores): there the hardware bytes are STREAM's. {@code membound calibrate} measures which
 *       (its write-allocation rule, stored in the profile); elsewhere write-allocate is assumed
 *       ({@link #ASSUMED_STORES_ALLOCATE}) and said to be.</li>
 * </ul>
 * Arrays are named as in STREAM: {@code a}, {@code b}, {@code c}; {@code s} is the scalar.
 */
public enum StreamKernel {
    /** {@code c = a} (STREAM). */
    COPY("Copy", "a", "c", "", 0, AccessPattern.COPY, true) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            k.copy(a, c, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            k.copy(a, c, n);
            return Double.NaN;
        }
    },
    /** {@code b = s * c} (STREAM). */
    SCALE("Scale", "c", "b", "", 1, AccessPattern.COPY, false) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            k.scale(b, c, StreamValues.SCALAR, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            k.scale(b, c, (float) StreamValues.SCALAR, n);
            return Double.NaN;
        }
    },
    /** {@code c = a + b} (STREAM). */
    ADD("Add", "ab", "c", "", 1, AccessPattern.TRIAD, false) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            k.add(a, b, c, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            k.add(a, b, c, n);
            return Double.NaN;
        }
    },
    /** {@code a = b + s * c} (STREAM). */
    TRIAD("Triad", "bc", "a", "", 2, AccessPattern.TRIAD, true) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            k.triad(a, b, c, StreamValues.SCALAR, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            k.triad(a, b, c, (float) StreamValues.SCALAR, n);
            return Double.NaN;
        }
    },
    /** {@code sum += a * b} (BabelStream); the read kernel of tools without a read-only one. */
    DOT("Dot", "ab", "", "", 2, AccessPattern.READ, false) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            return k.dot(a, b, n);
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            return k.dot(a, b, n);
        }
    },
    /** {@code a += b + s * c} (BabelStream); measures no pattern the model times. */
    NSTREAM("Nstream", "bc", "", "a", 3, null, false) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            k.nstream(a, b, c, StreamValues.SCALAR, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            k.nstream(a, b, c, (float) StreamValues.SCALAR, n);
            return Double.NaN;
        }
    },
    /** {@code sum += a}: read-only. */
    SUM("Sum", "a", "", "", 1, AccessPattern.READ, true) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            return k.sum(a, n);
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            return k.sum(a, n);
        }
    },
    /** {@code c = s}: write-only. */
    FILL("Fill", "", "c", "", 0, AccessPattern.WRITE, true) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            k.fill(c, StreamValues.FILL_VALUE, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            k.fill(c, (float) StreamValues.FILL_VALUE, n);
            return Double.NaN;
        }
    },
    /**
     * {@code c = a} by the JVM's own bulk copy ({@code System.arraycopy}), not a loop: the copy stub the JIT picks for
     * large arrays (on x86 wide vector moves, {@code rep movs} where the CPU has fast strings), as stream.c's Copy
     * becomes a {@code memcpy}. Neither implementation twin applies. Its hardware bytes assume write-allocate like
     * every Java store; a stub that streams its stores past the cache would move only the STREAM bytes, so compare it
     * with other tools in STREAM bytes. Stands in for the copy pattern only where the Copy loop was not measured.
     */
    BULK_COPY("BulkCopy", "a", "c", "", 0, AccessPattern.COPY, false) {
        @Override
        public double apply(DoubleKernels k, double[] a, double[] b, double[] c, int n) {
            System.arraycopy(a, 0, c, 0, n);
            return Double.NaN;
        }

        @Override
        public double apply(FloatKernels k, float[] a, float[] b, float[] c, int n) {
            System.arraycopy(a, 0, c, 0, n);
            return Double.NaN;
        }
    };

    private final String label;
    private final String reads;
    private final String writes;
    private final String updates;
    private final int arraysRead;
    private final int arraysWritten;
    private final int arraysUpdated;
    private final int flopsPerElement;
    private final AccessPattern pattern;
    private final boolean measuresPattern;

    StreamKernel(String label, String reads, String writes, String updates, int flopsPerElement,
                 AccessPattern pattern, boolean measuresPattern) {
        this.label = label;
        this.reads = reads;
        this.writes = writes;
        this.updates = updates;
        this.arraysRead = reads.length();
        this.arraysWritten = writes.length();
        this.arraysUpdated = updates.length();
        this.flopsPerElement = flopsPerElement;
        this.pattern = pattern;
        this.measuresPattern = measuresPattern;
    }

    /** One pass over the first {@code n} elements of the double arrays the kernel touches; a reduction's result, else NaN. */
    public abstract double apply(DoubleKernels kernels, double[] a, double[] b, double[] c, int n);

    /** One pass over the first {@code n} elements of the float arrays the kernel touches; a reduction's result, else NaN. */
    public abstract double apply(FloatKernels kernels, float[] a, float[] b, float[] c, int n);

    /**
     * The access pattern of a training step's operations this kernel's bandwidth stands for, if any: Copy and Scale
     * move one stream in and one out (COPY), Add and Triad several in and one out (TRIAD), Sum and Dot only read
     * (READ), Fill only writes (WRITE). Nstream updates in place while reading two more arrays, which no operation
     * does: it has none.
     */
    public java.util.Optional<AccessPattern> pattern() {
        return java.util.Optional.ofNullable(pattern);
    }

    /**
     * Whether this kernel is the one that defines its pattern's ceiling (Copy, Triad, Sum, Fill), rather than one
     * that stands in for it where the defining one was not measured (Scale, Add, Dot: a tool such as BabelStream
     * has no read-only kernel, so its Dot is its read figure).
     */
    public boolean measuresPattern() {
        return measuresPattern;
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

    /**
     * What the hardware figures assume where nothing measured this CPU's stores: that they allocate (every store
     * first reads its line), as x86 and Arm caches do for ordinary stores unless the core detects a stream.
     */
    public static final boolean ASSUMED_STORES_ALLOCATE = true;

    /**
     * Hardware-convention arrays moved per element: with {@code storesAllocate}, a written-only array is also read
     * (write-allocate); without, the memory moves what the code reads and writes (STREAM's count).
     */
    public int hardwareArraysMoved(boolean storesAllocate) {
        return arraysRead + (storesAllocate ? 2 : 1) * arraysWritten + 2 * arraysUpdated;
    }

    /**
     * Hardware bytes over STREAM bytes: 1.5 for Copy and Scale, 4/3 for Add and Triad, 2 for Fill where stores
     * allocate; 1 for every kernel where they do not, and for those that store nothing they have not read.
     */
    public double hardwareFactor(boolean storesAllocate) {
        return (double) hardwareArraysMoved(storesAllocate) / streamArraysMoved();
    }

    /** The factor as printed: {@code x1.5}, {@code x4/3}, {@code x2}, {@code x1}. */
    public String hardwareFactorLabel(boolean storesAllocate) {
        int hardware = hardwareArraysMoved(storesAllocate);
        int stream = streamArraysMoved();
        if (hardware % stream == 0) {
            return "x" + hardware / stream;
        }
        // A half (x1.5) prints as a decimal; a third (x4/3) as the fraction it is.
        return hardware * 2 % stream == 0 ? "x" + (double) hardware / stream : "x" + hardware + "/" + stream;
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
     * Parses a kernel name as users type it: {@code Triad}, {@code triad} or {@code TRIAD}; the error lists the
     * kernels as STREAM prints them.
     */
    public static StreamKernel of(String name) {
        return find(name).orElseThrow(() -> new BadInputException("kernel must be one of "
                + String.join(", ", java.util.Arrays.stream(values()).map(StreamKernel::label).toList())
                + ": kernel=" + name));
    }

    /** The kernel with this name, in any case, if there is one. */
    public static java.util.Optional<StreamKernel> find(String name) {
        for (StreamKernel kernel : values()) {
            if (name != null && kernel.name().equalsIgnoreCase(name.trim())) {
                return java.util.Optional.of(kernel);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * The kernel another tool's output names, by the names those tools print: STREAM's and BabelStream's
     * ({@code Copy}, {@code Mul}, {@code Dot}), likwid-bench's ({@code load}, {@code store}, {@code copy_avx}'s
     * stem), membound's own; empty for one that is none of them.
     */
    public static java.util.Optional<StreamKernel> ofToolName(String name) {
        if (name == null) {
            return java.util.Optional.empty();
        }
        return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "mul" -> java.util.Optional.of(SCALE);
            case "load" -> java.util.Optional.of(SUM);
            case "store" -> java.util.Optional.of(FILL);
            default -> find(name);
        };
    }
}
