package membound.benchmarks.gpu.cuda;

import static membound.benchmarks.gpu.GpuPlan.THREADS_PER_BLOCK;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import membound.benchmarks.gpu.GpuPlan;
import membound.benchmarks.stream.ElementType;
import membound.benchmarks.stream.StreamKernel;
import membound.benchmarks.stream.StreamValues;

/**
 * What the PTX kernels compute, run by {@link PtxInterpreter} the way the GPU suite runs them on a device: the arrays
 * filled with STREAM's start values by the Fill kernel, then each kernel with the written array poisoned with NaN
 * first, two launches back to back, the result counted by the verify kernel against STREAM's closed form and Dot's
 * sum against its own. The parameter blocks are the suite's own ({@link Kernels#streamParameters}). Each is run on a
 * grid short of the arrays (every thread loops) and one past them (threads with nothing to do), and every element is
 * also read back here, so a verify kernel that counted nothing would not hide a wrong result.
 *
 * <p>ptxas (PtxAssemblyTest) shows the kernels assemble and fit; this shows what they do.
 */
class PtxKernelsTest {

    /** Elements per array: a multiple of every type's vector (8 bf16, 4 f32, 2 f64). */
    static final long ELEMENTS = 8 * 1000;
    /** 3 blocks of 256 threads run short of every type's vectors; 40 run past them. */
    static final int[] GRIDS = {3, 40};

    @ParameterizedTest
    @EnumSource(ElementType.class)
    void everyKernelGivesStreamsClosedFormOnEveryGrid(ElementType type) {
        for (int grid : GRIDS) {
            try (Device device = new Device(type, grid)) {
                everyKernel(device, type, grid);
            }
        }
    }

    private static void everyKernel(Device device, ElementType type, int grid) {
        StreamValues values = StreamValues.start(type);
        for (char array : new char[] {'a', 'b', 'c'}) {
            device.fill(array, values.of(array));
        }
        for (StreamKernel kernel : GpuPlan.DEVICE_KERNELS) {
            char written = CudaGpuSuite.writtenArray(kernel);
            String what = kernel.label() + " " + type + " on " + grid + " blocks";
            if (written != 0) {
                device.fill(written, Double.NaN);
                double expected = values.after(kernel, 1).of(written);
                assertEquals(ELEMENTS, device.mismatches(written, expected), what + ": the poison is seen");
                device.launch(kernel, 2);
                assertEquals(0, device.mismatches(written, expected), what + ": the verify kernel's count");
                for (long i = 0; i < ELEMENTS; i++) {
                    assertEquals(expected, device.element(written, i), what + ": " + written + "[" + i + "]");
                }
                device.fill(written, values.of(written));
            } else {
                device.clearScratch();
                device.launch(kernel, 2);
                assertEquals(2 * values.reduction(kernel, ELEMENTS), device.scratchDouble(), what + ": the sum");
            }
        }
    }

    /**
     * STREAM's closed form holds every element of an array at one value, so it cannot see an element stored in
     * another's place (two bf16 swapped in their word, say). Here every element differs, and each lands where the
     * kernel's formula says.
     */
    @ParameterizedTest
    @EnumSource(ElementType.class)
    void eachElementLandsWhereItBelongs(ElementType type) {
        for (StreamKernel kernel : GpuPlan.DEVICE_KERNELS) {
            try (Device device = new Device(type, 3)) {
                differingElements(device, type, kernel);
            }
        }
    }

