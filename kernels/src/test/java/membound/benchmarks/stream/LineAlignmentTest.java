package membound.benchmarks.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The tests run as the suite's forks do, with objects on cache lines: the kernels' head is exercised. */
class LineAlignmentTest {

    @Test
    void shouldStartVectorLoadsOnACacheLineBehindHotSpotsSixteenByteArrayHeader() {
        assertEquals(64, LineAlignment.objectAlignmentBytes());
        assertEquals(16, LineAlignment.arrayBaseOffset(double[].class));
        assertEquals(6, LineAlignment.DOUBLE_HEAD);
        assertEquals(12, LineAlignment.FLOAT_HEAD);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "objects on {0} bytes, base {1}, {2}-byte elements: head {3}")
    @org.junit.jupiter.params.provider.CsvSource({"8, 16, 8, 0", "64, 16, 8, 6", "64, 16, 4, 12", "128, 24, 8, 5",
            "64, 64, 8, 0", "64, -1, 8, 0", "64, 20, 8, 0", "64, 12, 4, 13"})
    void shouldCountTheElementsBeforeTheFirstLineOrNoneWhenTheLayoutIsUnknown(int alignment, int base, int bytes,
            int head) {
        assertEquals(head, LineAlignment.head(alignment, base, bytes));
    }
}
