package membound.benchmarks.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class CpuBindingTest {

    private static Properties fork(String placement, String cpus, boolean pin) {
        Properties properties = new Properties();
        properties.setProperty(CpuBinding.PLACEMENT_PROPERTY, placement);
        properties.setProperty(CpuBinding.CPUS_PROPERTY, cpus);
        properties.setProperty(CpuBinding.PIN_PROPERTY, Boolean.toString(pin));
        return properties;
    }

    @Test
    void shouldBindNothingOutsideAPlacedFork() {
        assertFalse(CpuBinding.ofFork(new Properties(), 2).pins());
        assertFalse(CpuBinding.ofFork(fork("all", "0-19", false), 20).pins());
    }

    @Test
    void shouldPinWhenTheForkWasToldTo() {
        assertTrue(CpuBinding.ofFork(fork("Cortex-X925", "5-9,15-19", true), 10).pins());
    }

    @Test
    void shouldRefuseAForkThatTheOperatingSystemDidNotConfine() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CpuBinding.ofFork(fork("Cortex-X925", "5-9,15-19", false), 20));

        assertTrue(e.getMessage().startsWith("the fork must run on the 10 cpus of placement Cortex-X925 (5-9,15-19) "
                + "but may use 20"), e.getMessage());
    }

    @Test
    void shouldReadThePlacementBackFromTheLastJvmArgument() {
        // JMH passes the parent JVM's arguments to a fork before the step's own: the last one wins, as in the JVM.
        List<String> jvmArgs = List.of("-Dmembound.placement=all,Cortex-X925", "-Xmx1g", "-Dmembound.placement=Cortex-X925");

        assertEquals("Cortex-X925", CpuBinding.jvmArgument(jvmArgs, CpuBinding.PLACEMENT_PROPERTY));
        assertEquals(null, CpuBinding.jvmArgument(jvmArgs, CpuBinding.CPUS_PROPERTY));
    }

    @Test
    void shouldBindAThreadToOneCpuWithTaskset() throws InterruptedException {
        AtomicReference<Object> seen = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                CpuBinding.bindCurrentThread(0);
                seen.set(CpuBinding.allowedCpus());
            } catch (RuntimeException e) {
                seen.set(e);
            }
        });
        thread.start();
        thread.join();

        assertEquals(List.of(0), seen.get());
    }

    @Test
    void shouldConfineAForkWithTasksetOnlyWhereThePlacementIsNotAllCpus() {
        CpuSetProfiler profiler = new CpuSetProfiler();
        org.openjdk.jmh.runner.options.Options x925 = new org.openjdk.jmh.runner.options.OptionsBuilder()
                .jvmArgsAppend(CpuBinding.jvmArguments(Placement.resolve("x925", membound.benchmarks.TestHosts.dgxSpark(),
                        false)).toArray(String[]::new)).build();

        assertEquals(List.of("taskset", "-c", "5-9,15-19"), List.copyOf(profiler.addJVMInvokeOptions(params(x925))));
        assertEquals(List.of(), List.copyOf(profiler.addJVMInvokeOptions(params(
                new org.openjdk.jmh.runner.options.OptionsBuilder().jvmArgsAppend("-Dmembound.placement=all",
                        "-Dmembound.cpus=0-19").build()))));
    }

    /** Just enough of JMH's benchmark parameters for the profiler, which reads only the JVM arguments. */
    private static org.openjdk.jmh.infra.BenchmarkParams params(org.openjdk.jmh.runner.options.Options options) {
        List<String> jvmArgs = List.copyOf(options.getJvmArgsAppend().orElse(List.of()));
        return new org.openjdk.jmh.infra.BenchmarkParams("b", "b", false, 1, new int[] {1}, List.of(), 1, 0, null,
                null, org.openjdk.jmh.annotations.Mode.SampleTime, null, java.util.concurrent.TimeUnit.MICROSECONDS,
                1, "java", jvmArgs, "17", "vm", "17", "1.37", null);
    }
}
