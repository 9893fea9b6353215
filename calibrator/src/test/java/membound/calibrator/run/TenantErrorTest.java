package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TenantErrorTest {

    @Test
    void shouldNameTheExceptionOfADeadTenantNotItsLastStackFrame() {
        StringBuilder err = new StringBuilder("""
                WARNING: Using incubator modules: jdk.incubator.vector
                Exception in thread "membound-team-1" java.lang.OutOfMemoryError: Java heap space
                \tat membound.benchmarks.stream.StreamSlice.<init>(StreamSlice.java:40)
                \tat java.base/java.lang.Thread.run(Thread.java:840)
                """);
        assertEquals("Exception in thread \"membound-team-1\" java.lang.OutOfMemoryError: Java heap space",
                TenantsMeasurement.lastLine(err));
    }

    @Test
    void shouldPreferTheLastCauseAndSayWhenStderrWasEmpty() {
        StringBuilder err = new StringBuilder("""
                java.lang.IllegalStateException: run failed
                \tat a.B.c(B.java:1)
                Caused by: membound.benchmarks.stream.StreamValidationException: Triad a[7]=1.0, expected 30.0
                \tat a.B.d(B.java:2)
                \t... 3 more
                """);
        assertEquals("Caused by: membound.benchmarks.stream.StreamValidationException: Triad a[7]=1.0, expected 30.0",
                TenantsMeasurement.lastLine(err));
        assertEquals("(nothing on stderr)", TenantsMeasurement.lastLine(new StringBuilder("\n")));
    }
}
