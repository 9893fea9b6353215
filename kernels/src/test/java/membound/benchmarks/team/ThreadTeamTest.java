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

    @Test
    void shouldBindEachThreadToItsCpuBeforeItBuildsItsState() {
        int cpus = Runtime.getRuntime().availableProcessors();
        org.junit.jupiter.api.Assumptions.assumeTrue(cpus >= 2, "needs two cpus");
        membound.benchmarks.placement.Placement two = new membound.benchmarks.placement.Placement("pair",
                membound.benchmarks.placement.Placement.Kind.CORE_TYPE, java.util.List.of(0, 1), true);
        java.util.List<java.util.List<Integer>> allowed = new java.util.concurrent.CopyOnWriteArrayList<>();
        // Thread 0 is the caller: bind a throwaway thread rather than the test runner's.
        Thread caller = new Thread(() -> {
            try (ThreadTeam<java.util.List<Integer>> team = new ThreadTeam<>(2,
                    membound.benchmarks.placement.CpuBinding.of(two),
                    i -> membound.benchmarks.placement.CpuBinding.allowedCpus(),
                    state -> allowed.add(membound.benchmarks.placement.CpuBinding.allowedCpus()))) {
                team.runPass();
                allowed.add(team.state(0));
                allowed.add(team.state(1));
            }
        });
        caller.start();
        assertTrue(joined(caller));

        assertEquals(java.util.List.of(0), allowed.get(2), "thread 0 built its state on cpu 0");
        assertEquals(java.util.List.of(1), allowed.get(3), "thread 1 built its state on cpu 1");
        assertTrue(allowed.subList(0, 2).containsAll(java.util.List.of(java.util.List.of(0), java.util.List.of(1))),
                allowed::toString);
    }

    private static boolean joined(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }
}
