package membound.benchmarks.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.BitSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PointerChaseTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 7, 64, 1000})
    void shouldVisitEveryLineOnceBeforeReturningToTheStart(int lines) {
        PointerChase chase = PointerChase.build((long) lines * PointerChase.LINE_BYTES, 42);
        BitSet seen = new BitSet();
        int position = chase.start();
        for (int step = 0; step < lines; step++) {
            int line = position / (PointerChase.LINE_BYTES / Integer.BYTES);
            assertEquals(false, seen.get(line), "line " + line + " visited twice");
            seen.set(line);
            position = chase.chase(position, 1);
        }
        assertEquals(lines, seen.cardinality());
        assertEquals(chase.start(), position);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 5, 999, 1000, 123457})
    void shouldKnowWhereAChaseStandsAfterAnyNumberOfSteps(int steps) {
        PointerChase chase = PointerChase.build(1000L * PointerChase.LINE_BYTES, 7);

        assertEquals(chase.positionAfter(steps), chase.chase(chase.start(), steps));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 64, 100})
    void shouldRefuseWorkingSetsSmallerThanTwoLines(long bytes) {
        assertThrows(IllegalArgumentException.class, () -> PointerChase.build(bytes, 1));
    }
}
