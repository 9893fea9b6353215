package membound.benchmarks.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import membound.vocabulary.RowOperation;

/** Every elementwise operation runs, passes its own check, and counts the elements the model counts. */
class ElementwiseBenchmarkTest {

    static ElementwiseBenchmark run(RowOperation operation, int row, String threads, int passes) {
        ElementwiseBenchmark benchmark = new ElementwiseBenchmark();
        benchmark.operation = operation.label();
        benchmark.row = row;
        benchmark.threads = threads;
        benchmark.setUp();
        for (int i = 0; i < passes; i++) {
            benchmark.pass();
        }
        return benchmark;
    }

    @ParameterizedTest
    @EnumSource(RowOperation.class)
    void shouldRunAndPassItsCheckAtAnAwkwardRowLength(RowOperation operation) {
        for (int row : new int[] {1, 37, 1024}) {
            ElementwiseBenchmark benchmark = run(operation, row, "2", 3);
            try {
                benchmark.check();
            } finally {
                benchmark.tearDown();
            }
        }
    }

    @Test
    void shouldFailItsCheckWhenARowIsWrong() {
        ElementwiseBenchmark softmax = run(RowOperation.SOFTMAX, 64, "2", 1);
        try {
            softmax.rows(1).in[0] += 1f;
            IllegalStateException e = assertThrows(IllegalStateException.class, softmax::check);
            assertTrue(e.getMessage().startsWith("softmax (row 64) failed validation on thread 1"), e.getMessage());
        } finally {
            softmax.tearDown();
        }
        ElementwiseBenchmark gelu = run(RowOperation.GELU, 64, "1", 1);
        try {
            gelu.rows(0).out[5] = Float.NaN;
            assertThrows(IllegalStateException.class, gelu::check);
        } finally {
            gelu.tearDown();
        }
    }

    @Test
    void shouldCountEveryElementOfEveryThreadsRows() {
        // 16384 elements per thread in whole rows: 16 rows of 1024; 442 rows of 37.
        assertEquals(2L * 16384, ElementwiseBenchmark.elementsPerPass(2, 1024));
        assertEquals(2L * 442 * 37, ElementwiseBenchmark.elementsPerPass(2, 37));
        assertEquals(100000L, ElementwiseBenchmark.elementsPerPass(1, 100000));
    }

    @Test
    void shouldNameTheOperationsAndRejectAnUnknownOne() {
        assertEquals(RowOperation.GELU_BACKWARD, RowOperation.of("gelu-backward"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RowOperation.of("swish"));
        assertTrue(e.getMessage().contains("operation=swish") && e.getMessage().contains("rms-norm-backward"),
                e.getMessage());
    }
}
