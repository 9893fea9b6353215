package membound.calibrator.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import membound.profile.WriteAllocation;

/** The memory controller's counters: which hosts offer them, what perf prints, and a Fill counted end to end. */
class MemoryCountersTest {

    private static final MemoryCounters.Events IMC = new MemoryCounters.Events("uncore_imc/cas_count_read/",
            "uncore_imc/cas_count_write/");

    @TempDir
    Path dir;

    private Path pmus(String... names) throws IOException {
        Path devices = dir.resolve("devices");
        for (String name : names) {
            Files.createDirectories(devices.resolve(name).resolve("events"));
        }
        return devices;
    }

    @Test
    void aVirtualMachineListsNoMemoryControllerAndSaysSo() throws IOException {
        // What the development VM (a KVM guest) lists.
        MemoryCounters.Probe probe = MemoryCounters.probe(pmus("breakpoint", "msr", "software", "tracepoint", "uprobe"));

        assertTrue(probe.events().isEmpty());
        assertTrue(probe.note().startsWith("no memory counters: no memory-controller PMU under "), probe.note());
        assertTrue(probe.note().endsWith("(only breakpoint, msr, software, tracepoint, uprobe; a virtual machine "
                + "exposes none)"), probe.note());
    }

    @Test
    void intelsIntegratedMemoryControllersOfferTheirCasCounts() throws IOException {
        Path devices = pmus("cpu", "uncore_imc_0", "uncore_imc_1", "software");
        for (String event : List.of("cas_count_read", "cas_count_write")) {
            Files.writeString(devices.resolve("uncore_imc_0/events").resolve(event), "event=0x04,umask=0x03\n");
        }

        assertEquals(IMC, MemoryCounters.probe(devices).events().orElseThrow());
    }

    @Test
    void aMemoryPmuWhoseEventsMemboundDoesNotKnowIsNamed() throws IOException {
        MemoryCounters.Probe probe = MemoryCounters.probe(pmus("cpu", "amd_df", "amd_umc_0", "amd_umc_1"));

        assertTrue(probe.events().isEmpty());
        assertEquals("no memory counters: this host has memory PMUs (amd_df, amd_umc_0, amd_umc_1) but membound knows "
                + "read and write events only for Intel's uncore_imc (cas_count_read, cas_count_write)", probe.note());
    }

    @Test
    void perfsCountsAreSummedPerEventAndConvertedToBytes() {
        // perf stat -a -x, merges the controllers into one line per event, in MiB (the events' sysfs scale) ...
        MemoryCounters.Reading merged = MemoryCounters.parse("""
                38146.97,MiB,uncore_imc/cas_count_read/,2001002003,100.00,,
                38147.10,MiB,uncore_imc/cas_count_write/,2001002003,100.00,,
                """, IMC, 2, "perf stat -a", "Fill");
        assertEquals(38146.97 * 1048576, merged.counters().readBytes(), 1);
        assertEquals(38147.10 * 1048576, merged.counters().writeBytes(), 1);
        assertNull(merged.note());

        // ... or one per controller (--no-merge, older perf), and a bare count is of 64-byte lines.
        MemoryCounters.Reading split = MemoryCounters.parse("""
                # started on Mon Dec  1 00:00:00 2026

                1000,,uncore_imc_0/cas_count_read/,2001002003,100.00,,
                3000,,uncore_imc_1/cas_count_read/,2001002003,100.00,,
                500000,,uncore_imc_0/cas_count_write/,2001002003,100.00,,
                500000,,uncore_imc_1/cas_count_write/,2001002003,100.00,,
                """, IMC, 2, "perf stat -a", "Fill");
        assertEquals(4000 * 64.0, split.counters().readBytes());
        assertEquals(1e6 * 64, split.counters().writeBytes());
        assertEquals(0.004, split.counters().readOverWrite(), 1e-12);
    }

    @Test
    void whatPerfCouldNotCountIsTheReasonNotAFigure() {
        MemoryCounters.Reading notSupported = MemoryCounters.parse("""
                <not supported>,,uncore_imc/cas_count_read/,0,100.00,,
                <not supported>,,uncore_imc/cas_count_write/,0,100.00,,
                """, IMC, 2, "perf stat -a", "Fill");
        assertNull(notSupported.counters());
        assertEquals("no memory counters: perf stat says <not supported> for uncore_imc/cas_count_read/",
                notSupported.note());

        MemoryCounters.Reading missing = MemoryCounters.parse("event syntax error: 'uncore_imc/cas_count_read/'\n",
                IMC, 2, "perf stat -a", "Fill");
        assertTrue(missing.note().startsWith("no memory counters: perf stat printed no uncore_imc/cas_count_read/ count"),
                missing.note());
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aFillProcessIsCountedEndToEndWherePerfAnswers() throws IOException {
        Path devices = pmus("uncore_imc_0");
        for (String event : List.of("cas_count_read", "cas_count_write")) {
            Files.writeString(devices.resolve("uncore_imc_0/events").resolve(event), "event=0x04\n");
        }
        // A stand-in for perf: it checks how it was called, waits out the window and reports as perf stat -x, does.
        Path perf = dir.resolve("perf");
        Files.writeString(perf, """
                #!/bin/sh
                [ "$1 $2 $3 $4 $5 $7 $8" = "stat -a -x , -e -- sleep" ] || { echo "unexpected: $*" >&2; exit 9; }
                sleep "$9"
                echo "10.5,MiB,uncore_imc/cas_count_read/,300000000,100.00,," >&2
                echo "1024.0,MiB,uncore_imc/cas_count_write/,300000000,100.00,," >&2
                """);
        Files.setPosixFilePermissions(perf, PosixFilePermissions.fromString("rwx------"));
        StringWriter progress = new StringWriter();

        MemoryCounters.Reading reading = MemoryCounters.read(devices, perf.toString(), 1, 8L << 20, false, null,
                new PrintWriter(progress, true), 100, 300);

        WriteAllocation.MemoryCounters counters = reading.counters();
        org.junit.jupiter.api.Assertions.assertNotNull(counters, reading::toString);
        assertEquals(10.5 / 1024, counters.readOverWrite(), 1e-12, reading.toString());
        assertEquals(0.3, counters.seconds());
        assertEquals("Fill (vector) on 8.00 MiB, 1 thread", counters.kernel());
        assertTrue(progress.toString().startsWith("[memory counters] Fill (vector) on 8.00 MiB, 1 thread under perf stat "
                + "-a -e uncore_imc/cas_count_read/,uncore_imc/cas_count_write/ read 10.5 MiB, wrote 1.00 GiB"),
                progress.toString());
    }

    @Test
    void aPerfThatCannotRunIsTheReason() throws IOException {
        Path devices = pmus("uncore_imc_0");
        for (String event : List.of("cas_count_read", "cas_count_write")) {
            Files.writeString(devices.resolve("uncore_imc_0/events").resolve(event), "event=0x04\n");
        }
        MemoryCounters.Reading reading = MemoryCounters.read(devices, dir.resolve("no-such-perf").toString(), 1,
                8L << 20, false, null, new PrintWriter(new StringWriter(), true), 100, 300);

        assertNull(reading.counters());
        assertTrue(reading.note().startsWith("no memory counters: perf could not be started ("), reading.note());
    }
}