    private static void differingElements(Device device, ElementType type, StreamKernel kernel) {
        for (long i = 0; i < ELEMENTS; i++) {
            device.setElement('a', i, a(i));
            device.setElement('b', i, b(i));
            device.setElement('c', i, c(i));
        }
        device.clearScratch();
        device.launch(kernel, 1);
        double s = StreamValues.SCALAR;
        double dot = 0;
        for (long i = 0; i < ELEMENTS; i++) {
            String at = kernel.label() + " " + type + " [" + i + "]";
            switch (kernel) {
                case COPY -> assertEquals(a(i), device.element('c', i), at);
                case SCALE -> assertEquals(s * c(i), device.element('b', i), at);
                case ADD -> assertEquals(a(i) + b(i), device.element('c', i), at);
                case TRIAD -> assertEquals(b(i) + s * c(i), device.element('a', i), at);
                case FILL -> assertEquals(s, device.element('c', i), at);
                case DOT -> dot += a(i) * b(i);
                default -> throw new AssertionError(kernel + " is not a device kernel");
            }
        }
        if (kernel == StreamKernel.DOT) {
            assertEquals(dot, device.scratchDouble(), kernel.label() + " " + type);
        }
    }

    /** Small integers, exact in bf16 and in every result above, different from their neighbours. */
    private static double a(long i) {
        return i % 7 + 1;
    }

    private static double b(long i) {
        return i % 5 + 2;
    }

    private static double c(long i) {
        return i % 3 - 1;
    }

    @ParameterizedTest
    @EnumSource(ElementType.class)
    void theVerifyKernelCountsEachWrongElement(ElementType type) {
        try (Device device = new Device(type, 3)) {
            device.fill('a', 30);
            device.setElement('a', 0, 29);
            device.setElement('a', ELEMENTS - 1, Double.NaN);
            device.setElement('a', 777, -30);
            assertEquals(3, device.mismatches('a', 30));
        }
    }

    @Test
    void theEmptyKernelRuns() {
        try (PtxInterpreter gpu = new PtxInterpreter(256, false); Arena arena = Arena.ofConfined()) {
            gpu.launch(PtxInterpreter.parse(Ptx.text("launch.ptx")).get("empty"), 1, 1, arena.allocate(8));
        }
    }

    @Test
    void theInterpreterFaultsWhereAGpuWould() {
        String ptx = """
                .visible .entry out_of_bounds(.param .u64 x)
                {
                    .reg .b64 %rd<4>;
                    .reg .f64 %d<2>;
                    ld.param.u64 %rd1, [x];
                    add.u64 %rd2, %rd1, 4096;
                    ld.global.f64 %d1, [%rd2];
                    ret;
                }
                .visible .entry misaligned(.param .u64 x)
                {
                    .reg .b64 %rd<4>;
                    .reg .f64 %d<4>;
                    ld.param.u64 %rd1, [x];
                    add.u64 %rd2, %rd1, 8;
                    ld.global.v2.f64 {%d1, %d2}, [%rd2];
                    ret;
                }
                .visible .entry unwritten(.param .u64 x)
                {
                    .reg .b64 %rd<4>;
                    add.u64 %rd2, %rd1, 8;
                    ret;
                }
                """;
        var entries = PtxInterpreter.parse(ptx);
        try (PtxInterpreter gpu = new PtxInterpreter(8192, false); Arena arena = Arena.ofConfined()) {
            long x = gpu.allocate(4096);
            MemorySegment parameters = arena.allocate(ADDRESS, 1);
            parameters.setAtIndex(ADDRESS, 0,
                    arena.allocateFrom(JAVA_LONG, x));
            assertTrue(assertThrows(IllegalStateException.class, () -> gpu.launch(entries.get("out_of_bounds"), 1, 1, parameters))
                    .getMessage().contains("outside the allocations"));
            assertTrue(assertThrows(IllegalStateException.class, () -> gpu.launch(entries.get("misaligned"), 1, 1, parameters))
                    .getMessage().contains("not aligned to 16 bytes"));
            assertTrue(assertThrows(IllegalStateException.class, () -> gpu.launch(entries.get("unwritten"), 1, 1, parameters))
                    .getMessage().contains("%rd1 is read before it is written"));
        }
    }

