package membound.benchmarks.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StreamWorkloadTest {

    @ParameterizedTest(name = "{0}: STREAM {1} arrays, hardware {2} ({3}) where stores allocate")
    @CsvSource({
            "COPY, 2, 3, x1.5",
            "SCALE, 2, 3, x1.5",
            "ADD, 3, 4, x4/3",
            "TRIAD, 3, 4, x4/3",
            "DOT, 2, 2, x1",
            "NSTREAM, 4, 4, x1",
            "SUM, 1, 1, x1",
            "FILL, 1, 2, x2",
            "BULK_COPY, 2, 3, x1.5",
    })
    void shouldCountBytesAsStreamAndWithWriteAllocate(StreamKernel kernel, int streamArrays, int hardwareArrays,
                                                      String factor) {
        long arrayBytes = 1L << 30;
        StreamWorkload workload = StreamWorkload.of(kernel, ElementType.DOUBLE, arrayBytes, 2);

        assertEquals(1, workload.repsPerPass());
        assertEquals(streamArrays * arrayBytes, workload.streamBytesPerPass());
        assertEquals(hardwareArrays * arrayBytes, workload.hardwareBytesPerPass(true));
        assertEquals(factor, kernel.hardwareFactorLabel(true));
        assertEquals((double) hardwareArrays / streamArrays, kernel.hardwareFactor(true));
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(StreamKernel.class)
    void whereStoresDoNotAllocateTheMemoryMovesWhatTheCodeReadsAndWrites(StreamKernel kernel) {
        StreamWorkload workload = StreamWorkload.of(kernel, ElementType.DOUBLE, 1L << 30, 2);

        assertEquals(workload.streamBytesPerPass(), workload.hardwareBytesPerPass(false));
        assertEquals("x1", kernel.hardwareFactorLabel(false));
    }

    @Test
    void shouldRepeatCacheSizedPassesUntilTheyMoveEnoughBytes() {
        StreamWorkload workload = StreamWorkload.of(StreamKernel.TRIAD, ElementType.FLOAT, 16 * 1024, 2);

        assertEquals(2048, workload.elementsPerThread());
        long streamBytesPerRep = 3L * 16 * 1024;
        assertEquals((StreamWorkload.MIN_BYTES_PER_PASS + streamBytesPerRep - 1) / streamBytesPerRep,
                workload.repsPerPass());
        assertEquals(workload.repsPerPass() * streamBytesPerRep, workload.streamBytesPerPass());
    }

    @Test
    void shouldRejectSlicesThatAreEmptyOrTooLongForAJavaArray() {
        assertThrows(IllegalArgumentException.class,
                () -> StreamWorkload.of(StreamKernel.COPY, ElementType.DOUBLE, 8, 2));
        assertThrows(IllegalArgumentException.class,
                () -> StreamWorkload.of(StreamKernel.COPY, ElementType.FLOAT, 16L << 30, 1));
    }
}
