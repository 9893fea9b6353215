package membound.benchmarks.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class TenantsBenchmarkTest {

    /** Tagged "fork": the tenants are JVMs started by their own path, which CI's emulated aarch64 run cannot exec. */
    @Test
    @Tag("fork")
    void shouldRunAStepInEveryTenantProcessAndCheckIt() throws Exception {
        TenantsBenchmark benchmark = new TenantsBenchmark();
        benchmark.tenants = 2;
        benchmark.parameters = 10_000;
        TenantStepTimes.clear();
        benchmark.setUp();
        try {
            benchmark.reset();
            assertTrue(benchmark.step() > 0);
            assertTrue(benchmark.step() > 0);
            benchmark.check();
            var results = new TenantStepTimes().afterIteration(null, null, null);
            assertEquals(2, results.size());
            assertEquals(TenantStepTimes.label(2), results.stream().toList().get(1).getLabel());
        } finally {
            benchmark.tearDown();
        }
    }

    @Test
    void shouldGiveEachTenantAnEvenShareOfTheCpusAndAtLeastOne() {
        assertEquals(1, TenantsBenchmark.threadsPerTenant(2, 2));
        assertEquals(4, TenantsBenchmark.threadsPerTenant(8, 2));
        assertEquals(1, TenantsBenchmark.threadsPerTenant(2, 3));
    }
}