    @Test
    void bf16RoundsToNearestEven() {
        assertEquals(0x3F80, PtxInterpreter.bf16(1.0f));
        assertEquals(0x3F80, PtxInterpreter.bf16(Float.intBitsToFloat(0x3F808000)), "a tie goes to the even 0x3F80");
        assertEquals(0x3F82, PtxInterpreter.bf16(Float.intBitsToFloat(0x3F818000)), "a tie goes to the even 0x3F82");
        assertEquals(0x3F81, PtxInterpreter.bf16(Float.intBitsToFloat(0x3F808001)), "above the tie rounds up");
    }

    /** The interpreter with the suite's three arrays and scratch word, launched as the suite launches. */
    private static final class Device implements AutoCloseable {
        final ElementType type;
        final int grid;
        final PtxInterpreter gpu;
        final java.util.Map<String, PtxInterpreter.Entry> entries;
        final long[] arrays;
        final long scratch;

        Device(ElementType type, int grid) {
            this.type = type;
            this.grid = grid;
            long bytes = ELEMENTS * type.bytes();
            this.gpu = new PtxInterpreter(3 * bytes + 8, false);
            this.entries = PtxInterpreter.parse(Ptx.text(Ptx.streamResource(type)));
            this.arrays = new long[] {gpu.allocate(bytes), gpu.allocate(bytes), gpu.allocate(bytes)};
            this.scratch = gpu.allocate(8);
        }

        void launch(StreamKernel kernel, int launches) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment parameters = Kernels.streamParameters(arena, type, arrays, StreamValues.SCALAR,
                        ELEMENTS, scratch);
                for (int i = 0; i < launches; i++) {
                    gpu.launch(entries.get(Kernels.entry(kernel, type)), grid, THREADS_PER_BLOCK, parameters);
                }
            }
        }

        void fill(char array, double value) {
            try (Arena arena = Arena.ofConfined()) {
                gpu.launch(entries.get(Kernels.entry(StreamKernel.FILL, type)), grid, THREADS_PER_BLOCK,
                        Kernels.streamParameters(arena, type, new long[] {0, 0, arrays[array - 'a']}, value,
                                ELEMENTS, 0));
            }
        }

        long mismatches(char array, double expected) {
            gpu.at(scratch, 4, "scratch").set(JAVA_INT, 0, 0);
            try (Arena arena = Arena.ofConfined()) {
                gpu.launch(entries.get(Kernels.verifyEntry(type)), grid, THREADS_PER_BLOCK,
                        Kernels.verifyParameters(arena, type, arrays[array - 'a'], expected, ELEMENTS, scratch));
            }
            return Integer.toUnsignedLong(gpu.at(scratch, 4, "scratch").get(JAVA_INT, 0));
        }

        void clearScratch() {
            gpu.at(scratch, 8, "scratch").set(JAVA_DOUBLE, 0, 0);
        }

        double scratchDouble() {
            return gpu.at(scratch, 8, "scratch").get(JAVA_DOUBLE, 0);
        }

        private MemorySegment element(char array, long index, String what) {
            return gpu.at(arrays[array - 'a'] + index * type.bytes(), type.bytes(), what);
        }

        double element(char array, long index) {
            MemorySegment at = element(array, index, "element");
            return switch (type) {
                case DOUBLE -> at.get(JAVA_DOUBLE, 0);
                case FLOAT -> at.get(JAVA_FLOAT, 0);
                case BF16 -> Float.intBitsToFloat((at.get(JAVA_SHORT, 0) & 0xFFFF) << 16);
            };
        }

        void setElement(char array, long index, double value) {
            MemorySegment at = element(array, index, "element");
            switch (type) {
                case DOUBLE -> at.set(JAVA_DOUBLE, 0, value);
                case FLOAT -> at.set(JAVA_FLOAT, 0, (float) value);
                case BF16 -> at.set(JAVA_SHORT, 0, (short) PtxInterpreter.bf16((float) value));
            }
        }

        @Override
        public void close() {
            gpu.close();
        }
    }
}
