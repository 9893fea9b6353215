package membound.benchmarks.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Implementation;

/** bf16 is a GPU-only element type: its closed form rounds as the device's cvt.rn.bf16x2.f32 does, the CPU refuses it. */
class Bf16ValuesTest {

    @Test
    void streamsStartValuesAreExactInBf16() {
        assertEquals(new StreamValues(ElementType.BF16, 30, 6, 8), StreamValues.start(ElementType.BF16));
        StreamValues start = StreamValues.start(ElementType.BF16);
        assertEquals(30, start.after(StreamKernel.TRIAD, 1).a(), "6 + 3 * 8");
        assertEquals(24, start.after(StreamKernel.SCALE, 1).b());
        assertEquals(36, start.after(StreamKernel.ADD, 1).c());
    }

    @Test
    void roundingIsToNearestEvenOnSevenMantissaBits() {
        assertEquals(256.0, StreamValues.roundToBf16(257f), "a tie goes to the even mantissa");
        assertEquals(260.0, StreamValues.roundToBf16(259f), "a tie goes to the even mantissa (258 is odd)");
        assertEquals(258.0, StreamValues.roundToBf16(257.5f), "above the tie rounds up");
        assertEquals(-3.0, StreamValues.roundToBf16(-3f));
        assertTrue(Double.isNaN(StreamValues.roundToBf16(Float.NaN)));
    }

    @Test
    void theCpuSuiteHasNoBf16Kernel() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> StreamSlice.allocate(StreamKernel.TRIAD, ElementType.BF16, Implementation.VECTOR, 16));
        assertTrue(e.getMessage().endsWith("elementType=bf16"), e.getMessage());
        assertEquals(ElementType.BF16, ElementType.of("bf16"));
        assertEquals(2, ElementType.BF16.bytes());
    }
}
