package membound.benchmarks.team;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class ThreadTeamTest {

    static final class Slot {
        final String builtOn = Thread.currentThread().getName();
        String ranOn;
        int passes;
    }

    @Test
    void shouldBuildEachThreadsStateOnThatThreadAndRunPassesThere() {
        try (ThreadTeam<Slot> team = new ThreadTeam<>(3, i -> new Slot(), slot -> {
            slot.ranOn = Thread.currentThread().getName();
            slot.passes++;
        })) {
            team.runPass();
            team.runPass();

            for (int t = 0; t < 3; t++) {
                Slot slot = team.state(t);
                assertEquals(slot.builtOn, slot.ranOn, "thread " + t);
                assertEquals(2, slot.passes);
            }
            assertNotEquals(team.state(1).builtOn, team.state(2).builtOn);
            assertEquals(Thread.currentThread().getName(), team.state(0).builtOn);
        }
    }

    @Test
    void shouldTimeAPassUntilTheSlowestThreadFinishes() {
        long sleepNanos = TimeUnit.MILLISECONDS.toNanos(30);
        try (ThreadTeam<Integer> team = new ThreadTeam<>(2, i -> i, thread -> {
            if (thread == 1) {
                long until = System.nanoTime() + sleepNanos;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
        })) {
            long nanos = team.runPass();

            assertTrue(nanos >= sleepNanos, "pass took " + nanos + " ns, slowest thread " + sleepNanos);
        }
    }

    @Test
    void shouldRethrowAFailureFromAnyThreadAfterThePass() {
        AtomicInteger finished = new AtomicInteger();
        try (ThreadTeam<Integer> team = new ThreadTeam<>(2, i -> i, thread -> {
            if (thread == 1) {
                throw new IllegalStateException("boom on thread 1");
            }
            finished.incrementAndGet();
        })) {
            IllegalStateException e = assertThrows(IllegalStateException.class, team::runPass);
            assertEquals("boom on thread 1", e.getMessage());
            assertEquals(1, finished.get());
        }
    }

    @Test
    void shouldReportAFailureWhileBuildingState() {
        OutOfMemoryError e = assertThrows(OutOfMemoryError.class, () -> new ThreadTeam<Integer>(2, i -> {
            if (i == 1) {
                throw new OutOfMemoryError("slice too large");
            }
            return i;
        }, x -> { }));
        assertEquals("slice too large", e.getMessage());
    }
}
