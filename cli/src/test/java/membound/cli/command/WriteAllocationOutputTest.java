package membound.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.calibrator.run.Calibrator;
import membound.model.machine.Basis;
import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.profile.BandwidthEntry;
import membound.profile.Device;
import membound.profile.LevelCeiling;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.WriteAllocation;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.MemoryLevel;

/**
 * What show, calibrate's summary and predict say of a CPU's stores: the example as it is (assumed), and the example
 * as a calibration that found its stores do not allocate would have written it (hardware bytes = STREAM bytes).
 */
class WriteAllocationOutputTest {

    @TempDir
    Path dir;

    private static Path root() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(root.resolve(".ci"))) {
            root = root.getParent();
        }
        return root;
    }

    private static Profile example() {
        return ProfileJson.read(root().resolve("results/profiles/examples/dgx-spark-example.json"));
    }

    /** The example's cpu with stores measured not to allocate: every hardware figure its STREAM one, the update too. */
    private static Profile streaming() {
        Device cpu = example().device("cpu").orElseThrow();
        List<BandwidthEntry> entries = new ArrayList<>();
        for (BandwidthEntry b : cpu.bandwidth()) {
            entries.add(new BandwidthEntry(b.id(), b.kernel(), b.pattern(), b.standsIn(), b.elementType(),
                    b.implementation(), b.threads(), b.placement(), b.workingSetBytes(), b.level(),
                    b.streamBytesPerSecond(), b.hardwareBytesPerSecond() == null ? null : b.streamBytesPerSecond(),
                    b.provenance()));
        }
        BandwidthEntry copy = entries.stream().filter(b -> b.id().equals("cpu-copy-double-t20-all-dram")).findFirst()
                .orElseThrow();
        List<LevelCeiling> levels = new ArrayList<>(cpu.levels());
        levels.replaceAll(c -> c.level() == MemoryLevel.DRAM && c.access() == AccessPattern.UPDATE
                ? LevelCeiling.updateOf(copy).orElseThrow() : c);
        WriteAllocation no = new WriteAllocation(WriteAllocation.Answer.NO, "made up for this test",
                "cpu-dot-double-t20-all-dram", "cpu-copy-double-t20-all-dram", 1.13, null, null,
                new WriteAllocation.MemoryCounters("perf stat -a", List.of("uncore_imc/cas_count_read/",
                        "uncore_imc/cas_count_write/"), 2e9, 200e9, 2, "Fill (vector) on 2.00 GiB, 20 threads"), null);
        Device measured = cpu.withWriteAllocation(WriteAllocation.assumed("x")).withBandwidth(entries)
                .withLevels(levels).withWriteAllocation(no);
        return example().withDevice(measured);
    }

    @Test
    void showAndTheSummarySayThatTheExamplesHardwareBytesAreAssumed() {
        Profile profile = example();
        String shown = ShowCommand.text(Path.of("example.json"), profile);
        assertTrue(shown.contains("\n  stores     allocate? assumed, not measured: hardware bytes count write-allocate "
                + "(Copy/Scale x1.5, Add/Triad x4/3, Fill x2); assumed, not measured: written before profile schema 4"),
                shown);
        String summary = CalibrateCommand.summary(new Calibrator.Outcome(Path.of("example.json"), profile,
                Duration.ofSeconds(60)));
        assertTrue(summary.contains("\nstores allocate? assumed, not measured: hardware bytes count write-allocate"),
                summary);
    }

    @Test
    void aMeasuredNoIsPrintedWithItsEvidenceAndTimesTheUpdateAtTheCopysOwnRate() throws IOException {
        Profile profile = streaming();
        String shown = ShowCommand.text(Path.of("streaming.json"), profile);
        assertTrue(shown.contains("\n  stores     allocate? no (measured): hardware bytes = STREAM bytes (x1); made up "
                + "for this test\n             from cpu-dot-double-t20-all-dram, cpu-copy-double-t20-all-dram\n"
                + "             counters: perf stat -a -e uncore_imc/cas_count_read/,uncore_imc/cas_count_write/ over "
                + "2.0 s of Fill (vector) on 2.00 GiB, 20 threads: read 1.86 GiB, wrote 186 GiB (0.01)\n"), shown);
        String summary = CalibrateCommand.summary(new Calibrator.Outcome(Path.of("streaming.json"), profile,
                Duration.ofSeconds(60)));
        assertTrue(summary.contains("\nstores allocate? no (measured): hardware bytes = STREAM bytes (x1); made up for "
                + "this test\n       from cpu-dot-double-t20-all-dram"), summary);

        Path file = dir.resolve("streaming.json");
        Files.write(file, ProfileJson.toBytes(profile));
        Machine machine = Machines.profile(file, "cpu", membound.model.machine.Overrides.NONE);
        var update = machine.device().mainMemory().ceiling(AccessPattern.UPDATE);
        assertEquals(104.5e9, update.value(Basis.MEASURED), "the copy's own rate: 104.5 GB/s in STREAM bytes");
        assertTrue(update.source(Basis.MEASURED).contains("in hardware bytes (this CPU's stores measured not to allocate: the copy's "
                + "own bytes; an update in place allocates nothing)"), update.source(Basis.MEASURED));
    }
}
