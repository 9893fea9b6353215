package membound.benchmarks.compute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import membound.vocabulary.BadInputException;
import membound.vocabulary.ProductShape;

/** The training products at awkward shapes in every layout: computed right, checked, and a wrong C caught. */
class ProductBenchmarkTest {

    static ProductBenchmark run(String products, String threads, int rounds) {
        ProductBenchmark benchmark = new ProductBenchmark();
        benchmark.products = products;
        benchmark.threads = threads;
        benchmark.setUp();
        for (int i = 0; i < rounds; i++) {
            benchmark.multiply();
        }
        return benchmark;
    }

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(strings = {"1", "2"})
    void shouldComputeEveryLayoutRightOnEveryOperandSet(String threads) {
        String products = "37x45x29:nn+37x45x29:nt+37x45x29:tn+64x96x300:nn+64x96x300:nt+64x96x300:tn+3x5x7:tn"
                + "+3x37x45x29:nn+5x16x8x12:nt+2x20x24x36:tn";
        ProductBenchmark benchmark = run(products, threads, 3);
        try {
            benchmark.check();
            List<ProductShape> shapes = ProductShape.parseList(products);
            for (int i = 0; i < shapes.size(); i++) {
                ProductShape shape = shapes.get(i);
                ProductBenchmark.Operands o = benchmark.operands(i);
                int m = shape.m();
                int n = shape.n();
                int k = shape.k();
                // Set 1 was the first a pass used: every product of the batch against a dot product written out here.
                for (int p = 0; p < shape.batch(); p++) {
                    for (int row = 0; row < m; row++) {
                        for (int column = 0; column < n; column += Math.max(1, n / 4)) {
                            float sum = 0;
                            for (int kk = 0; kk < k; kk++) {
                                float a = shape.layout() == ProductShape.Layout.TN ? o.a[1][p * m * k + kk * m + row]
                                        : o.a[1][p * m * k + row * k + kk];
                                float b = shape.layout() == ProductShape.Layout.NT ? o.b[1][p * k * n + column * k + kk]
                                        : o.b[1][p * k * n + kk * n + column];
                                sum += a * b;
                            }
                            assertEquals(sum, o.c[1][p * m * n + row * n + column], 0f,
                                    shape + " product " + p + " C[" + row + "][" + column + "]");
                        }
                    }
                }
            }
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void shouldFailItsCheckWhenAResultIsWrong() {
        ProductBenchmark benchmark = run("64x64x64:nn+64x64x64:tn", "1", 1);
        try {
            benchmark.operands(1).c[1][0] += 1f;
            IllegalStateException e = assertThrows(IllegalStateException.class, benchmark::check);
            assertTrue(e.getMessage().contains("64x64x64:tn"), e.getMessage());
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void shouldRotateOperandSetsUpToTheirLimit() {
        // 3 x 4 MiB per 1024^3 set: 6 sets hold 64 MiB; a tiny product is capped at 64 sets.
        assertEquals(6, ProductBenchmark.sets(ProductShape.parse("1024x1024x1024:nn")));
        assertEquals(ProductBenchmark.MAX_SETS, ProductBenchmark.sets(ProductShape.parse("4x4x4:nn")));
        assertEquals(1, ProductBenchmark.sets(ProductShape.parse("8192x8192x8192:nn")));
        // 16 heads x (256 + 64 + 64) KiB = 6 MiB a set: 11 sets.
        assertEquals(11, ProductBenchmark.sets(ProductShape.parse("16x256x64x256:nn")));
        assertEquals("16x256x64x256:nn", ProductShape.parse("16x256x64x256:nn").toString());
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "1024x1024:nn", "1024x1024x1024", "1024x1024x1024:xy", "ax1x1:nn", "0x4x4:nn",
        "4x4x99999:nn", "1x1x1:nn:tn", "0x4x4x4:nn", "1x2x3x4x5:nn", "x4x4x4:nn"})
    void shouldRejectAMalformedShapeNamingIt(String text) {
        BadInputException e = assertThrows(BadInputException.class, () -> ProductBenchmark.shapes(text));
        assertTrue(e.getMessage().contains("batch=") || e.getMessage().contains("shape=" + text)
                || e.getMessage().contains("products=" + text), e.getMessage());
    }

    @Test
    void shouldRejectAnEmptyOrRepeatingList() {
        assertThrows(IllegalArgumentException.class, () -> ProductShape.parseList(""));
        assertThrows(IllegalArgumentException.class, () -> ProductShape.parseList("4x4x4:nn+"));
        IllegalArgumentException repeat = assertThrows(IllegalArgumentException.class,
                () -> ProductShape.parseList("4x4x4:nn+4x4x4:nn"));
        assertTrue(repeat.getMessage().contains("repeat"), repeat.getMessage());
        assertEquals(2, ProductShape.parseList("4x4x4:nn+4x4x4:tn").size());
    }
}
