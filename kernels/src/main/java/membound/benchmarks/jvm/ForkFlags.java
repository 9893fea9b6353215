package membound.benchmarks.jvm;

import membound.benchmarks.stream.LineAlignment;

/**
 * The JVM flags every benchmark fork runs with. They are compile-time constants so that each benchmark's
 * {@code @Fork} and the suite's options name the same ones: JMH's own launcher
 * ({@code java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main StreamBenchmark}, an IDE) then
 * measures the same line-aligned kernels as the suite, whose options replace the annotation's.
 */
public final class ForkFlags {

    /** The Vector API, which the kernels use. */
    public static final String VECTOR_MODULE = "--add-modules=jdk.incubator.vector";
    /** Every object, so every array, starts on a cache line ({@link LineAlignment}). */
    public static final String OBJECT_ALIGNMENT = LineAlignment.OBJECT_ALIGNMENT_OPTION;
    /** Lets {@link LineAlignment} read the array layout, without which the kernels do not align. */
    public static final String LAYOUT_EXPORT = LineAlignment.LAYOUT_EXPORT_OPTION;

    private ForkFlags() {
    }
}
